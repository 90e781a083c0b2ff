package chat

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/format"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// Request shapes. countChat and calculateBudget read a chat request (or a
// history) in OpenAI's shape, in Anthropic's Messages shape, in Gemini's
// generateContent shape or as the Vercel AI SDK's ModelMessage[], and
// translate the other three into the OpenAI request core counts: one
// translation, in core, that every host shares. The answer says which shape
// was read. A translated count is always an estimate: OpenAI's per-message,
// tool and image rules on the model's tokenizer (for Claude and Gemini
// models the registry's estimate and its bound), since the other providers
// publish neither their tokenizers nor their overheads.
//
// The shape is detected from the request unless it names one with
// "shape" (detectShape lists the signs); the translations are in
// shape_anthropic.go, shape_gemini.go and shape_aisdk.go. Blocks a
// translation does not know count as their JSON text, which errs high.

// Shape names the JSON shape a chat request was read in: OpenAI's,
// Anthropic's Messages, Gemini's generateContent, the Vercel AI SDK's
// ModelMessage[] or OpenAI's Responses API (API.md, "Request shapes").
// Detected from the request unless it names one.
type Shape string

// The shapes countChat and calculateBudget read.
const (
	ShapeOpenAI    Shape = "openai"
	ShapeAnthropic Shape = "anthropic"
	ShapeGemini    Shape = "gemini"
	ShapeAISDK     Shape = "aisdk"
	// ShapeResponses is OpenAI's Responses API request (shape_responses.go).
	ShapeResponses Shape = "responses"
)

var shapes = []Shape{ShapeOpenAI, ShapeAnthropic, ShapeGemini, ShapeAISDK, ShapeResponses}

// shapeNotes say, for each translated shape, why its count is an estimate.
var shapeNotes = map[Shape]string{
	ShapeAnthropic: "read as an Anthropic Messages request and counted as its OpenAI translation: Anthropic publishes no tokenizer and no per-message, tool or image costs",
	ShapeGemini:    "read as a Gemini generateContent request and counted as its OpenAI translation: Google publishes no per-message, tool or image costs for it",
	ShapeAISDK:     "read as AI SDK ModelMessages and counted as their OpenAI translation: the provider behind the SDK decides the real costs",
}

// Shaped is a chat request translated to OpenAI's shape, with where
// each message came from.
type Shaped struct {
	shape Shape
	Req   ChatRequest // the request in OpenAI's shape, which CountChat counts
	// from holds, for each message of req, the index of the message it
	// came from in the original request, or -1 for a top-level system
	// prompt. Nil for OpenAI's shape (each message is itself).
	from  []int
	notes []string
	calls int // tool call ids made up so far (Gemini's calls may have none)
	// slack is what the upper bound adds for parts the translation reads
	// but the rules do not price (a Responses custom tool).
	slack int
}

// add appends a translated message that came from message src.
func (s *Shaped) add(m ChatMessage, src int) {
	s.Req.Messages = append(s.Req.Messages, m)
	s.from = append(s.from, src)
}

// note records a reason the count may be off (once per reason).
func (s *Shaped) note(n string) {
	for _, have := range s.notes {
		if have == n {
			return
		}
	}
	s.notes = append(s.notes, n)
}

// callID makes up an id for a tool call that has none.
func (s *Shaped) callID() string {
	s.calls++
	return format.Sprintf("tokenfit-call-%d", s.calls)
}

// origin is the shape and the index of the message a translated message
// came from.
type origin struct {
	shape Shape
	index int
}

// translated is what one content block of a message becomes: a tool call
// of the message, a tool message before it (whose media follow it as a
// user message: OpenAI's tool messages hold text only), or a content part.
type translated struct {
	call  *ToolCall
	tool  *ChatMessage
	media []ContentPart
	part  *ContentPart
}

