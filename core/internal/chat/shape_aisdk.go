package chat

import (
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// The Vercel AI SDK's ModelMessage[] (with generateText's system, tools and
// toolChoice around it), translated to OpenAI's shape (see shape.go):
// text and reasoning parts as text, image parts (and image files) as
// image_url parts, tool-call parts as tool calls, each tool-result part a
// tool message (output text or JSON, its media a user message after it),
// tools keyed by name as functions with inputSchema (or v4's parameters) as
// their parameters, toolChoice as tool_choice, and responseFormat (the
// language model's call option: {type: "json", schema, name, description})
// as the json_schema format the SDK's OpenAI provider sends. Other parts
// count as their JSON text. An OpenAI model is counted by its Responses
// rules, the API the SDK's OpenAI provider calls by default; "api": "chat"
// says the request goes to Chat Completions (openai.chat(…)). Cost: O(n)
// in the size of the JSON.

func (s *Shaped) readAISDK(o jsonObject) error {
	s.Req.aisdk = true
	system := func(o jsonObject, key string) (string, error) {
		var text string
		return text, o.str(key, &text)
	}
	if err := s.readHead(o, []string{"system", "instructions"}, system, "messages", s.aisdkMessages); err != nil {
		return err
	}
	if err := o.str("api", (*string)(&s.Req.API)); err != nil {
		return err
	}
	if err := checkAPI(s.Req.API, joinPath(o.path, "api")); err != nil {
		return err
	}
	if s.Req.API == "" {
		s.Req.API = APIResponses
	}
	if err := s.aisdkFormat(o.fields["responseFormat"]); err != nil {
		return err
	}
	if raw, ok := o.fields["tools"]; ok && !jsonio.IsNull(raw) {
		if err := s.aisdkTools(raw, "tools"); err != nil {
			return err
		}
	}
	raw, ok := o.fields["toolChoice"]
	if !ok || jsonio.IsNull(raw) || len(s.Req.Tools) == 0 {
		return nil
	}
	if jsonio.Kind(raw) == "a string" {
		var err error
		s.Req.ToolChoice, err = modeChoice(raw, "toolChoice")
		return err
	}
	c, ok, err := decodeObject(raw, "toolChoice")
	if err != nil {
		return err
	}
	if !ok {
		return typeErr("toolChoice", "a string or an object", raw)
	}
	ch := &ToolChoice{Mode: "function"}
	if err := c.requiredStr("toolName", &ch.Name); err != nil {
		return err
	}
	s.Req.ToolChoice = ch
	return nil
}

// aisdkMessages translates the messages of list (at path).
func (s *Shaped) aisdkMessages(list [][]byte, path string) error {
	return s.messages(list, path, s.aisdkBlock)
}

// aisdkBlock translates one part: tool-call a tool call, tool-result a
// tool message, any other a content part.
func (s *Shaped) aisdkBlock(o jsonObject, typ string, raw []byte, path string) (translated, error) {
	switch typ {
	case "tool-call":
		in, _ := field(o, "input", "args")
		return callBlock(o, "toolCallId", "toolName", in)
	case "tool-result":
		tool := ChatMessage{Role: "tool"}
		if err := o.requiredStr("toolCallId", &tool.ToolCallID); err != nil {
			return translated{}, err
		}
		if err := o.str("toolName", &tool.Name); err != nil {
			return translated{}, err
		}
		out, key := field(o, "output", "result")
		text, media, err := s.aisdkOutput(out, key)
		tool.Content.Text = text
		return translated{tool: &tool, media: media}, err
	}
	p, err := s.aisdkPart(o, typ, raw, path)
	return translated{part: &p}, err
}

// aisdkPart is one part as an OpenAI content part.
func (s *Shaped) aisdkPart(o jsonObject, typ string, raw []byte, path string) (ContentPart, error) {
	switch typ {
	case "text", "reasoning":
		p := ContentPart{Type: "text"}
		return p, o.requiredStr("text", &p.Text)
	case "image":
		media, _ := field(o, "mediaType", "mimeType")
		return s.aisdkImage(o.fields["image"], media), nil
	case "file":
		media, _ := field(o, "mediaType", "mimeType")
		var mt string
		if !jsonio.IsNull(media) {
			mt, _ = jsonio.Unquote(media)
		}
		if strings.HasPrefix(mt, "image/") {
			return s.aisdkImage(o.fields["data"], media), nil
		}
		s.note("a file part other than an image: counted as its JSON text, not as the provider bills it")
	}
	return ContentPart{Type: "text", Text: jsonText(raw)}, nil
}

// aisdkImage is an image's data (a URL, a data URL or base64) as an
// image_url part; bytes serialised as an object cannot be read, and count
// at an image's largest cost.
func (s *Shaped) aisdkImage(data, media []byte) ContentPart {
	v, err := jsonio.Unquote(data)
	if err != nil || v == "" {
		s.note("an image given as bytes (not a URL or base64 text): counted at the largest cost an image can have")
		return imagePart("about:blank")
	}
	for _, scheme := range []string{"data:", "http:", "https:"} {
		if strings.HasPrefix(v, scheme) {
			return imagePart(v)
		}
	}
	mt := "image/png"
	if !jsonio.IsNull(media) {
		if m, err := jsonio.Unquote(media); err == nil && m != "" {
			mt = m
		}
	}
	return imagePart("data:" + mt + ";base64," + v)
}

// aisdkOutput is a tool result's output as text, with its media apart:
// {type: text|error-text, value} gives the text, json|error-json the value's
// JSON text, content its text parts and media; v4's result is its JSON text.
func (s *Shaped) aisdkOutput(raw []byte, path string) (string, []ContentPart, error) {
	if jsonio.IsNull(raw) {
		return "", nil, nil
	}
	if strings.HasSuffix(path, ".result") || jsonio.Kind(raw) != "an object" {
		if t, err := jsonio.Unquote(raw); err == nil {
			return t, nil, nil
		}
		return jsonText(raw), nil, nil
	}
	o, _, err := decodeObject(raw, path)
	if err != nil {
		return "", nil, err
	}
	var typ string
	if err := o.requiredStr("type", &typ); err != nil {
		return "", nil, err
	}
	value := o.fields["value"]
	switch typ {
	case "text", "error-text":
		var t string
		return t, nil, o.str("value", &t)
	case "json", "error-json":
		return jsonText(value), nil, nil
	case "content":
		items, err := decodeArray(value, joinPath(path, "value"))
		if err != nil {
			return "", nil, err
		}
		var texts []string
		var media []ContentPart
		for j, it := range items {
			ip := indexPath(joinPath(path, "value"), j)
			io, ityp, err := block(it, ip)
			if err != nil {
				return "", nil, err
			}
			switch ityp {
			case "text":
				var t string
				if err := io.requiredStr("text", &t); err != nil {
					return "", nil, err
				}
				texts = append(texts, t)
			case "media", "image-data", "image-url":
				mt, _ := field(io, "mediaType", "mimeType")
				data, _ := field(io, "data", "url")
				media = append(media, s.aisdkImage(data, mt))
			default:
				texts = append(texts, jsonText(it))
			}
		}
		return strings.Join(texts, "\n"), media, nil
	}
	return jsonText(raw), nil, nil
}

// aisdkTools translates generateText's tools, an object keyed by name.
func (s *Shaped) aisdkTools(raw []byte, path string) error {
	if jsonio.Kind(raw) != "an object" {
		return typeErr(path, "an object keyed by tool name", raw)
	}
	// A name given twice is one tool, the last definition, where the name
	// first appears: the object JSON.parse gives the AI SDK.
	return jsonio.Members(raw, func(name string, v []byte) error {
		tp := joinPath(path, name)
		t, err := objectAt(v, tp)
		if err != nil {
			return err
		}
		f := FunctionDef{Name: name}
		if err := t.str("description", &f.Description); err != nil {
			return err
		}
		schema, _ := field(t, "inputSchema", "parameters")
		if !jsonio.IsNull(schema) {
			if inner, ok := aisdkSchema(schema); ok {
				f.Parameters = RawJSON(jsonText(inner))
			} else {
				s.note("a tool schema that is not JSON Schema (a Zod schema serialised?): only the tool's name and description are counted")
			}
		} else if _, ok := t.fields["type"]; ok {
			f.Description = jsonText(v) // a provider-defined tool
		}
		s.Req.Tools = append(s.Req.Tools, ChatTool{Type: "function", Function: f})
		return nil
	})
}

// aisdkSchema returns the JSON Schema of an AI SDK tool schema: the value
// of jsonSchema() ({"jsonSchema": …}), or a plain JSON Schema object.
func aisdkSchema(schema []byte) ([]byte, bool) {
	o, ok, err := decodeObject(schema, "")
	if err != nil || !ok {
		return nil, false
	}
	if inner, ok := o.fields["jsonSchema"]; ok && jsonio.Kind(inner) == "an object" {
		return inner, true
	}
	for _, k := range []string{"type", "properties", "anyOf", "oneOf", "$ref"} {
		if _, ok := o.fields[k]; ok {
			return schema, true
		}
	}
	return nil, false
}

// aisdkFormat reads responseFormat: {type: "text"}, or {type: "json"} with
// an optional JSON Schema (or the value of jsonSchema()), name and
// description, as the SDK's OpenAI provider sends it: json_schema named
// "response" unless named, json_object without a schema.
func (s *Shaped) aisdkFormat(raw []byte) error {
	if jsonio.IsNull(raw) {
		return nil
	}
	o, typ, err := block(raw, "responseFormat")
	if err != nil {
		return err
	}
	switch typ {
	case "text":
		return nil
	case "json":
	default:
		return fieldErr("responseFormat.type", "unknown type %q (want text or json)", engine.Clip(typ))
	}
	f := &ResponseFormat{Type: "json_object"}
	if schema := o.fields["schema"]; !jsonio.IsNull(schema) {
		inner, ok := aisdkSchema(schema)
		if !ok {
			return typeErr("responseFormat.schema", "a JSON Schema object", schema)
		}
		js := &JSONSchemaFormat{Name: "response", Schema: RawJSON(jsonText(inner))}
		if err := o.str("name", &js.Name); err != nil {
			return err
		}
		if err := o.str("description", &js.Description); err != nil {
			return err
		}
		f = &ResponseFormat{Type: "json_schema", JSONSchema: js}
	}
	s.Req.ResponseFormat = f
	return nil
}
