package core

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/format"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// JSON decoding of chat requests. Each field is checked for its JSON type,
// and a mismatch becomes a *FieldError with the field's full path; fields
// tokenfit does not know are ignored. Names match exactly, as OpenAI
// matches them (encoding/json alone would also accept "Role" for "role").
//
// encoding/json validates the whole text before it calls an UnmarshalJSON
// method; the methods then walk it with package jsonio's scanner, which
// slices values instead of copying them and skips strings with
// bytes.IndexByte. A 5 MB data URL is thus not re-scanned and copied
// at each of the six levels above it (that cost 0.5 s with json.Unmarshal
// per level). Decoding is O(n).

// jsonObject is one decoded JSON object with the path that leads to it.
type jsonObject struct {
	path   string
	fields map[string][]byte
}

// joinPath is the path of key inside the object at path. Not inlined: it
// is called at a hundred places, each a string concatenation.
//
//go:noinline
func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func indexPath(path string, i int) string { return format.Sprintf("%s[%d]", path, i) }

// exactKeys refuses a key that names one of known in another case. A chat
// request's fields match exactly, as the providers' APIs match them, so
// "Messages" would otherwise be an unknown field, ignored, and the count
// silently that of a request without messages. Other unknown fields stay
// ignored: requests are often whole provider request bodies.
func (o jsonObject) exactKeys(known []string) error {
	for key := range o.fields {
		for _, k := range known {
			if key != k && strings.EqualFold(key, k) {
				if _, both := o.fields[k]; both {
					break
				}
				return fieldErr(joinPath(o.path, key), "unknown field; did you mean %q? (a chat request's fields match exactly, as the providers' APIs do)", k)
			}
		}
	}
	return nil
}

// decodeObject decodes raw as an object; null gives ok false.
func decodeObject(raw []byte, path string) (o jsonObject, ok bool, err error) {
	if jsonio.IsNull(raw) {
		return jsonObject{}, false, nil
	}
	o.path = path
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' {
		return o, false, typeErr(path, "an object", raw)
	}
	o.fields = map[string][]byte{}
	err = jsonio.Object(raw, func(key string, val []byte) error {
		o.fields[key] = val
		return nil
	})
	if err != nil {
		return o, false, requestJSONErr(path, err)
	}
	return o, true, nil
}

// decodeArray decodes raw as an array; null gives nil.
func decodeArray(raw []byte, path string) ([][]byte, error) {
	if jsonio.IsNull(raw) {
		return nil, nil
	}
	if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '[' {
		return nil, typeErr(path, "an array", raw)
	}
	elems := [][]byte{}
	err := jsonio.Array(raw, func(val []byte) error {
		elems = append(elems, val)
		return nil
	})
	if err != nil {
		return nil, requestJSONErr(path, err)
	}
	return elems, nil
}

func typeErr(path, want string, raw []byte) error {
	if path == "" {
		return format.Errorf("%w: want %s, got %s", ErrInvalidRequest, want, jsonio.Kind(raw))
	}
	return fieldErr(path, "want %s, got %s", want, jsonio.Kind(raw))
}

func requestJSONErr(path string, err error) error {
	if path == "" {
		return format.Errorf("%w: %v", ErrInvalidRequest, err)
	}
	return fieldErr(path, "%v", err)
}

// str reads an optional string field; absent and null leave dst alone.
func (o jsonObject) str(key string, dst *string) error {
	raw, ok := o.fields[key]
	if !ok || jsonio.IsNull(raw) {
		return nil
	}
	v, err := jsonio.Unquote(raw)
	if err != nil {
		return typeErr(joinPath(o.path, key), "a string", raw)
	}
	*dst = v
	return nil
}

// requiredStr reads a string field that must be present.
func (o jsonObject) requiredStr(key string, dst *string) error {
	if raw, ok := o.fields[key]; !ok || jsonio.IsNull(raw) {
		return fieldErr(joinPath(o.path, key), "missing")
	}
	return o.str(key, dst)
}

// boolean reads an optional boolean field; absent and null leave dst alone.
func (o jsonObject) boolean(key string, dst *bool) error {
	raw, ok := o.fields[key]
	if !ok || jsonio.IsNull(raw) {
		return nil
	}
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		*dst = true
	case "false":
		*dst = false
	default:
		return typeErr(joinPath(o.path, key), "a boolean", raw)
	}
	return nil
}