// messages translates messages whose content is a string or an array of
// typed blocks, as Anthropic's and the AI SDK's are, each block by
// translate. A tool message's (the AI SDK's) blocks other than results
// join a user message.
func (s *Shaped) messages(list [][]byte, path string, translate func(o jsonObject, typ string, raw []byte, path string) (translated, error)) error {
	for i, raw := range list {
		mp := indexPath(path, i)
		o, err := objectAt(raw, mp)
		if err != nil {
			return err
		}
		msg := ChatMessage{Content: ChatContent{Parts: []ContentPart{}}}
		if err := o.requiredStr("role", &msg.Role); err != nil {
			return err
		}
		content := o.fields["content"]
		if jsonio.IsNull(content) || jsonio.Kind(content) == "a string" {
			if err := msg.Content.decodeExact(content, joinPath(mp, "content")); err != nil {
				return err
			}
			s.add(msg, i)
			continue
		}
		blocks, err := decodeArray(content, joinPath(mp, "content"))
		if err != nil {
			return err
		}
		if msg.Role == "tool" {
			msg.Role = "user"
		}
		var media []ContentPart
		for j, b := range blocks {
			bp := indexPath(joinPath(mp, "content"), j)
			bo, typ, err := block(b, bp)
			if err != nil {
				return err
			}
			t, err := translate(bo, typ, b, bp)
			if err != nil {
				return err
			}
			switch {
			case t.call != nil:
				msg.ToolCalls = append(msg.ToolCalls, *t.call)
			case t.tool != nil:
				s.add(*t.tool, i)
				media = append(media, t.media...)
			default:
				msg.Content.Parts = append(msg.Content.Parts, *t.part)
			}
		}
		if len(media) > 0 {
			s.add(ChatMessage{Role: "user", Content: ChatContent{Parts: media}}, i)
		}
		if len(msg.Content.Parts) > 0 || len(msg.ToolCalls) > 0 || len(blocks) == 0 {
			s.add(msg, i)
		}
	}
	return nil
}

// readHead reads what the translated shapes' requests open with: the
// model, a system prompt under each of systemKeys present (as text by
// system) and the list of messages under list, each translated by read.
func (s *Shaped) readHead(o jsonObject, systemKeys []string, system func(o jsonObject, key string) (string, error), list string, read func(msgs [][]byte, path string) error) error {
	if err := o.str("model", &s.Req.Model); err != nil {
		return err
	}
	for _, k := range systemKeys {
		if raw, ok := o.fields[k]; !ok || jsonio.IsNull(raw) {
			continue
		}
		text, err := system(o, k)
		if err != nil {
			return err
		}
		if text != "" {
			s.add(ChatMessage{Role: "system", Content: ChatContent{Text: text}}, -1)
		}
	}
	msgs, err := decodeArray(o.fields[list], list)
	if err != nil {
		return err
	}
	return read(msgs, list)
}

// callBlock is a block that calls a tool, whose id, name and input the
// shape keeps under idKey, nameKey and input.
func callBlock(o jsonObject, idKey, nameKey string, input []byte) (translated, error) {
	call := ToolCall{Type: "function", Function: FunctionCall{Arguments: "{}"}}
	if err := o.str(idKey, &call.ID); err != nil {
		return translated{}, err
	}
	if err := o.requiredStr(nameKey, &call.Function.Name); err != nil {
		return translated{}, err
	}
	if !jsonio.IsNull(input) {
		call.Function.Arguments = jsonText(input)
	}
	return translated{call: &call}, nil
}

// modeChoice reads a tool choice given as a string, as the AI SDK and the
// Responses API write one: "auto", "none" or "required".
func modeChoice(raw []byte, path string) (*ToolChoice, error) {
	mode, _ := jsonio.Unquote(raw)
	switch mode {
	case "auto", "none", "required":
		return &ToolChoice{Mode: mode}, nil
	}
	return nil, fieldErr(path, "unknown choice %q (want auto, none, required or a tool)", engine.Clip(mode))
}

