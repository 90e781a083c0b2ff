package chat

import (
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// Anthropic's Messages request, translated to OpenAI's shape (see
// shape.go): system (a string or text blocks) becomes a system message,
// tool_use blocks tool_calls, each tool_result a tool message (its images a
// user message after it), images image_url parts, text documents their
// text, thinking its text, tools functions with input_schema as their
// parameters, and tool_choice any → required, tool → the function. Other
// blocks count as their JSON text. Cost: O(n) in the size of the JSON.

func (s *Shaped) readAnthropic(o jsonObject) error {
	system := func(o jsonObject, key string) (string, error) { return s.anthropicText(o.fields[key], key) }
	if err := s.readHead(o, []string{"system"}, system, "messages", s.anthropicMessages); err != nil {
		return err
	}
	tools, err := decodeArray(o.fields["tools"], "tools")
	if err != nil {
		return err
	}
	for i, t := range tools {
		tool, err := anthropicTool(t, indexPath("tools", i))
		if err != nil {
			return err
		}
		s.Req.Tools = append(s.Req.Tools, tool)
	}
	if err := s.anthropicExtras(o); err != nil {
		return err
	}
	if raw, ok := o.fields["tool_choice"]; ok && !jsonio.IsNull(raw) && len(s.Req.Tools) > 0 {
		c, err := objectAt(raw, "tool_choice")
		if err != nil {
			return err
		}
		var typ string
		if err := c.requiredStr("type", &typ); err != nil {
			return err
		}
		switch typ {
		case "auto", "none":
			s.Req.ToolChoice = &ToolChoice{Mode: typ}
		case "any":
			s.Req.ToolChoice = &ToolChoice{Mode: "required"}
		case "tool":
			ch := &ToolChoice{Mode: "function"}
			if err := c.requiredStr("name", &ch.Name); err != nil {
				return err
			}
			s.Req.ToolChoice = ch
		default:
			return fieldErr("tool_choice.type", "unknown tool_choice type %q (want auto, any, tool or none)", engine.Clip(typ))
		}
	}
	return nil
}

// anthropicMessages translates the messages of list (at path).
func (s *Shaped) anthropicMessages(list [][]byte, path string) error {
	return s.messages(list, path, s.anthropicBlock)
}

// anthropicBlock translates one content block: tool_use (and the server
// and MCP tool uses) a tool call, tool_result a tool message, any other a
// content part.
func (s *Shaped) anthropicBlock(o jsonObject, typ string, raw []byte, path string) (translated, error) {
	switch typ {
	case "tool_use", "server_tool_use", "mcp_tool_use":
		return callBlock(o, "id", "name", o.fields["input"])
	case "tool_result":
		tool := ChatMessage{Role: "tool"}
		if err := o.requiredStr("tool_use_id", &tool.ToolCallID); err != nil {
			return translated{}, err
		}
		text, images, err := s.anthropicResult(o.fields["content"], joinPath(path, "content"))
		tool.Content.Text = text
		return translated{tool: &tool, media: images}, err
	}
	p, err := s.anthropicPart(o, typ, raw, path)
	return translated{part: &p}, err
}

// block decodes a content block and its type.
func block(raw []byte, path string) (jsonObject, string, error) {
	o, err := objectAt(raw, path)
	if err != nil {
		return o, "", err
	}
	var typ string
	err = o.requiredStr("type", &typ)
	return o, typ, err
}

// anthropicPart is one content block as an OpenAI content part.
func (s *Shaped) anthropicPart(o jsonObject, typ string, raw []byte, path string) (ContentPart, error) {
	switch typ {
	case "text":
		p := ContentPart{Type: "text"}
		return p, o.requiredStr("text", &p.Text)
	case "thinking":
		p := ContentPart{Type: "text", thinking: true}
		return p, o.str("thinking", &p.Text)
	case "image":
		src, ok, err := decodeObject(o.fields["source"], joinPath(path, "source"))
		if err != nil {
			return ContentPart{}, err
		}
		if !ok {
			return ContentPart{}, fieldErr(joinPath(path, "source"), "missing")
		}
		return imagePart(s.anthropicURL(src)), nil
	case "document":
		if text, ok, err := s.documentText(o, path); ok || err != nil {
			return ContentPart{Type: "text", Text: text}, err
		}
	}
	return ContentPart{Type: "text", Text: jsonText(raw)}, nil
}

// anthropicURL is an image source as a URL core reads: base64 data as a
// data URL, else its url; a file id or an unknown source gives a URL whose
// image core counts at its largest cost.
func (s *Shaped) anthropicURL(src jsonObject) string {
	var typ, media, data, url string
	_ = src.str("type", &typ)
	_ = src.str("media_type", &media)
	_ = src.str("data", &data)
	_ = src.str("url", &url)
	switch {
	case typ == "base64":
		return "data:" + media + ";base64," + data
	case url != "":
		return url
	}
	s.note("an image by file id or an unknown source: counted at the largest cost an image can have")
	return "about:blank"
}

func imagePart(url string) ContentPart {
	return ContentPart{Type: "image_url", ImageURL: &ImageURL{URL: url}}
}

// documentText is a document block's text when it has one (a text or a
// content source), with its title and context; ok is false for a PDF,
// a URL or a file, which count as their JSON text.
func (s *Shaped) documentText(o jsonObject, path string) (string, bool, error) {
	src, ok, err := decodeObject(o.fields["source"], joinPath(path, "source"))
	if err != nil || !ok {
		return "", false, err
	}
	var typ string
	_ = src.str("type", &typ)
	var body string
	switch typ {
	case "text":
		if err := src.str("data", &body); err != nil {
			return "", false, err
		}
	case "content":
		if body, err = s.anthropicText(src.fields["content"], joinPath(path, "source.content")); err != nil {
			return "", false, err
		}
	default:
		s.note("a PDF, URL or file document: counted as its JSON text, not as the pages the provider bills")
		return "", false, nil
	}
	var title, context string
	_ = o.str("title", &title)
	_ = o.str("context", &context)
	return joinNonEmpty(title, context, body), true, nil
}

// anthropicText is a system prompt's or a document's content as text: a
// string, or blocks whose text joins with newlines (other blocks as their
// JSON text).
func (s *Shaped) anthropicText(raw []byte, path string) (string, error) {
	if jsonio.Kind(raw) == "a string" {
		t, err := jsonio.Unquote(raw)
		if err != nil {
			return "", requestJSONErr(path, err)
		}
		return t, nil
	}
	blocks, err := decodeArray(raw, path)
	if err != nil {
		return "", err
	}
	texts := make([]string, 0, len(blocks))
	for j, b := range blocks {
		bo, typ, err := block(b, indexPath(path, j))
		if err != nil {
			return "", err
		}
		var t string
		if typ == "text" {
			err = bo.requiredStr("text", &t)
		} else {
			t = jsonText(b)
		}
		if err != nil {
			return "", err
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, "\n"), nil
}

// anthropicResult is a tool result's content: its text, and its images
// apart.
func (s *Shaped) anthropicResult(raw []byte, path string) (string, []ContentPart, error) {
	if jsonio.IsNull(raw) || jsonio.Kind(raw) == "a string" {
		t, err := s.anthropicText(raw, path)
		if jsonio.IsNull(raw) {
			t, err = "", nil
		}
		return t, nil, err
	}
	blocks, err := decodeArray(raw, path)
	if err != nil {
		return "", nil, err
	}
	var texts []string
	var images []ContentPart
	for j, b := range blocks {
		bp := indexPath(path, j)
		bo, typ, err := block(b, bp)
		if err != nil {
			return "", nil, err
		}
		p, err := s.anthropicPart(bo, typ, b, bp)
		if err != nil {
			return "", nil, err
		}
		if p.Type == "image_url" {
			images = append(images, p)
		} else {
			texts = append(texts, p.Text)
		}
	}
	return strings.Join(texts, "\n"), images, nil
}

// anthropicTool is a tool definition as an OpenAI function: a custom tool
// with input_schema as its parameters, a server tool (web search, bash…)
// with its definition as the description.
func anthropicTool(raw []byte, path string) (ChatTool, error) {
	o, err := objectAt(raw, path)
	if err != nil {
		return ChatTool{}, err
	}
	t := ChatTool{Type: "function"}
	f := &t.Function
	if schema, ok := o.fields["input_schema"]; ok && !jsonio.IsNull(schema) {
		if err := o.requiredStr("name", &f.Name); err != nil {
			return t, err
		}
		if f.Name == "" {
			return t, fieldErr(joinPath(path, "name"), "missing")
		}
		if err := o.str("description", &f.Description); err != nil {
			return t, err
		}
		if jsonio.Kind(schema) != "an object" {
			return t, typeErr(joinPath(path, "input_schema"), "an object (a JSON schema)", schema)
		}
		f.Parameters = RawJSON(jsonText(schema))
		return t, o.boolean("defer_loading", &f.deferred)
	}
	_ = o.str("type", &f.Name)
	_ = o.str("name", &f.Name)
	if f.Name == "" {
		f.Name = "tool"
	}
	f.Description = jsonText(raw)
	return t, nil
}

func joinNonEmpty(parts ...string) string {
	out := parts[:0:0]
	for _, p := range parts {
		if p != "" {
			out = append(out, p)
		}
	}
	return strings.Join(out, "\n")
}

// anthropicExtras reads thinking and the structured output format:
// output_config.format, or the beta's output_format, {"type":
// "json_schema", "schema": …}.
func (s *Shaped) anthropicExtras(o jsonObject) error {
	x := &anthropicExtras{}
	if raw, ok := o.fields["thinking"]; ok && !jsonio.IsNull(raw) {
		t, _, err := decodeObject(raw, "thinking")
		if err != nil {
			return err
		}
		var typ string
		if err := t.str("type", &typ); err != nil {
			return err
		}
		if typ == "enabled" || typ == "adaptive" {
			x.thinking = typ
		}
	}
	format, path := o.fields["output_format"], "output_format"
	if raw, ok := o.fields["output_config"]; ok && !jsonio.IsNull(raw) {
		c, _, err := decodeObject(raw, "output_config")
		if err != nil {
			return err
		}
		format, path = c.fields["format"], "output_config.format"
		_, x.taskBudget = c.fields["task_budget"]
	}
	if !jsonio.IsNull(format) && len(format) > 0 {
		f, ok, err := decodeObject(format, path)
		if err != nil {
			return err
		}
		if ok {
			if schema, ok := f.fields["schema"]; ok && jsonio.Kind(schema) == "an object" {
				x.output = RawJSON(jsonText(schema))
			}
		}
	}
	s.Req.anthropic = x
	return nil
}
