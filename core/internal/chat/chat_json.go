package chat

import (
	"bytes"
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/format"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// JSON decoding of chat requests, by the exact rule: the decoders
// internal/cmd/genjson writes from chat.go's types (json_decode_gen.go)
// and the shapes' translations read objects with the helpers below, and
// the unions at the end of this file are written by hand. Each field is
// checked for its JSON type, and a mismatch becomes a *FieldError with the
// field's full path; fields tokenfit does not know are ignored. Names
// match exactly, as OpenAI matches them (encoding/json alone would also
// accept "Role" for "role").
//
// encoding/json validates the whole text before it calls an UnmarshalJSON
// method; the methods then walk it with package jsonio's scanner, which
// slices values instead of copying them and skips strings with
// bytes.IndexByte. A large data URL is thus not re-scanned and copied
// at each of the levels above it, as json.Unmarshal per level would (O(n·depth)).
// Decoding is O(n).

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
// ignored: requests are often whole provider request bodies. The error
// names the first of known (in its order) that is missing and given in
// another case, by its least such spelling: the same request gets the same
// error every time, whatever the map's order.
func (o jsonObject) exactKeys(known []string) error {
	for _, k := range known {
		if _, ok := o.fields[k]; ok {
			continue
		}
		bad := ""
		for key := range o.fields {
			if strings.EqualFold(key, k) && (bad == "" || key < bad) {
				bad = key
			}
		}
		if bad != "" {
			return fieldErr(joinPath(o.path, bad), "unknown field; did you mean %q? (a chat request's fields match exactly, as the providers' APIs do)", k)
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

// objectAt decodes raw as an object; null is an error too.
func objectAt(raw []byte, path string) (jsonObject, error) {
	o, ok, err := decodeObject(raw, path)
	if err == nil && !ok {
		err = typeErr(path, "an object", raw)
	}
	return o, err
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
		return format.Errorf("%w: want %s, got %s", engine.ErrInvalidRequest, want, jsonio.Kind(raw))
	}
	return fieldErr(path, "want %s, got %s", want, jsonio.Kind(raw))
}

func requestJSONErr(path string, err error) error {
	if path == "" {
		return format.Errorf("%w: %v", engine.ErrInvalidRequest, err)
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

// Each UnmarshalJSON decodes a value for Go callers; error paths start at
// its fields. Cost: O(n).

// UnmarshalJSON decodes a chat request; see ChatRequest.
func (r *ChatRequest) UnmarshalJSON(b []byte) error { return r.decodeExact(b, "") }

// UnmarshalJSON decodes one message.
func (m *ChatMessage) UnmarshalJSON(b []byte) error { return m.decodeExact(b, "") }

// UnmarshalJSON decodes a string, null or an array of parts.
func (c *ChatContent) UnmarshalJSON(b []byte) error { return c.decodeExact(b, "") }

// UnmarshalJSON decodes one content part.
func (p *ContentPart) UnmarshalJSON(b []byte) error { return p.decodeExact(b, "") }

// UnmarshalJSON decodes {"url":…,"detail":…}, or a bare URL string as
// early clients sent it.
func (u *ImageURL) UnmarshalJSON(b []byte) error { return u.decodeExact(b, "") }

// UnmarshalJSON decodes one tool call.
func (t *ToolCall) UnmarshalJSON(b []byte) error { return t.decodeExact(b, "") }

// UnmarshalJSON decodes {"name":…,"arguments":…}.
func (f *FunctionCall) UnmarshalJSON(b []byte) error { return f.decodeExact(b, "") }

// UnmarshalJSON decodes one tools entry.
func (t *ChatTool) UnmarshalJSON(b []byte) error { return t.decodeExact(b, "") }

// UnmarshalJSON decodes a function definition, keeping parameters as sent.
func (f *FunctionDef) UnmarshalJSON(b []byte) error { return f.decodeExact(b, "") }

// UnmarshalJSON decodes "none", "auto", "required" or
// {"type":"function","function":{"name":…}}.
func (t *ToolChoice) UnmarshalJSON(b []byte) error { return t.decodeExact(b, "") }

// UnmarshalJSON decodes "none", "auto" or {"name":…}.
func (f *FunctionCallChoice) UnmarshalJSON(b []byte) error { return f.decodeExact(b, "") }

// checkToolType refuses a tools entry of a type other than "function".
func checkToolType(typ, path string) error {
	if typ != "function" {
		return fieldErr(path, "unknown tool type %q (want \"function\")", engine.Clip(typ))
	}
	return nil
}

// The unions: JSON that takes several shapes.

func (c *ChatContent) decodeExact(raw []byte, path string) error {
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
			if err := c.Parts[i].decodeExact(p, indexPath(path, i)); err != nil {
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

// decodeExact reads a part by its type: a text part's text, an image_url
// part's image; the members another type has are not read.
func (p *ContentPart) decodeExact(raw []byte, path string) error {
	*p = ContentPart{}
	o, err := objectAt(raw, path)
	if err != nil {
		return err
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
		return p.ImageURL.decodeExact(img, joinPath(path, "image_url"))
	}
	return fieldErr(joinPath(path, "type"), "unknown content part type %q (tokenfit counts text and image_url)", engine.Clip(p.Type))
}

func (t *ToolChoice) decodeExact(raw []byte, path string) error {
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

func (f *FunctionCallChoice) decodeExact(raw []byte, path string) error {
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