// Read reads a chat request in any shape. Cost: O(n) in the size of
// the JSON.
func Read(b []byte) (*Shaped, error) {
	o, err := objectAt(b, "")
	if err != nil {
		return nil, err
	}
	if err := o.exactKeys(chatRequestKeys); err != nil {
		return nil, err
	}
	if err := o.exactKeys(shapeKeys); err != nil {
		return nil, err
	}
	shape, err := detectShape(o)
	if err != nil {
		return nil, err
	}
	s := &Shaped{shape: shape}
	switch shape {
	case ShapeOpenAI:
		err = s.Req.decodeExact(b, "")
	case ShapeAnthropic:
		err = s.readAnthropic(o)
	case ShapeGemini:
		err = s.readGemini(o)
	case ShapeAISDK:
		err = s.readAISDK(o)
	case ShapeResponses:
		err = s.readResponses(o)
	}
	if err != nil {
		return nil, err
	}
	s.mark()
	return s, nil
}

// mark records in each translated message where it came from.
func (s *Shaped) mark() {
	if s.from == nil {
		return
	}
	for i := range s.Req.Messages {
		s.Req.Messages[i].from = &origin{shape: s.shape, index: s.from[i]}
	}
}

// shapeKeys are the fields a chat request is read by beside OpenAI's
// (chatRequestKeys): the other shapes' translations'.
var shapeKeys = []string{
	"shape", "contents", "system", "systemInstruction", "system_instruction", "instructions", "toolChoice",
	"toolConfig", "tool_config", "thinking", "output_config", "output_format", "input", "text", "responseFormat",
}

// readHistory reads a budget's history, an array of messages in any shape
// but Gemini's contents, which are messages too. Cost: O(n).
func readHistory(b []byte) (*Shaped, error) {
	msgs, err := decodeArray(b, "history")
	if err != nil {
		return nil, err
	}
	shape := ShapeOpenAI
	if len(msgs) > 0 {
		if shape, err = messagesShape(msgs, "history"); err != nil {
			return nil, err
		}
	}
	s := &Shaped{shape: shape}
	switch shape {
	case ShapeOpenAI:
		s.Req.Messages = make([]ChatMessage, len(msgs))
		for i, m := range msgs {
			if err := s.Req.Messages[i].decodeExact(m, indexPath("history", i)); err != nil {
				return nil, err
			}
		}
	case ShapeAnthropic:
		err = s.anthropicMessages(msgs, "history")
	case ShapeGemini:
		err = s.geminiContents(msgs, "history")
	case ShapeAISDK:
		err = s.aisdkMessages(msgs, "history")
	}
	if err != nil {
		return nil, err
	}
	s.mark()
	return s, nil
}

