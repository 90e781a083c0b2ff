package chat

import (
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// Gemini's generateContent request, translated to OpenAI's shape (see
// shape.go). Gemini names the model in the URL, so tokenfit reads its own
// "model" beside contents. Each content's role ("user", "model" →
// assistant) and parts: text as text, inline images as data URLs,
// functionCall as a tool call, functionResponse as a tool message answering
// the earliest open call of that name; systemInstruction becomes a system
// message, functionDeclarations functions, and toolConfig's
// functionCallingConfig the tool choice (ANY → required, or the function
// when it allows one). Other parts count as their JSON text. The REST API
// takes field names in lowerCamelCase or snake_case; both are read.
// Cost: O(n) in the size of the JSON.

func (s *Shaped) readGemini(o jsonObject) error {
	system := func(o jsonObject, key string) (string, error) { return s.geminiSystem(o.fields[key], key) }
	if err := s.readHead(o, []string{"systemInstruction", "system_instruction"}, system, "contents", s.geminiContents); err != nil {
		return err
	}
	if raw := o.fields["tools"]; jsonio.Kind(raw) == "an object" {
		// One Tool rather than a list, as the AI SDK's Google provider
		// sends it (and the API takes).
		if err := s.geminiTool(raw, "tools"); err != nil {
			return err
		}
	} else {
		tools, err := decodeArray(raw, "tools")
		if err != nil {
			return err
		}
		for i, t := range tools {
			if err := s.geminiTool(t, indexPath("tools", i)); err != nil {
				return err
			}
		}
	}
	if err := s.geminiGeneration(o); err != nil {
		return err
	}
	raw, key := field(o, "toolConfig", "tool_config")
	if jsonio.IsNull(raw) || len(s.Req.Tools) == 0 {
		return nil
	}
	tc, _, err := decodeObject(raw, key)
	if err != nil {
		return err
	}
	raw, fkey := field(tc, "functionCallingConfig", "function_calling_config")
	fc, ok, err := decodeObject(raw, joinPath(key, fkey))
	if err != nil || !ok {
		return err
	}
	var mode string
	if err := fc.str("mode", &mode); err != nil {
		return err
	}
	var allowed [][]byte
	if raw, akey := field(fc, "allowedFunctionNames", "allowed_function_names"); !jsonio.IsNull(raw) {
		if allowed, err = decodeArray(raw, joinPath(joinPath(key, fkey), akey)); err != nil {
			return err
		}
	}
	switch strings.ToUpper(mode) {
	case "", "MODE_UNSPECIFIED", "AUTO":
	case "NONE":
		s.Req.ToolChoice = &ToolChoice{Mode: "none"}
	case "ANY", "VALIDATED":
		s.Req.ToolChoice = &ToolChoice{Mode: "required"}
		if len(allowed) == 1 {
			name, err := jsonio.Unquote(allowed[0])
			if err != nil {
				return typeErr(joinPath(joinPath(key, fkey), "allowedFunctionNames[0]"), "a string", allowed[0])
			}
			s.Req.ToolChoice = &ToolChoice{Mode: "function", Name: name}
		}
	default:
		return fieldErr(joinPath(joinPath(key, fkey), "mode"), "unknown mode %q (want AUTO, ANY, VALIDATED or NONE)", engine.Clip(mode))
	}
	return nil
}

// field returns the value of the first of names the object has, and its
// path.
func field(o jsonObject, names ...string) ([]byte, string) {
	for _, n := range names {
		if raw, ok := o.fields[n]; ok {
			return raw, joinPath(o.path, n)
		}
	}
	return nil, joinPath(o.path, names[0])
}

// geminiSystem is systemInstruction's text: a Content's text parts joined
// with newlines, or a string as the SDKs take it.
func (s *Shaped) geminiSystem(raw []byte, path string) (string, error) {
	if jsonio.Kind(raw) == "a string" {
		t, err := jsonio.Unquote(raw)
		if err != nil {
			return "", requestJSONErr(path, err)
		}
		return t, nil
	}
	o, err := objectAt(raw, path)
	if err != nil {
		return "", err
	}
	parts, err := decodeArray(o.fields["parts"], joinPath(path, "parts"))
	if err != nil {
		return "", err
	}
	texts := make([]string, 0, len(parts))
	for j, p := range parts {
		po, ok, err := decodeObject(p, indexPath(joinPath(path, "parts"), j))
		if err != nil {
			return "", err
		}
		if !ok {
			continue
		}
		t := jsonText(p)
		if _, has := po.fields["text"]; has {
			if err := po.str("text", &t); err != nil {
				return "", err
			}
		}
		texts = append(texts, t)
	}
	return strings.Join(texts, "\n"), nil
}

// geminiContents translates the contents of list (at path).
func (s *Shaped) geminiContents(list [][]byte, path string) error {
	open := map[string][]string{} // function name → ids of its calls awaiting a response
	for i, raw := range list {
		cp := indexPath(path, i)
		o, err := objectAt(raw, cp)
		if err != nil {
			return err
		}
		role := "user"
		if err := o.str("role", &role); err != nil {
			return err
		}
		switch role {
		case "model":
			role = "assistant"
		case "user", "function", "":
			role = "user"
		default:
			return fieldErr(joinPath(cp, "role"), "unknown role %q (want user or model)", engine.Clip(role))
		}
		parts, err := decodeArray(o.fields["parts"], joinPath(cp, "parts"))
		if err != nil {
			return err
		}
		msg := ChatMessage{Role: role, Content: ChatContent{Parts: []ContentPart{}}}
		var signed geminiSignatures
		for j, p := range parts {
			pp := indexPath(joinPath(cp, "parts"), j)
			po, err := objectAt(p, pp)
			if err != nil {
				return err
			}
			if raw, key := field(po, "functionCall", "function_call"); !jsonio.IsNull(raw) {
				call, err := s.geminiCall(raw, key)
				if err != nil {
					return err
				}
				open[call.Function.Name] = append(open[call.Function.Name], call.ID)
				msg.ToolCalls = append(msg.ToolCalls, call)
				if sig, _ := field(po, "thoughtSignature", "thought_signature"); jsonio.Kind(sig) == "a string" {
					signed.count++
					signed.chars += len(sig) - 2
				}
				continue
			}
			if raw, key := field(po, "functionResponse", "function_response"); !jsonio.IsNull(raw) {
				tool, err := geminiResponse(raw, key, open)
				if err != nil {
					return err
				}
				s.add(tool, i)
				continue
			}
			part, err := s.geminiPart(po, p)
			if err != nil {
				return err
			}
			msg.Content.Parts = append(msg.Content.Parts, part)
		}
		if len(msg.Content.Parts) > 0 || len(msg.ToolCalls) > 0 || len(parts) == 0 {
			if signed.count > 0 {
				s.gemini().signatures[len(s.Req.Messages)] = signed
			}
			s.add(msg, i)
		}
	}
	return nil
}

func (s *Shaped) geminiCall(raw []byte, path string) (ToolCall, error) {
	o, err := objectAt(raw, path)
	if err != nil {
		return ToolCall{}, err
	}
	call := ToolCall{Type: "function", Function: FunctionCall{Arguments: "{}"}}
	if err := o.requiredStr("name", &call.Function.Name); err != nil {
		return call, err
	}
	if err := o.str("id", &call.ID); err != nil {
		return call, err
	}
	if call.ID == "" {
		call.ID = s.callID()
	}
	if args, ok := o.fields["args"]; ok && !jsonio.IsNull(args) {
		call.Function.Arguments = jsonText(args)
	}
	return call, nil
}

// geminiResponse is a functionResponse as a tool message; it answers the
// call with its id, else the earliest open call of its name.
func geminiResponse(raw []byte, path string, open map[string][]string) (ChatMessage, error) {
	o, err := objectAt(raw, path)
	if err != nil {
		return ChatMessage{}, err
	}
	m := ChatMessage{Role: "tool"}
	if err := o.requiredStr("name", &m.Name); err != nil {
		return m, err
	}
	if err := o.str("id", &m.ToolCallID); err != nil {
		return m, err
	}
	if ids := open[m.Name]; m.ToolCallID == "" && len(ids) > 0 {
		m.ToolCallID, open[m.Name] = ids[0], ids[1:]
	}
	if resp, ok := o.fields["response"]; ok && !jsonio.IsNull(resp) {
		m.Content.Text = jsonText(resp)
	}
	return m, nil
}

// geminiPart is one part as an OpenAI content part.
func (s *Shaped) geminiPart(o jsonObject, raw []byte) (ContentPart, error) {
	if _, ok := o.fields["text"]; ok {
		p := ContentPart{Type: "text"}
		return p, o.str("text", &p.Text)
	}
	if blob, key := field(o, "inlineData", "inline_data"); !jsonio.IsNull(blob) {
		b, ok, err := decodeObject(blob, key)
		if err != nil || !ok {
			return ContentPart{}, err
		}
		var mime, data string
		mraw, _ := field(b, "mimeType", "mime_type")
		if !jsonio.IsNull(mraw) {
			mime, _ = jsonio.Unquote(mraw)
		}
		_ = b.str("data", &data)
		if strings.HasPrefix(mime, "image/") {
			return imagePart("data:" + mime + ";base64," + data), nil
		}
		s.note("inline data other than an image (audio, video, PDF…): counted as its JSON text, not as the provider bills it")
	}
	if file, key := field(o, "fileData", "file_data"); !jsonio.IsNull(file) {
		f, ok, err := decodeObject(file, key)
		if err != nil || !ok {
			return ContentPart{}, err
		}
		var mime, uri string
		if raw, _ := field(f, "mimeType", "mime_type"); !jsonio.IsNull(raw) {
			mime, _ = jsonio.Unquote(raw)
		}
		if raw, _ := field(f, "fileUri", "file_uri"); !jsonio.IsNull(raw) {
			uri, _ = jsonio.Unquote(raw)
		}
		if strings.HasPrefix(mime, "image/") && uri != "" {
			return imagePart(uri), nil
		}
		s.note("a file by URI: its content cannot be read here, and only its reference is counted")
	}
	return ContentPart{Type: "text", Text: jsonText(raw)}, nil
}

// geminiTool translates one tools entry: each functionDeclaration a
// function (parameters, else parametersJsonSchema), any other tool (Google
// Search, code execution…) a function described by its JSON text.
func (s *Shaped) geminiTool(raw []byte, path string) error {
	o, err := objectAt(raw, path)
	if err != nil {
		return err
	}
	decls, key := field(o, "functionDeclarations", "function_declarations")
	if jsonio.IsNull(decls) {
		name := ""
		_ = jsonio.Object(raw, func(k string, _ []byte) error {
			if name == "" {
				name = k
			}
			return nil
		})
		if name == "" {
			name = "tool"
		}
		s.Req.Tools = append(s.Req.Tools, ChatTool{Type: "function", Function: FunctionDef{Name: name, Description: jsonText(raw)}})
		return nil
	}
	list, err := decodeArray(decls, key)
	if err != nil {
		return err
	}
	for j, d := range list {
		dp := indexPath(key, j)
		do, err := objectAt(d, dp)
		if err != nil {
			return err
		}
		f := FunctionDef{}
		if err := do.requiredStr("name", &f.Name); err != nil {
			return err
		}
		if f.Name == "" {
			return fieldErr(joinPath(dp, "name"), "missing")
		}
		if err := do.str("description", &f.Description); err != nil {
			return err
		}
		if schema, skey := field(do, "parameters", "parametersJsonSchema", "parameters_json_schema"); !jsonio.IsNull(schema) {
			if jsonio.Kind(schema) != "an object" {
				return typeErr(skey, "an object (a schema)", schema)
			}
			f.Parameters = RawJSON(jsonText(schema))
			if !strings.HasSuffix(skey, ".parameters") {
				s.gemini().jsonSchema[len(s.Req.Tools)] = true
			}
		}
		s.Req.Tools = append(s.Req.Tools, ChatTool{Type: "function", Function: f})
	}
	return nil
}

// geminiGeneration reads generationConfig's response schema: responseSchema
// (Google's OpenAPI subset) or responseJsonSchema (JSON Schema).
func (s *Shaped) geminiGeneration(o jsonObject) error {
	raw, key := field(o, "generationConfig", "generation_config")
	g, ok, err := decodeObject(raw, key)
	if err != nil || !ok {
		return err
	}
	for _, names := range [][2]string{{"responseSchema", "response_schema"}, {"responseJsonSchema", "response_json_schema"}} {
		schema, skey := field(g, names[0], names[1])
		if jsonio.IsNull(schema) {
			continue
		}
		if k := jsonio.Kind(schema); k != "an object" && k != "a boolean" {
			return typeErr(skey, "an object (a schema)", schema)
		}
		x := s.gemini()
		x.responseSchema, x.responseJSON = RawJSON(jsonText(schema)), names[0] == "responseJsonSchema"
	}
	return nil
}

// gemini returns the request's Gemini extras, made on first use.
func (s *Shaped) gemini() *geminiExtras {
	if s.Req.gemini == nil {
		s.Req.gemini = &geminiExtras{signatures: map[int]geminiSignatures{}, jsonSchema: map[int]bool{}}
	}
	return s.Req.gemini
}
