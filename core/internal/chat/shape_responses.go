package chat

import (
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// OpenAI's Responses API request (the body of POST /v1/responses, or of
// /v1/responses/input_tokens), read into the Chat Completions request core
// counts, with API set to APIResponses so that the model's Responses rules
// apply (RulesFor). instructions become a system message before the input;
// input is one user message (a string) or a list of items: a message's
// input_text, output_text and refusal parts as text and input_image as an
// image_url part; function_call (and custom_tool_call) items tool calls of
// the assistant message right before them (or of one of their own);
// function_call_output
// (and custom_tool_call_output) tool messages; a reasoning item its summary
// text. tools: function tools as functions, custom tools as functions
// without parameters (a grammar format as its JSON text), built-in tools as
// their JSON text; tool_choice as Chat's; text.format as the
// ResponseFormat. Items tokenfit cannot see (item_reference, a
// previous_response_id, a conversation, encrypted reasoning) are noted,
// since the API bills what they stand for. Cost: O(n) in the size of the
// JSON.

// customToolSpread is what a custom tool was seen to bill above a
// function without parameters (one gpt-5 count, testdata/billed/openai.json
// aibridge-responses-custom-tool-gpt-5): the bound adds it per custom tool.
const customToolSpread = 17

// readResponses reads a Responses API request.
func (s *Shaped) readResponses(o jsonObject) error {
	s.Req.API = APIResponses
	if err := o.str("model", &s.Req.Model); err != nil {
		return err
	}
	if r, ok, err := decodeObject(o.fields["reasoning"], "reasoning"); err != nil {
		return err
	} else if ok {
		var mode string
		if err := r.str("mode", &mode); err != nil {
			return err
		}
		if mode != "" {
			s.note("reasoning.mode " + engine.Clip(mode) + ": billed above the request (one gpt-5.6 count in pro mode: 1,531 more); not counted, not even in upperBound")
		}
	}
	for _, k := range []string{"previous_response_id", "conversation"} {
		if raw, ok := o.fields[k]; ok && !jsonio.IsNull(raw) {
			s.note(k + ": the stored conversation it names is billed as input; not counted, not even in upperBound")
		}
	}
	if raw, ok := o.fields["instructions"]; ok && !jsonio.IsNull(raw) {
		if jsonio.Kind(raw) == "a string" {
			var text string
			if err := o.str("instructions", &text); err != nil {
				return err
			}
			if text != "" {
				s.add(ChatMessage{Role: "system", Content: ChatContent{Text: text}}, -1)
			}
		} else if err := s.responsesItems(raw, "instructions", -1); err != nil {
			return err
		}
	}
	if raw := o.fields["input"]; jsonio.Kind(raw) == "a string" {
		var text string
		if err := o.str("input", &text); err != nil {
			return err
		}
		s.add(ChatMessage{Role: "user", Content: ChatContent{Text: text}}, 0)
	} else if err := s.responsesItems(raw, "input", 0); err != nil {
		return err
	}
	if err := s.responsesTools(o.fields["tools"]); err != nil {
		return err
	}
	if err := s.responsesChoice(o.fields["tool_choice"]); err != nil {
		return err
	}
	text, ok, err := decodeObject(o.fields["text"], "text")
	if err != nil || !ok {
		return err
	}
	if raw, ok := text.fields["format"]; ok && !jsonio.IsNull(raw) {
		s.Req.ResponseFormat = new(ResponseFormat)
		return s.Req.ResponseFormat.decode(raw, "text.format", true)
	}
	return nil
}

// responsesItems reads a list of input items (at path). Each message comes
// from item i (the input's own index), or -1 for all of instructions'.
func (s *Shaped) responsesItems(raw []byte, path string, from int) error {
	items, err := decodeArray(raw, path)
	if err != nil {
		return err
	}
	// calls is the assistant message that function_call items join: the
	// latest assistant message or calls, while no other item came between.
	calls := -1
	for i, it := range items {
		ip := indexPath(path, i)
		src := i
		if from < 0 {
			src = -1
		}
		o, err := objectAt(it, ip)
		if err != nil {
			return err
		}
		var typ string
		if err := o.str("type", &typ); err != nil {
			return err
		}
		if typ == "" && hasKey(it, "role") {
			typ = "message"
		}
		switch typ {
		case "function_call", "custom_tool_call":
			call, err := responsesCall(o, typ)
			if err != nil {
				return err
			}
			if calls < 0 {
				s.add(ChatMessage{Role: "assistant"}, src)
				calls = len(s.Req.Messages) - 1
			}
			m := &s.Req.Messages[calls]
			m.ToolCalls = append(m.ToolCalls, call)
			continue
		case "message":
			m, err := s.responsesMessage(o, ip)
			if err != nil {
				return err
			}
			s.add(m, src)
			if m.Role == "assistant" {
				// Calls right after an assistant message join it, as the
				// AI SDK's text and tool-call parts of one message do: the
				// message's framing is billed even when its text is empty
				// (a content part keeps it), and its calls cost as in one
				// Chat message with content (chat-rules.md §13).
				last := &s.Req.Messages[len(s.Req.Messages)-1]
				if last.Content.Parts == nil {
					last.Content.Parts = []ContentPart{{Type: "text", Text: last.Content.Text}}
					last.Content.Text = ""
				}
				calls = len(s.Req.Messages) - 1
				continue
			}
		case "function_call_output", "custom_tool_call_output":
			tool := ChatMessage{Role: "tool"}
			if err := o.requiredStr("call_id", &tool.ToolCallID); err != nil {
				return err
			}
			text, media, err := s.responsesOutput(o.fields["output"], joinPath(ip, "output"))
			if err != nil {
				return err
			}
			tool.Content.Text = text
			s.add(tool, src)
			if len(media) > 0 {
				s.add(ChatMessage{Role: "user", Content: ChatContent{Parts: media}}, src)
			}
		case "reasoning":
			s.note("a reasoning item: counted as its summary text; the model may drop or expand it")
			if raw, ok := o.fields["encrypted_content"]; ok && !jsonio.IsNull(raw) {
				s.note("encrypted reasoning: billed as the reasoning it holds, which tokenfit cannot read; not counted, not even in upperBound")
			}
			text, err := s.responsesText(o.fields["summary"], joinPath(ip, "summary"))
			if err != nil {
				return err
			}
			s.add(ChatMessage{Role: "assistant", Content: ChatContent{Text: text}}, src)
		case "item_reference":
			s.note("an item_reference: the stored item it names is billed; not counted, not even in upperBound")
		default:
			s.note("a Responses input item other than a message, function call, its output or reasoning: counted as its JSON text")
			s.add(ChatMessage{Role: "user", Content: ChatContent{Text: jsonText(it)}}, src)
		}
		calls = -1
	}
	return nil
}

// responsesCall is a function_call item ({call_id, name, arguments}) or a
// custom_tool_call ({call_id, name, input}) as a tool call.
func responsesCall(o jsonObject, typ string) (ToolCall, error) {
	call := ToolCall{Type: "function"}
	if err := o.str("call_id", &call.ID); err != nil {
		return call, err
	}
	if err := o.requiredStr("name", &call.Function.Name); err != nil {
		return call, err
	}
	if call.Function.Name == "" {
		return call, fieldErr(joinPath(o.path, "name"), "missing")
	}
	key := "arguments"
	if typ == "custom_tool_call" {
		key = "input"
	}
	return call, o.str(key, &call.Function.Arguments)
}

// responsesMessage is a message item: a role and a string or a list of
// content parts.
func (s *Shaped) responsesMessage(o jsonObject, path string) (ChatMessage, error) {
	var m ChatMessage
	if err := o.requiredStr("role", &m.Role); err != nil {
		return m, err
	}
	switch m.Role {
	case "user", "assistant", "system", "developer":
	default:
		return m, fieldErr(joinPath(path, "role"), "unknown role %q (want user, assistant, system or developer)", engine.Clip(m.Role))
	}
	raw := o.fields["content"]
	if jsonio.IsNull(raw) || jsonio.Kind(raw) == "a string" {
		return m, m.Content.decodeExact(raw, joinPath(path, "content"))
	}
	parts, err := decodeArray(raw, joinPath(path, "content"))
	if err != nil {
		return m, err
	}
	m.Content.Parts = make([]ContentPart, 0, len(parts))
	for j, p := range parts {
		pp := indexPath(joinPath(path, "content"), j)
		po, typ, err := block(p, pp)
		if err != nil {
			return m, err
		}
		part, err := s.responsesPart(po, typ, p, pp)
		if err != nil {
			return m, err
		}
		m.Content.Parts = append(m.Content.Parts, part)
	}
	return m, nil
}

// responsesPart is one content part as a Chat content part.
func (s *Shaped) responsesPart(o jsonObject, typ string, raw []byte, path string) (ContentPart, error) {
	switch typ {
	case "input_text", "output_text", "text", "summary_text", "reasoning_text":
		p := ContentPart{Type: "text"}
		return p, o.requiredStr("text", &p.Text)
	case "refusal":
		p := ContentPart{Type: "text"}
		return p, o.requiredStr("refusal", &p.Text)
	case "input_image":
		var url, detail string
		if err := o.str("image_url", &url); err != nil {
			return ContentPart{}, err
		}
		if err := o.str("detail", &detail); err != nil {
			return ContentPart{}, err
		}
		if url == "" {
			s.note("an image by file id: counted at the largest cost an image can have")
			url = "about:blank"
		}
		switch detail {
		case "", "auto", "low", "high":
		default:
			detail = "" // "original" and later levels: counted as auto
		}
		return ContentPart{Type: "image_url", ImageURL: &ImageURL{URL: url, Detail: detail}}, nil
	}
	s.note("a content part other than text or an image (a file, audio…): counted as its JSON text, not as the provider bills it")
	return ContentPart{Type: "text", Text: jsonText(raw)}, nil
}

// responsesOutput is a function_call_output's output: a string, or a list
// of content parts whose text joins with newlines, images apart.
func (s *Shaped) responsesOutput(raw []byte, path string) (string, []ContentPart, error) {
	if jsonio.IsNull(raw) || jsonio.Kind(raw) == "a string" {
		var m ChatContent
		return m.Text, nil, m.decodeExact(raw, path)
	}
	parts, err := decodeArray(raw, path)
	if err != nil {
		return "", nil, err
	}
	var texts []string
	var media []ContentPart
	for j, p := range parts {
		pp := indexPath(path, j)
		po, typ, err := block(p, pp)
		if err != nil {
			return "", nil, err
		}
		part, err := s.responsesPart(po, typ, p, pp)
		if err != nil {
			return "", nil, err
		}
		if part.Type == "image_url" {
			media = append(media, part)
		} else {
			texts = append(texts, part.Text)
		}
	}
	return strings.Join(texts, "\n"), media, nil
}

// responsesText is a list of text parts (a reasoning summary) joined with
// newlines.
func (s *Shaped) responsesText(raw []byte, path string) (string, error) {
	text, _, err := s.responsesOutput(raw, path)
	return text, err
}

// responsesTools reads tools: function and custom tools as functions,
// other (built-in) tools as their JSON text.
func (s *Shaped) responsesTools(raw []byte) error {
	tools, err := decodeArray(raw, "tools")
	if err != nil {
		return err
	}
	for i, t := range tools {
		tp := indexPath("tools", i)
		o, typ, err := block(t, tp)
		if err != nil {
			return err
		}
		switch typ {
		case "function":
			var f FunctionDef
			if err := f.decodeExact(t, tp); err != nil {
				return err
			}
			s.Req.Tools = append(s.Req.Tools, ChatTool{Type: "function", Function: f})
		case "custom":
			s.note("a custom (free-form) tool: counted as a function without parameters; its rendering is not known (one gpt-5 count bills 17 more, which upperBound adds)")
			s.slack += customToolSpread
			f := FunctionDef{}
			if err := o.requiredStr("name", &f.Name); err != nil {
				return err
			}
			if f.Name == "" {
				return fieldErr(joinPath(tp, "name"), "missing")
			}
			if err := o.str("description", &f.Description); err != nil {
				return err
			}
			if raw, ok := o.fields["format"]; ok && !jsonio.IsNull(raw) && !typeIs(raw, "text") {
				s.note("a custom tool with a grammar: the grammar counted as its JSON text")
				f.Description = joinNonEmpty(f.Description, jsonText(raw))
			}
			s.Req.Tools = append(s.Req.Tools, ChatTool{Type: "function", Function: f})
		default:
			s.note("a built-in tool (" + engine.Clip(typ) + "): counted as its JSON text; OpenAI bills its own definition and results")
			s.Req.Tools = append(s.Req.Tools, ChatTool{Type: "function", Function: FunctionDef{Name: typ, Description: jsonText(t)}})
		}
	}
	return nil
}

// responsesChoice reads tool_choice: "none", "auto", "required", a
// function or custom tool {type, name}, allowed_tools {mode, tools} (the
// mode, or the tool when it allows one and requires it), or a built-in
// tool's type (counted as required).
func (s *Shaped) responsesChoice(raw []byte) error {
	if jsonio.IsNull(raw) || len(s.Req.Tools) == 0 {
		return nil
	}
	if jsonio.Kind(raw) == "a string" {
		var err error
		s.Req.ToolChoice, err = modeChoice(raw, "tool_choice")
		return err
	}
	c, typ, err := block(raw, "tool_choice")
	if err != nil {
		return err
	}
	switch typ {
	case "function", "custom":
		ch := &ToolChoice{Mode: "function"}
		if err := c.requiredStr("name", &ch.Name); err != nil {
			return err
		}
		s.Req.ToolChoice = ch
	case "allowed_tools":
		var mode string
		if err := c.str("mode", &mode); err != nil {
			return err
		}
		s.note("tool_choice allowed_tools: counted as its mode; the list of allowed tools is not counted")
		if mode == "required" || mode == "auto" {
			s.Req.ToolChoice = &ToolChoice{Mode: mode}
		}
	default:
		s.note("tool_choice names a built-in tool: counted as required")
		s.Req.ToolChoice = &ToolChoice{Mode: "required"}
	}
	return nil
}