// detectShape returns the shape a request names with "shape", else the one
// its fields show:
//   - Gemini: "contents" (Gemini has no "messages").
//   - Anthropic: a content block OpenAI and the AI SDK do not have
//     (tool_use, tool_result, image with a source, document, thinking…),
//     tools with input_schema, a tool_choice object of type auto, any, tool
//     or none, or a top-level "system".
//   - AI SDK: a part of type tool-call, tool-result, reasoning, file with
//     "data" or image with "image", "tools" as an object keyed by name, or
//     "toolChoice".
//   - OpenAI's Responses API: "input" (no other shape has it).
//   - OpenAI otherwise.
//
// A request that shows two shapes is refused, naming a field of each: it
// can name its shape to settle it.
func detectShape(o jsonObject) (Shape, error) {
	if raw, ok := o.fields["shape"]; ok && !jsonio.IsNull(raw) {
		var s string
		if err := o.str("shape", &s); err != nil {
			return "", err
		}
		for _, k := range shapes {
			if Shape(s) == k {
				return k, nil
			}
		}
		return "", fieldErr("shape", "unknown shape %q (want %s)", engine.Clip(s), shapeList())
	}
	contents, hasContents := o.fields["contents"]
	msgs, hasMsgs := o.fields["messages"]
	if input, ok := o.fields["input"]; ok && !jsonio.IsNull(input) {
		if (hasMsgs && !jsonio.IsNull(msgs)) || (hasContents && !jsonio.IsNull(contents)) {
			return "", fieldErr("input", "a request has input (the Responses API) or messages or contents, not both")
		}
		return ShapeResponses, nil
	}
	if hasContents && !jsonio.IsNull(contents) {
		if hasMsgs && !jsonio.IsNull(msgs) {
			return "", fieldErr("contents", "a request has messages (OpenAI, Anthropic, AI SDK) or contents (Gemini), not both")
		}
		return ShapeGemini, nil
	}
	var ev evidence
	if raw, ok := o.fields["system"]; ok && !jsonio.IsNull(raw) {
		ev.anthropic = "system"
	}
	for _, k := range []string{"thinking", "output_config", "output_format"} {
		if raw, ok := o.fields[k]; ok && !jsonio.IsNull(raw) {
			ev.set(ShapeAnthropic, k)
		}
	}
	if raw, ok := o.fields["tools"]; ok {
		switch t := bytes.TrimSpace(raw); {
		case len(t) > 0 && t[0] == '{':
			ev.set(ShapeAISDK, "tools")
		case len(t) > 0 && t[0] == '[':
			_ = jsonio.Array(t, func(v []byte) error {
				if hasKey(v, "input_schema") {
					ev.set(ShapeAnthropic, "tools")
				}
				return nil
			})
		}
	}
	for _, k := range []string{"toolChoice", "responseFormat"} {
		if raw, ok := o.fields[k]; ok && !jsonio.IsNull(raw) {
			ev.set(ShapeAISDK, k)
		}
	}
	if raw, ok := o.fields["tool_choice"]; ok && bytes.HasPrefix(bytes.TrimSpace(raw), []byte("{")) {
		if c, ok, _ := decodeObject(raw, "tool_choice"); ok {
			var typ string
			_ = c.str("type", &typ)
			switch typ {
			case "auto", "any", "tool", "none":
				ev.set(ShapeAnthropic, "tool_choice")
			}
		}
	}
	if hasMsgs && !jsonio.IsNull(msgs) && bytes.HasPrefix(bytes.TrimSpace(msgs), []byte("[")) {
		list, err := decodeArray(msgs, "messages")
		if err != nil {
			return "", err
		}
		ev.messages(list, "messages")
	}
	return ev.shape()
}

// messagesShape is detectShape for a list of messages alone.
func messagesShape(list [][]byte, path string) (Shape, error) {
	var ev evidence
	ev.messages(list, path)
	if ev.anthropic == "" && ev.aisdk == "" && ev.openai == "" {
		// Gemini's contents carry parts, never content.
		for _, m := range list {
			if hasKey(m, "parts") && !hasKey(m, "content") {
				return ShapeGemini, nil
			}
		}
	}
	return ev.shape()
}

// evidence holds, for each shape, the first field that shows it.
type evidence struct{ openai, anthropic, aisdk string }

func (e *evidence) set(s Shape, field string) {
	p := map[Shape]*string{ShapeOpenAI: &e.openai, ShapeAnthropic: &e.anthropic, ShapeAISDK: &e.aisdk}[s]
	if *p == "" {
		*p = field
	}
}

