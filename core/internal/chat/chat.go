package chat

import (
	"slices"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/format"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// ChatRequest is the part of an OpenAI chat completions request that costs
// prompt tokens, under OpenAI's own JSON names. Decoding it from JSON
// accepts and ignores every other field (temperature, max_tokens, …) and
// reports a bad shape as an error naming the JSON path (a *FieldError),
// such as "messages[2].content[0].type". Decoding costs O(n) in the size
// of the JSON.
type ChatRequest struct {
	Model    string        `json:"model,omitempty"`
	Messages []ChatMessage `json:"messages"`
	// Tools and the legacy Functions are mutually exclusive; so are
	// ToolChoice and the legacy FunctionCall. Nil means absent.
	Tools        []ChatTool          `json:"tools,omitempty"`
	Functions    []FunctionDef       `json:"functions,omitempty"`
	ToolChoice   *ToolChoice         `json:"tool_choice,omitempty"`
	FunctionCall *FunctionCallChoice `json:"function_call,omitempty"`
	// ResponseFormat is the structured output the reply must follow
	// (response_format); a json_schema format's schema is billed.
	ResponseFormat *ResponseFormat `json:"response_format,omitempty"`
	// API is the OpenAI API the request is sent to: "chat" (APIChat: Chat
	// Completions, the default for this shape) or "responses"
	// (APIResponses). The two bill the same conversation differently
	// (RulesFor).
	//genjson:check checkAPI
	API OpenAIAPI `json:"api,omitempty"`
	// ChatTemplateKwargs are the variables a request gives an open-weight
	// model's chat template (vLLM's chat_template_kwargs); tokenfit reads
	// those its built-in templates take (ChatTemplateKwargs) and ignores
	// the others.
	//genjson:ts ChatTemplateKwargs & { [name: string]: unknown }
	ChatTemplateKwargs *ChatTemplateKwargs `json:"chat_template_kwargs,omitempty"`
	// gemini is what a Gemini request carries beyond this translation
	// (shape_gemini.go); nil for the other shapes.
	gemini *geminiExtras
	// anthropic is what an Anthropic Messages request asks beside the
	// messages and tools (shape_anthropic.go); nil for other shapes.
	anthropic *anthropicExtras
	// aisdk: the request was read as AI SDK ModelMessages, whose providers
	// send a structured output their own way (chat_anthropic.go,
	// chat_gemini.go).
	aisdk bool
}

// anthropicExtras are the parts of an Anthropic request that change its
// billed prompt but have no place in OpenAI's shape.
type anthropicExtras struct {
	// thinking is extended thinking's type when it is on: "enabled" or
	// "adaptive".
	thinking string
	// output is the JSON Schema of output_config.format (or the beta's
	// output_format), when the request asks for structured output.
	output RawJSON
	// taskBudget: output_config.task_budget is set.
	taskBudget bool
}

// ChatTemplateKwargs are the chat-template variables tokenfit reads.
type ChatTemplateKwargs struct {
	// DateString is the "Today Date" of Llama 3.1's and 3.2's system header, such as
	// "26 Jul 2024" (the template's own default when absent).
	DateString *string `json:"date_string,omitempty"`
	// ReasoningEffort ("low", "medium", "high") and ModelIdentity are
	// gpt-oss's system message's (the template's defaults when absent:
	// "medium" and "You are ChatGPT, a large language model trained by
	// OpenAI.").
	ReasoningEffort *string `json:"reasoning_effort,omitempty"`
	ModelIdentity   *string `json:"model_identity,omitempty"`
}

// ChatMessage is one message of a chat request. Role is one of system,
// developer, user, assistant, tool and function.
type ChatMessage struct {
	//genjson:required
	//genjson:ts 'system' | 'developer' | 'user' | 'assistant' | 'tool' | 'function' | string
	Role    string      `json:"role"`
	Content ChatContent `json:"content,omitempty"`
	Name    string      `json:"name,omitempty"`
	// ToolCallID is the call a tool message answers; ToolCalls are an
	// assistant message's calls; FunctionCall is an assistant message's
	// legacy call.
	ToolCallID   string        `json:"tool_call_id,omitempty"`
	ToolCalls    []ToolCall    `json:"tool_calls,omitempty"`
	FunctionCall *FunctionCall `json:"function_call,omitempty"`
	// from is where a message translated from another shape came from
	// (shape.go); nil for one read in OpenAI's shape.
	from *origin
}

// ChatContent is a message's content: a string (Text), or an array of
// parts (Parts non-nil). JSON null and an absent content decode to the
// zero value, which encodes as "".
//
//genjson:ts string | ContentPart[] | null
type ChatContent struct {
	Text  string
	Parts []ContentPart
}

// ContentPart is one element of an array content: {"type":"text","text":…}
// or {"type":"image_url","image_url":{…}}.
type ContentPart struct {
	//genjson:required
	//genjson:ts 'text' | 'image_url' | string
	Type     string    `json:"type"`
	Text     string    `json:"text,omitempty"`
	ImageURL *ImageURL `json:"image_url,omitempty"`
	// thinking marks the text of a translated thinking block, which
	// Anthropic bills only in the latest assistant turn.
	thinking bool
}

// ImageURL is an image_url part's image. Detail is "low", "high", "auto" or
// empty (auto). The image's size is read from a base64 data URL (PNG, JPEG,
// GIF, WebP); for other URLs the caller may give Width and Height, which are
// tokenfit's own fields (OpenAI does not know them), else the count assumes
// the largest cost the image could have.
type ImageURL struct {
	//genjson:required
	//genjson:string
	URL string `json:"url"`
	//genjson:ts 'low' | 'high' | 'auto' | string
	Detail string `json:"detail,omitempty"`
	Width  int    `json:"width,omitempty"`
	Height int    `json:"height,omitempty"`
}

// ToolCall is one call in an assistant message's tool_calls. Type is
// "function" (empty is taken as "function").
type ToolCall struct {
	ID string `json:"id,omitempty"`
	//genjson:ts 'function' | string
	Type string `json:"type"`
	//genjson:required
	Function FunctionCall `json:"function"`
}

// FunctionCall names a function and its arguments, a JSON text.
type FunctionCall struct {
	Name string `json:"name"`
	//genjson:want a string holding JSON
	Arguments string `json:"arguments"`
}

// ChatTool is one entry of tools. Type is "function".
type ChatTool struct {
	//genjson:required
	//genjson:check checkToolType
	//genjson:ts 'function' | string
	Type string `json:"type"`
	//genjson:required
	Function FunctionDef `json:"function"`
}

// FunctionDef defines a function for tools or the legacy functions.
// Parameters is its JSON schema, kept as sent: the API renders properties in
// the order the caller wrote them.
type FunctionDef struct {
	//genjson:required
	//genjson:nonempty
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Parameters is a JSON Schema object, kept as sent.
	//genjson:want an object (a JSON schema)
	Parameters RawJSON `json:"parameters,omitempty"`
	Strict     *bool   `json:"strict,omitempty"`
	// deferred marks an Anthropic tool with defer_loading, which stays out
	// of the prompt until a tool search loads it.
	deferred bool
}

// ToolChoice is tool_choice: Mode "none", "auto", "required", or
// "function" with the function's Name.
//
//genjson:ts 'none' | 'auto' | 'required' | { type: 'function'; function: { name: string } }
type ToolChoice struct {
	Mode string
	Name string
}

// FunctionCallChoice is the legacy function_call option: Mode "none",
// "auto", or "function" with the function's Name.
//
//genjson:ts 'none' | 'auto' | { name: string }
type FunctionCallChoice struct {
	Mode string
	Name string
}

// ChatCount is what a chat request costs, as the API bills it in
// prompt_tokens, and where the tokens go. Total = Messages + Tools +
// ToolChoice + ResponseFormat + Priming, and Messages is the sum of
// PerMessage.
type ChatCount struct {
	// Total is the request's prompt_tokens.
	Total int `json:"total"`
	// UpperBound is what the provider's count will not exceed: where a
	// rule is only fitted, the largest count of every candidate rendering
	// (see CandidateRules), grown by an estimate's error bound (a
	// calibration's, once it has pairs). Total itself when everything is
	// exact. Total stays the best guess.
	UpperBound int `json:"upperBound"`
	// Messages is the tokens of all messages, each with its overhead;
	// PerMessage has each message's share, in request order. Image tokens
	// are part of their message's.
	Messages   int   `json:"messages"`
	PerMessage []int `json:"perMessage"`
	// Tools is what the function definitions add: their rendering, its
	// constant, and the adjustment of the system message they join.
	Tools int `json:"tools"`
	// ToolChoice is what tool_choice or function_call adds.
	ToolChoice int `json:"toolChoice"`
	// ResponseFormat is what a json_schema response format adds: its
	// schema, written into the prompt (chat_output.go).
	ResponseFormat int `json:"responseFormat"`
	// Priming is the reply priming added once per request.
	Priming int `json:"priming"`
	// Images is the image tokens, already counted in Messages.
	Images int `json:"images"`
	// Exact reports that Total is what the API bills: false when a
	// tokenizer estimate, an image, or a rule that is only fitted or
	// guessed for the model family was involved; Notes say which.
	Exact bool `json:"exact"`
	// Rules is the family of the rules used (ChatRules.Family).
	Rules string `json:"rules"`
	// Encoding is the tokenizer's name.
	Encoding string `json:"encoding"`
	// Notes explain each reason the count is not exact.
	Notes []string `json:"notes,omitempty"`
}

// CountChat counts the prompt tokens of a chat request with a model's
// tokenizer and chat rules (see ChatRulesFor). A request that is not
// well-formed (an unknown role, a tool without a name, an invalid
// parameters schema…) gives an error wrapping ErrInvalidRequest, usually a
// *FieldError naming the field. Cost: O(n) in the size of the request, plus
// one read of each data URL image's header.
func CountChat(tok engine.Tokenizer, req ChatRequest, rules ChatRules) (ChatCount, error) {
	if tok == nil {
		return ChatCount{}, format.Errorf("%w: CountChat needs a tokenizer", engine.ErrInternal)
	}
	if err := req.validate(); err != nil {
		return ChatCount{}, err
	}
	if rules.Template != "" {
		return countTemplate(tok, req, rules)
	}
	if rules.Anthropic != nil {
		return countAnthropic(tok, req, *rules.Anthropic)
	}
	if rules.Gemini != nil {
		return countGemini(tok, req, rules)
	}
	c := &chatCounter{tok: tok, rules: rules, exact: true}
	if !tok.Exact() {
		c.inexact(format.Sprintf("%s is an estimating tokenizer: every text count is an estimate", tok.Name()))
	}
	if !rules.Messages.Exact {
		c.inexact(format.Sprintf("the %s rules are not verified against the API: per-message and reply-priming constants are a best guess", rules.Family))
	}

	out := ChatCount{PerMessage: make([]int, len(req.Messages)), Rules: rules.Family, Encoding: tok.Name()}
	callNames := map[string]string{}
	for i := range req.Messages {
		rules.stop.Check()
		n := c.message(&req.Messages[i], callNames)
		out.PerMessage[i] = n
		out.Messages += n
	}

	var err error
	if out.Tools, err = c.tools(&req); err != nil {
		return ChatCount{}, err
	}
	out.ToolChoice = c.choice(&req)
	format, formatSlack, err := c.format(&req)
	if err != nil {
		return ChatCount{}, err
	}
	out.ResponseFormat = format
	out.Priming = rules.Messages.ReplyPriming
	out.Images = c.images
	out.Total = out.Messages + out.Tools + out.ToolChoice + out.ResponseFormat + out.Priming
	slack, err := c.slack(&req, out.PerMessage, callNames)
	if err != nil {
		return ChatCount{}, err
	}
	slack += c.undeclared(&req)
	out.UpperBound = tok.Upper(out.Total + slack + formatSlack)
	out.Exact = c.exact
	out.Notes = c.notes
	return out, nil
}

// slack is how much more than the chosen rules the worst candidate
// rendering of CandidateRules counts, for the parts whose rule is fitted:
// the function definitions (2023 indented or 2024 flat, with or without the
// undescribed-property adjustment), tool calls and tool messages (legacy or
// 2024, per message) and the reply priming. Images need none: an unknown
// size or detail is already counted at its largest cost. Only the varying
// parts are recounted, so a long history costs nothing more.
func (c *chatCounter) slack(req *ChatRequest, perMessage []int, callNames map[string]string) (int, error) {
	r := c.rules
	slack := r.Messages.Spread
	if !r.Messages.Exact {
		for _, m := range candidateMessages {
			slack = max(slack, r.Messages.Spread+m.ReplyPriming-r.Messages.ReplyPriming)
		}
	}
	alt := &chatCounter{tok: c.tok, rules: r}
	for i := range req.Messages {
		if r.ToolCalls.Measured {
			break
		}
		m := &req.Messages[i]
		if len(m.ToolCalls) > 1 {
			slack += r.ToolCalls.Spread
		}
		if m.Role != "tool" && len(m.ToolCalls) == 0 {
			continue
		}
		worst := perMessage[i]
		for _, calls := range candidateCalls {
			alt.rules.ToolCalls = calls
			worst = max(worst, alt.message(m, callNames))
		}
		slack += worst - perMessage[i]
	}
	defs := functionInputs(req)
	if len(defs) == 0 {
		return slack, nil
	}
	chosen, err := c.definitions(defs, r.Tools)
	if err != nil || chosen.exact {
		return slack, err
	}
	if r.Tools.Measured {
		return slack + r.Tools.Spread, nil
	}
	worst := chosen.n + r.Tools.Spread
	for _, style := range []ParamStyle{ParamsIndented, ParamsFlat} {
		for _, und := range candidateUndescribed {
			tr := r.Tools
			tr.Params, tr.Undescribed = style, und
			d, err := c.definitions(defs, tr)
			if err != nil {
				return 0, err
			}
			worst = max(worst, d.n)
		}
	}
	return slack + worst - chosen.n, nil
}

// undeclaredCall is what the bound adds for a call to a function the
// request does not define, beside definitions it has: the one such count
// (gpt-5 on the Responses API) bills 6 above the rules.
const undeclaredCall = 6

// undeclared returns what the bound adds for calls to functions the
// request's definitions do not include, noting them.
func (c *chatCounter) undeclared(req *ChatRequest) int {
	defs := functionInputs(req)
	if len(defs) == 0 {
		return 0
	}
	n := 0
	for i := range req.Messages {
		for _, call := range req.Messages[i].ToolCalls {
			if !slices.ContainsFunc(defs, func(d funcInput) bool { return d.def.Name == call.Function.Name }) {
				c.inexact("a call to a function the request does not define: billed above the rules (one count: 6 more)")
				n += undeclaredCall
			}
		}
	}
	return n
}

// The candidates for the fitted parts of a family's rules: every rendering
// some family is known to use.
var (
	candidateMessages    = []MessageRules{messages3, messagesO}
	candidateCalls       = []ToolCallRules{callsLegacy, calls2024}
	candidateUndescribed = []int{0, tools2024.Undescribed}
)

// chatCounter carries one CountChat call's state.
type chatCounter struct {
	tok    engine.Tokenizer
	rules  ChatRules
	exact  bool
	notes  []string
	images int
}

// inexact marks the count as not exact, saying why (once per reason).
func (c *chatCounter) inexact(note string) {
	c.exact = false
	if !slices.Contains(c.notes, note) {
		c.notes = append(c.notes, note)
	}
}

func (c *chatCounter) count(s string) int {
	if s == "" {
		return 0
	}
	return c.tok.Count(s)
}

// message returns one message's tokens with its overhead. callNames maps
// the ids of the tool calls seen so far to their function names.
func (c *chatCounter) message(m *ChatMessage, callNames map[string]string) int {
	mr, tr := c.rules.Messages, c.rules.ToolCalls
	content, hasContent := c.content(m)

	if m.Role == "tool" {
		name := callNames[m.ToolCallID]
		if name == "" {
			name = m.Name
		}
		if name == "" {
			c.inexact("a tool message answers no earlier tool call (by tool_call_id) and has no name: its function name is not counted")
		}
		c.inexact("tool calls and tool messages: the rule is fitted to a few API counts, not verified")
		if tr.Legacy {
			// Billed like a legacy role "function" message named after the
			// function it answers.
			return mr.PerMessage + c.count(m.Role) + content + c.count(name) + mr.PerName + mr.FunctionMessage
		}
		return tr.Result + c.toolName(name) + content
	}

	n := mr.PerMessage + c.count(m.Role) + content
	if m.Role == "assistant" && mr.PerAssistant != 0 {
		n += mr.PerAssistant
		c.inexact(format.Sprintf("assistant turns on %s: their channel's %d tokens are fitted on billed counts, not verified", c.rules.Family, mr.PerAssistant))
	}
	if m.Name != "" {
		n += c.count(m.Name) + mr.PerName
	}
	if m.Role == "function" {
		n += mr.FunctionMessage
		c.legacyNote()
	}
	if m.FunctionCall != nil {
		n += c.count(m.FunctionCall.Name) + c.count(m.FunctionCall.Arguments) + mr.FunctionCall
		c.legacyNote()
	}
	if len(m.ToolCalls) > 0 {
		c.inexact("tool calls and tool messages: the rule is fitted to a few API counts, not verified")
		for i := range m.ToolCalls {
			call := &m.ToolCalls[i].Function
			callNames[m.ToolCalls[i].ID] = call.Name
			if tr.Legacy {
				n += c.count(call.Name) + c.count(call.Arguments) + mr.FunctionCall
				continue
			}
			n += c.count(call.Name) + c.count(compactJSON(call.Arguments)) + tr.PerCall
		}
		if !tr.Legacy {
			if hasContent {
				n += tr.WithContent
			}
			if len(m.ToolCalls) > 1 {
				n += tr.Parallel + (len(m.ToolCalls)-1)*tr.ParallelPerCall
				c.inexact("several tool calls in one message: the parallel-call constants rest on two API counts")
			}
		}
	}
	return n
}

// toolName is the tokens of the function name a tool message answers:
// the API writes the message's author as "functions.NAME", where the
// name's first piece usually joins the dot; a name whose first piece does
// not ("durability_…") costs one more (fitted: 2 gpt-4o counts with such a
// name, and the constant of every other tool-message count). Names count
// as themselves when the dot joins, and always with an estimating
// tokenizer.
func (c *chatCounter) toolName(name string) int {
	if name == "" || !c.tok.Exact() {
		return c.count(name)
	}
	return c.count("functions."+name) - c.count("functions.") + 1
}

// legacyNote flags legacy function messages outside the 2023 snapshots,
// the only ones whose counts were verified.
func (c *chatCounter) legacyNote() {
	if !c.rules.ToolCalls.Legacy {
		c.inexact(format.Sprintf("legacy function messages and function_call: verified on the 2023 snapshots only, not for %s", c.rules.Family))
	}
}

// content returns the tokens of a message's content and whether it has any.
func (c *chatCounter) content(m *ChatMessage) (int, bool) {
	if m.Content.Parts == nil {
		return c.count(m.Content.Text), m.Content.Text != ""
	}
	n, texts := 0, 0
	for i := range m.Content.Parts {
		p := &m.Content.Parts[i]
		switch p.Type {
		case "text":
			n += c.count(p.Text)
			texts++
		case "image_url":
			t := c.image(p.ImageURL)
			c.images += t
			n += t
		}
	}
	if texts > 1 {
		c.inexact("several text parts in one message: counted separately; how the API joins them is not known")
	}
	return n, len(m.Content.Parts) > 0
}

// tools returns the tokens the function definitions add.
func (c *chatCounter) tools(req *ChatRequest) (int, error) {
	defs := functionInputs(req)
	if len(defs) == 0 {
		return 0, nil
	}
	tr := c.rules.Tools
	d, err := c.definitions(defs, tr)
	if err != nil {
		return 0, err
	}
	n, r := d.n, d.r
	if !tr.Exact {
		c.inexact(format.Sprintf("function definitions: the rendering is not verified against the API for %s", c.rules.Family))
	}
	if r.nested && !tr.NestedExact {
		c.inexact(format.Sprintf("function parameters with nested objects or anyOf: the rendering is not verified for %s", c.rules.Family))
	}
	if r.undescribed > 0 && tr.Undescribed != 0 {
		c.inexact("properties without a description: their adjustment is fitted, not verified")
	}
	if len(r.unknown) > 0 {
		c.inexact("function parameters use schema keywords whose rendering is not known: " + strings.Join(r.unknown, ", "))
	}
	if r.strict {
		c.inexact("strict function definitions: their rendering is not known")
	}
	for i := range req.Messages {
		m := &req.Messages[i]
		if m.Role != "system" {
			continue
		}
		// The definitions join the first system message, which gains a
		// newline; the newline may merge with its last token.
		last := m.Content.Text
		if m.Content.Parts != nil {
			last = ""
			for j := range m.Content.Parts {
				if m.Content.Parts[j].Type == "text" {
					last = m.Content.Parts[j].Text
				}
			}
		}
		n += c.count(last+"\n") - c.count(last) + tr.SystemMessage
		break
	}
	return n, nil
}

// functionInputs lists a request's function definitions, tools first.
func functionInputs(req *ChatRequest) []funcInput {
	defs := make([]funcInput, 0, len(req.Tools)+len(req.Functions))
	for i := range req.Tools {
		defs = append(defs, funcInput{&req.Tools[i].Function, format.Sprintf("tools[%d].function", i)})
	}
	for i := range req.Functions {
		defs = append(defs, funcInput{&req.Functions[i], format.Sprintf("functions[%d]", i)})
	}
	return defs
}

// counted definitions: their tokens under some rules (without the system
// message's adjustment, which no candidate changes), the rendering, and
// whether the rules' count of them is verified.
type countedDefs struct {
	n     int
	r     rendered
	exact bool
}

func (c *chatCounter) definitions(defs []funcInput, tr ToolRules) (countedDefs, error) {
	r, err := renderFunctions(defs, tr.Params)
	if err != nil {
		return countedDefs{}, err
	}
	exact := tr.Exact && !(r.nested && !tr.NestedExact) && !(r.undescribed > 0 && tr.Undescribed != 0)
	return countedDefs{n: c.count(r.text) + tr.Definitions + r.undescribed*tr.Undescribed, r: r, exact: exact}, nil
}

// choice returns the tokens tool_choice or function_call adds.
func (c *chatCounter) choice(req *ChatRequest) int {
	if req.ToolChoice == nil && req.FunctionCall == nil {
		return 0
	}
	if len(req.Tools) == 0 && len(req.Functions) == 0 {
		c.inexact("tool_choice or function_call without tools: not counted (the API rejects such a request)")
		return 0
	}
	tr := c.rules.Tools
	if tr.ChoiceFree {
		return 0
	}
	if ch := req.FunctionCall; ch != nil {
		switch ch.Mode {
		case "none":
			return tr.FunctionCallNone
		case "function":
			return tr.FunctionCallNamed + c.count(ch.Name)
		}
		return 0
	}
	ch := req.ToolChoice
	switch ch.Mode {
	case "none":
		return tr.ToolChoiceNone
	case "required":
		c.inexact(`tool_choice "required": its cost was never measured`)
		return tr.ToolChoiceRequired
	case "function":
		return tr.ToolChoiceNamed + c.count(ch.Name)
	}
	return 0
}

// compactJSON returns a JSON text without insignificant whitespace, keys in
// their order; text that is not JSON is returned as it is.
func compactJSON(s string) string {
	if jsonio.Check([]byte(s)) != nil {
		return s
	}
	return string(jsonio.Compact(nil, []byte(s)))
}

var chatRoles = []string{"system", "developer", "user", "assistant", "tool", "function"}

// validate checks what CountChat needs beyond the JSON shapes, so that
// requests built in Go are checked like decoded ones.
func (r *ChatRequest) validate() error {
	for i := range r.Messages {
		if err := r.Messages[i].validate(format.Sprintf("messages[%d]", i)); err != nil {
			return err
		}
	}
	switch r.API {
	case "", APIChat, APIResponses:
	default:
		return fieldErr("api", "unknown API %q (want chat or responses)", engine.Clip(string(r.API)))
	}
	if len(r.Tools) > 0 && len(r.Functions) > 0 {
		return fieldErr("functions", "a request has tools or the legacy functions, not both")
	}
	if r.ToolChoice != nil && r.FunctionCall != nil {
		return fieldErr("function_call", "a request has tool_choice or the legacy function_call, not both")
	}
	for i := range r.Tools {
		t := &r.Tools[i]
		if t.Type != "function" {
			return fieldErr(format.Sprintf("tools[%d].type", i), "unknown tool type %q (want \"function\")", engine.Clip(t.Type))
		}
		if t.Function.Name == "" {
			return fieldErr(format.Sprintf("tools[%d].function.name", i), "missing")
		}
	}
	for i := range r.Functions {
		if r.Functions[i].Name == "" {
			return fieldErr(format.Sprintf("functions[%d].name", i), "missing")
		}
	}
	if ch := r.ToolChoice; ch != nil {
		switch ch.Mode {
		case "none", "auto", "required":
		case "function":
			if ch.Name == "" {
				return fieldErr("tool_choice.function.name", "missing")
			}
		default:
			return fieldErr("tool_choice", "unknown choice %q (want none, auto, required or a function)", engine.Clip(ch.Mode))
		}
	}
	if ch := r.FunctionCall; ch != nil {
		switch ch.Mode {
		case "none", "auto":
		case "function":
			if ch.Name == "" {
				return fieldErr("function_call.name", "missing")
			}
		default:
			return fieldErr("function_call", "unknown choice %q (want none, auto or a function)", engine.Clip(ch.Mode))
		}
	}
	return nil
}

func (m *ChatMessage) validate(path string) error {
	if m.Role == "" {
		return fieldErr(path+".role", "missing")
	}
	if !slices.Contains(chatRoles, m.Role) {
		return fieldErr(path+".role", "unknown role %q (want %s)", engine.Clip(m.Role), strings.Join(chatRoles, ", "))
	}
	for j := range m.Content.Parts {
		p := &m.Content.Parts[j]
		pp := format.Sprintf("%s.content[%d]", path, j)
		switch p.Type {
		case "text":
		case "image_url":
			if p.ImageURL == nil {
				return fieldErr(pp+".image_url", "missing")
			}
			if p.ImageURL.URL == "" {
				return fieldErr(pp+".image_url.url", "missing")
			}
			switch p.ImageURL.Detail {
			case "", "auto", "low", "high":
			default:
				return fieldErr(pp+".image_url.detail", "unknown detail %q (want low, high or auto)", engine.Clip(p.ImageURL.Detail))
			}
			if p.ImageURL.Width < 0 || p.ImageURL.Height < 0 {
				return fieldErr(pp+".image_url.width", "negative image size")
			}
		case "":
			return fieldErr(pp+".type", "missing")
		default:
			return fieldErr(pp+".type", "unknown content part type %q (tokenfit counts text and image_url)", engine.Clip(p.Type))
		}
	}
	for j := range m.ToolCalls {
		tc := &m.ToolCalls[j]
		tp := format.Sprintf("%s.tool_calls[%d]", path, j)
		if tc.Type != "" && tc.Type != "function" {
			return fieldErr(tp+".type", "unknown tool call type %q (want \"function\")", engine.Clip(tc.Type))
		}
		if tc.Function.Name == "" {
			return fieldErr(tp+".function.name", "missing")
		}
	}
	if m.FunctionCall != nil && m.FunctionCall.Name == "" {
		return fieldErr(path+".function_call.name", "missing")
	}
	return nil
}