// size reads an optional non-negative integer field.
func (o jsonObject) size(key string, dst *int) error {
	raw, ok := o.fields[key]
	if !ok || jsonio.IsNull(raw) {
		return nil
	}
	n, err := strconv.Atoi(string(bytes.TrimSpace(raw)))
	if err != nil || n < 0 {
		return fieldErr(joinPath(o.path, key), "want a non-negative integer, got %s", engine.Clip(string(bytes.TrimSpace(raw))))
	}
	*dst = n
	return nil
}

// UnmarshalJSON decodes a chat request; see ChatRequest. Cost: O(n).
func (r *ChatRequest) UnmarshalJSON(b []byte) error { return r.decode(b, "") }

func (r *ChatRequest) decode(raw []byte, path string) error {
	*r = ChatRequest{}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.str("model", &r.Model); err != nil {
		return err
	}
	msgs, err := decodeArray(o.fields["messages"], joinPath(path, "messages"))
	if err != nil {
		return err
	}
	if msgs != nil {
		r.Messages = make([]ChatMessage, len(msgs))
	}
	for i, m := range msgs {
		if err := r.Messages[i].decode(m, indexPath(joinPath(path, "messages"), i)); err != nil {
			return err
		}
	}
	tools, err := decodeArray(o.fields["tools"], joinPath(path, "tools"))
	if err != nil {
		return err
	}
	if tools != nil {
		r.Tools = make([]ChatTool, len(tools))
	}
	for i, t := range tools {
		if err := r.Tools[i].decode(t, indexPath(joinPath(path, "tools"), i)); err != nil {
			return err
		}
	}
	funcs, err := decodeArray(o.fields["functions"], joinPath(path, "functions"))
	if err != nil {
		return err
	}
	if funcs != nil {
		r.Functions = make([]FunctionDef, len(funcs))
	}
	for i, f := range funcs {
		if err := r.Functions[i].decode(f, indexPath(joinPath(path, "functions"), i)); err != nil {
			return err
		}
	}
	if raw, ok := o.fields["tool_choice"]; ok && !jsonio.IsNull(raw) {
		r.ToolChoice = new(ToolChoice)
		if err := r.ToolChoice.decode(raw, joinPath(path, "tool_choice")); err != nil {
			return err
		}
	}
	if raw, ok := o.fields["function_call"]; ok && !jsonio.IsNull(raw) {
		r.FunctionCall = new(FunctionCallChoice)
		if err := r.FunctionCall.decode(raw, joinPath(path, "function_call")); err != nil {
			return err
		}
	}
	if raw, ok := o.fields["response_format"]; ok && !jsonio.IsNull(raw) {
		r.ResponseFormat = new(ResponseFormat)
		if err := r.ResponseFormat.decode(raw, joinPath(path, "response_format"), false); err != nil {
			return err
		}
	}
	if err := r.API.read(o); err != nil {
		return err
	}
	kw, ok, err := decodeObject(o.fields["chat_template_kwargs"], joinPath(path, "chat_template_kwargs"))
	if err != nil {
		return err
	}
	if ok {
		r.ChatTemplateKwargs = new(ChatTemplateKwargs)
		k := r.ChatTemplateKwargs
		for _, f := range []struct {
			key string
			dst **string
		}{{"date_string", &k.DateString}, {"reasoning_effort", &k.ReasoningEffort}, {"model_identity", &k.ModelIdentity}} {
			if raw, ok := kw.fields[f.key]; ok && !jsonio.IsNull(raw) {
				*f.dst = new(string)
				if err := kw.str(f.key, *f.dst); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// messageKeys are the fields an OpenAI message is read by.
var messageKeys = []string{"role", "content", "name", "tool_calls", "tool_call_id", "function_call"}

// UnmarshalJSON decodes one message; error paths start at its fields.
// Cost: O(n).
func (m *ChatMessage) UnmarshalJSON(b []byte) error { return m.decode(b, "") }

func (m *ChatMessage) decode(raw []byte, path string) error {
	*m = ChatMessage{}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.exactKeys(messageKeys); err != nil {
		return err
	}
	if err := o.requiredStr("role", &m.Role); err != nil {
		return err
	}
	if err := m.Content.decode(o.fields["content"], joinPath(path, "content")); err != nil {
		return err
	}
	if err := o.str("name", &m.Name); err != nil {
		return err
	}
	if err := o.str("tool_call_id", &m.ToolCallID); err != nil {
		return err
	}
	calls, err := decodeArray(o.fields["tool_calls"], joinPath(path, "tool_calls"))
	if err != nil {
		return err
	}
	if calls != nil {
		m.ToolCalls = make([]ToolCall, len(calls))
	}
	for i, c := range calls {
		if err := m.ToolCalls[i].decode(c, indexPath(joinPath(path, "tool_calls"), i)); err != nil {
			return err
		}
	}
	if raw, ok := o.fields["function_call"]; ok && !jsonio.IsNull(raw) {
		m.FunctionCall = new(FunctionCall)
		if err := m.FunctionCall.decode(raw, joinPath(path, "function_call")); err != nil {
			return err
		}
	}
	return nil
}

// UnmarshalJSON decodes a string, null or an array of parts. Cost: O(n).
func (c *ChatContent) UnmarshalJSON(b []byte) error { return c.decode(b, "") }

func (c *ChatContent) decode(raw []byte, path string) error {
	*c = ChatContent{}
	if jsonio.IsNull(raw) {
		return nil
	}
	t := bytes.TrimSpace(raw)
	switch {
	case len(t) > 0 && t[0] == '"':
		var err error
		if c.Text, err = jsonio.Unquote(t); err != nil {
			return requestJSONErr(path, err)
		}
		return nil
	case len(t) > 0 && t[0] == '[':
		parts, err := decodeArray(t, path)
		if err != nil {
			return err
		}
		c.Parts = make([]ContentPart, len(parts))
		for i, p := range parts {
			if err := c.Parts[i].decode(p, indexPath(path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	return typeErr(path, "a string, null or an array of parts", raw)
}

// MarshalJSON encodes Parts as an array when non-nil, else Text.
// Cost: O(n).
func (c ChatContent) MarshalJSON() ([]byte, error) { return marshalOwn(c) }

// UnmarshalJSON decodes one content part. Cost: O(n).
func (p *ContentPart) UnmarshalJSON(b []byte) error { return p.decode(b, "") }

func (p *ContentPart) decode(raw []byte, path string) error {
	*p = ContentPart{}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.requiredStr("type", &p.Type); err != nil {
		return err
	}
	switch p.Type {
	case "text":
		return o.requiredStr("text", &p.Text)
	case "image_url":
		img, ok := o.fields["image_url"]
		if !ok || jsonio.IsNull(img) {
			return fieldErr(joinPath(path, "image_url"), "missing")
		}
		p.ImageURL = new(ImageURL)
		return p.ImageURL.decode(img, joinPath(path, "image_url"))
	}
	return fieldErr(joinPath(path, "type"), "unknown content part type %q (tokenfit counts text and image_url)", engine.Clip(p.Type))
}

// UnmarshalJSON decodes {"url":…,"detail":…}, or a bare URL string as
// early clients sent it. Cost: O(n).
func (u *ImageURL) UnmarshalJSON(b []byte) error { return u.decode(b, "") }

func (u *ImageURL) decode(raw []byte, path string) error {
	*u = ImageURL{}
	if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] == '"' {
		var err error
		if u.URL, err = jsonio.Unquote(t); err != nil {
			return requestJSONErr(path, err)
		}
		return nil
	}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.requiredStr("url", &u.URL); err != nil {
		return err
	}
	if err := o.str("detail", &u.Detail); err != nil {
		return err
	}
	if err := o.size("width", &u.Width); err != nil {
		return err
	}
	return o.size("height", &u.Height)
}

// UnmarshalJSON decodes one tool call. Cost: O(n).
func (t *ToolCall) UnmarshalJSON(b []byte) error { return t.decode(b, "") }

func (t *ToolCall) decode(raw []byte, path string) error {
	*t = ToolCall{}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.str("id", &t.ID); err != nil {
		return err
	}
	if err := o.str("type", &t.Type); err != nil {
		return err
	}
	fn, ok := o.fields["function"]
	if !ok || jsonio.IsNull(fn) {
		return fieldErr(joinPath(path, "function"), "missing")
	}
	return t.Function.decode(fn, joinPath(path, "function"))
}

// UnmarshalJSON decodes {"name":…,"arguments":…}. Cost: O(n).
func (f *FunctionCall) UnmarshalJSON(b []byte) error { return f.decode(b, "") }

func (f *FunctionCall) decode(raw []byte, path string) error {
	*f = FunctionCall{}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.str("name", &f.Name); err != nil {
		return err
	}
	if raw, ok := o.fields["arguments"]; ok && !jsonio.IsNull(raw) {
		if t := bytes.TrimSpace(raw); len(t) > 0 && t[0] != '"' {
			return fieldErr(joinPath(path, "arguments"), "want a string holding JSON, got %s", jsonio.Kind(raw))
		}
	}
	return o.str("arguments", &f.Arguments)
}

// UnmarshalJSON decodes one tools entry. Cost: O(n).
func (t *ChatTool) UnmarshalJSON(b []byte) error { return t.decode(b, "") }

func (t *ChatTool) decode(raw []byte, path string) error {
	*t = ChatTool{}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.requiredStr("type", &t.Type); err != nil {
		return err
	}
	if t.Type != "function" {
		return fieldErr(joinPath(path, "type"), "unknown tool type %q (want \"function\")", engine.Clip(t.Type))
	}
	fn, ok := o.fields["function"]
	if !ok || jsonio.IsNull(fn) {
		return fieldErr(joinPath(path, "function"), "missing")
	}
	return t.Function.decode(fn, joinPath(path, "function"))
}

// UnmarshalJSON decodes a function definition, keeping parameters as sent.
// Cost: O(n).
func (f *FunctionDef) UnmarshalJSON(b []byte) error { return f.decode(b, "") }

func (f *FunctionDef) decode(raw []byte, path string) error {
	*f = FunctionDef{}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "an object", raw)
	}
	if err := o.requiredStr("name", &f.Name); err != nil {
		return err
	}
	if f.Name == "" {
		return fieldErr(joinPath(path, "name"), "missing")
	}
	if err := o.str("description", &f.Description); err != nil {
		return err
	}
	if p, ok := o.fields["parameters"]; ok && !jsonio.IsNull(p) {
		if bytes.TrimSpace(p)[0] != '{' {
			return typeErr(joinPath(path, "parameters"), "an object (a JSON schema)", p)
		}
		f.Parameters = bytes.Clone(bytes.TrimSpace(p))
	}
	if s, ok := o.fields["strict"]; ok && !jsonio.IsNull(s) {
		v := string(bytes.TrimSpace(s))
		if v != "true" && v != "false" {
			return typeErr(joinPath(path, "strict"), "a boolean", s)
		}
		strict := v == "true"
		f.Strict = &strict
	}
	return nil
}

// UnmarshalJSON decodes "none", "auto", "required" or
// {"type":"function","function":{"name":…}}. Cost: O(n).
func (t *ToolChoice) UnmarshalJSON(b []byte) error { return t.decode(b, "") }

func (t *ToolChoice) decode(raw []byte, path string) error {
	*t = ToolChoice{}
	if s := bytes.TrimSpace(raw); len(s) > 0 && s[0] == '"' {
		var err error
		if t.Mode, err = jsonio.Unquote(s); err != nil {
			return requestJSONErr(path, err)
		}
		switch t.Mode {
		case "none", "auto", "required":
			return nil
		}
		return fieldErr(path, "unknown choice %q (want none, auto, required or a function)", engine.Clip(t.Mode))
	}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "a string or an object", raw)
	}
	var typ string
	if err := o.requiredStr("type", &typ); err != nil {
		return err
	}
	if typ != "function" {
		return fieldErr(joinPath(path, "type"), "unknown tool_choice type %q (want \"function\")", engine.Clip(typ))
	}
	fo, ok, err := decodeObject(o.fields["function"], joinPath(path, "function"))
	if err != nil {
		return err
	}
	if !ok {
		return fieldErr(joinPath(path, "function"), "missing")
	}
	t.Mode = "function"
	return fo.requiredStr("name", &t.Name)
}

// MarshalJSON encodes the choice as OpenAI spells it. Cost: O(1).
func (t ToolChoice) MarshalJSON() ([]byte, error) { return marshalOwn(t) }

// UnmarshalJSON decodes "none", "auto" or {"name":…}. Cost: O(n).
func (f *FunctionCallChoice) UnmarshalJSON(b []byte) error { return f.decode(b, "") }

func (f *FunctionCallChoice) decode(raw []byte, path string) error {
	*f = FunctionCallChoice{}
	if s := bytes.TrimSpace(raw); len(s) > 0 && s[0] == '"' {
		var err error
		if f.Mode, err = jsonio.Unquote(s); err != nil {
			return requestJSONErr(path, err)
		}
		switch f.Mode {
		case "none", "auto":
			return nil
		}
		return fieldErr(path, "unknown choice %q (want none, auto or a function)", engine.Clip(f.Mode))
	}
	o, ok, err := decodeObject(raw, path)
	if err != nil {
		return err
	}
	if !ok {
		return typeErr(path, "a string or an object", raw)
	}
	f.Mode = "function"
	return o.requiredStr("name", &f.Name)
}

// MarshalJSON encodes the choice as OpenAI spells it. Cost: O(1).
func (f FunctionCallChoice) MarshalJSON() ([]byte, error) { return marshalOwn(f) }