// messages looks for shape-specific content parts and fields.
func (e *evidence) messages(list [][]byte, path string) {
	for i, m := range list {
		mp := indexPath(path, i)
		o, ok, err := decodeObject(m, mp)
		if err != nil || !ok {
			continue // the translation names the error
		}
		if raw, ok := o.fields["tool_calls"]; ok && !jsonio.IsNull(raw) {
			e.set(ShapeOpenAI, joinPath(mp, "tool_calls"))
		}
		content := bytes.TrimSpace(o.fields["content"])
		if len(content) == 0 || content[0] != '[' {
			continue
		}
		j := 0
		_ = jsonio.Array(content, func(v []byte) error {
			pp := indexPath(joinPath(mp, "content"), j)
			j++
			p, ok, err := decodeObject(v, pp)
			if err != nil || !ok {
				return nil
			}
			var typ string
			_ = p.str("type", &typ)
			switch typ {
			case "image_url", "input_audio", "refusal":
				e.set(ShapeOpenAI, pp)
			case "tool-call", "tool-result", "reasoning", "tool-approval-request", "tool-approval-response":
				e.set(ShapeAISDK, pp)
			case "file":
				if _, ok := p.fields["data"]; ok {
					e.set(ShapeAISDK, pp)
				}
			case "image":
				if _, ok := p.fields["image"]; ok {
					e.set(ShapeAISDK, pp)
				} else if _, ok := p.fields["source"]; ok {
					e.set(ShapeAnthropic, pp)
				}
			case "document", "thinking", "redacted_thinking", "search_result", "container_upload":
				e.set(ShapeAnthropic, pp)
			default:
				if strings.HasSuffix(typ, "_tool_use") || strings.HasSuffix(typ, "_tool_result") || typ == "tool_use" || typ == "tool_result" {
					e.set(ShapeAnthropic, pp)
				}
			}
			return nil
		})
	}
}

// shape decides, refusing a request that shows two shapes.
func (e *evidence) shape() (Shape, error) {
	var found []string
	var shape Shape = ShapeOpenAI
	for _, c := range []struct {
		s     Shape
		field string
	}{{ShapeOpenAI, e.openai}, {ShapeAnthropic, e.anthropic}, {ShapeAISDK, e.aisdk}} {
		if c.field != "" {
			found = append(found, format.Sprintf("%s is %s's", c.field, shapeName(c.s)))
			shape = c.s
		}
	}
	// A top-level system alone is Anthropic's; beside AI SDK parts it is
	// the SDK's own system.
	if e.anthropic == "system" && e.aisdk != "" && e.openai == "" {
		return ShapeAISDK, nil
	}
	if len(found) > 1 {
		return "", fieldErr("shape", "the request mixes shapes (%s): name the one it is in with \"shape\" (%s)", strings.Join(found, ", "), shapeList())
	}
	return shape, nil
}

func shapeName(s Shape) string {
	switch s {
	case ShapeAnthropic:
		return "Anthropic"
	case ShapeGemini:
		return "Gemini"
	case ShapeAISDK:
		return "the AI SDK"
	case ShapeResponses:
		return "OpenAI's Responses API"
	}
	return "OpenAI"
}

func shapeList() string {
	names := make([]string, len(shapes))
	for i, s := range shapes {
		names[i] = string(s)
	}
	return strings.Join(names, ", ")
}

// hasKey reports whether raw is an object with the key.
func hasKey(raw []byte, key string) bool {
	found := false
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '{' {
		_ = jsonio.Object(t, func(k string, _ []byte) error {
			found = found || k == key
			return nil
		})
	}
	return found
}

// typeIs reports whether raw is an object whose "type" is typ.
func typeIs(raw []byte, typ string) bool {
	o, ok, err := decodeObject(raw, "")
	if err != nil || !ok {
		return false
	}
	var t string
	return o.str("type", &t) == nil && t == typ
}

// jsonText is a value as compact JSON text: what a block no translation
// knows counts as, and tool-call arguments given as an object. A key
// repeated in an object is printed once, where it first appears, with its
// last value: what the provider's JSON parser kept.
func jsonText(raw []byte) string {
	raw = bytes.TrimSpace(raw)
	if jsonio.Check(raw) != nil {
		return string(raw)
	}
	return string(appendLastWins(nil, raw))
}

func appendLastWins(b, raw []byte) []byte {
	n := 0
	sep := func() {
		if n > 0 {
			b = append(b, ',')
		}
		n++
	}
	switch jsonio.Kind(raw) {
	case "an object":
		b = append(b, '{')
		_ = jsonio.Members(raw, func(key string, val []byte) error {
			sep()
			b = append(jsonio.AppendString(b, key, false), ':')
			b = appendLastWins(b, val)
			return nil
		})
		return append(b, '}')
	case "an array":
		b = append(b, '[')
		_ = jsonio.Array(raw, func(val []byte) error {
			sep()
			b = appendLastWins(b, val)
			return nil
		})
		return append(b, ']')
	}
	return jsonio.Compact(b, raw)
}

// Fold maps a count of the translated request back to the original
// messages: PerMessage[i] is original message i's tokens, and the count
// says why it is an estimate. It returns the shape the request was read in
// and a top-level system prompt's tokens.
func (s *Shaped) Fold(a *ChatCount) (shape Shape, system int) {
	a.UpperBound += s.slack
	if s.from == nil {
		return s.shape, 0
	}
	n := 0
	for _, f := range s.from {
		n = max(n, f+1)
	}
	per := make([]int, n)
	for i, f := range s.from {
		if f < 0 {
			system += a.PerMessage[i]
		} else {
			per[f] += a.PerMessage[i]
		}
	}
	a.PerMessage = per
	// A Responses request is counted by its own rules (exact where they
	// are), a Gemini or Claude model's request by its provider's; the other
	// shapes are translations, always estimates.
	var lead []string
	switch n, ok := shapeNotes[s.shape]; {
	case IsGeminiFamily(a.Rules):
		// counted as the Gemini request itself (chat_gemini.go)
	case a.Rules == "anthropic" && s.shape == ShapeAnthropic:
		lead = append(lead, "read as an Anthropic Messages request")
	case ok:
		lead = append(lead, n)
	}
	lead = append(lead, s.notes...)
	if len(lead) > 0 {
		a.Exact = false
		a.Notes = append(lead, a.Notes...)
	}
	return s.shape, system
}

// Refield maps an error about the translated request to the original:
// "messages[k]…" becomes the message it came from.
func (s *Shaped) Refield(err error, list string) error {
	fe, ok := err.(*engine.FieldError)
	if !ok || s.from == nil {
		return err
	}
	rest, ok := strings.CutPrefix(fe.Field, "messages[")
	end := strings.IndexByte(rest, ']')
	if !ok || end < 0 {
		return err
	}
	k, e := strconv.Atoi(rest[:end])
	if e != nil || k < 0 || k >= len(s.from) {
		return err
	}
	field := "system"
	if f := s.from[k]; f >= 0 {
		field = indexPath(list, f)
	}
	return &engine.FieldError{Field: field, Reason: format.Sprintf("as translated to OpenAI's shape, %s: %s", fe.Field, fe.Reason)}
}

// Tools are a request's tool definitions. Decoding reads OpenAI's, and
// Anthropic's, Gemini's or the AI SDK's (an object keyed by name) as their
// OpenAI translation. Cost: O(n).
//
//genjson:ts ChatTool[] | AnthropicTool[] | Record<string, unknown>[] | AISDKRequest['tools']
type Tools []ChatTool

// UnmarshalJSON decodes tool definitions in any shape.
func (t *Tools) UnmarshalJSON(b []byte) error {
	s := &Shaped{}
	if jsonio.Kind(b) == "an object" {
		if err := s.aisdkTools(b, "tools"); err != nil {
			return err
		}
		*t = s.Req.Tools
		return nil
	}
	list, err := decodeArray(b, "tools")
	if err != nil {
		return err
	}
	for i, raw := range list {
		path := indexPath("tools", i)
		switch {
		case hasKey(raw, "function") || typeIs(raw, "function"):
			var tool ChatTool
			if err := tool.decodeExact(raw, path); err != nil {
				return err
			}
			s.Req.Tools = append(s.Req.Tools, tool)
		case hasKey(raw, "functionDeclarations") || hasKey(raw, "function_declarations"):
			if err := s.geminiTool(raw, path); err != nil {
				return err
			}
		default:
			tool, err := anthropicTool(raw, path)
			if err != nil {
				return err
			}
			s.Req.Tools = append(s.Req.Tools, tool)
		}
	}
	*t = s.Req.Tools
	return nil
}
