package chat

import (
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// The request types whose JSON is written by hand; internal/cmd/genjson
// writes the rest (json_encode_gen.go, json_decode_gen.go).

// marshalOwn is the MarshalJSON of a type whose JSON is written by hand
// (its appendJSON).
func marshalOwn(v interface{ appendJSON(*jsonio.Writer) }) ([]byte, error) {
	var w jsonio.Writer
	v.appendJSON(&w)
	return w.B, w.Err
}

// appendJSON writes Parts as an array when non-nil, else Text.
func (c ChatContent) appendJSON(w *jsonio.Writer) {
	if c.Parts == nil {
		w.String(c.Text)
		return
	}
	w.Array(len(c.Parts), func(i int) { c.Parts[i].appendJSON(w) })
}

// appendJSON writes the choice as OpenAI spells it.
func (t ToolChoice) appendJSON(w *jsonio.Writer) {
	if t.Mode != "function" {
		w.String(t.Mode)
		return
	}
	w.Raw(`{"type":"function","function":{"name":`)
	w.String(t.Name)
	w.Raw(`}}`)
}

// appendJSON writes the choice as OpenAI spells it.
func (f FunctionCallChoice) appendJSON(w *jsonio.Writer) {
	if f.Mode != "function" {
		w.String(f.Mode)
		return
	}
	w.Raw(`{"name":`)
	w.String(f.Name)
	w.Byte('}')
}

// RawJSON is JSON text kept as it was sent, as json.RawMessage is (core
// does not import encoding/json: see RATIONALE.md).
//
//genjson:ts unknown
type RawJSON []byte

// MarshalJSON returns the text, or null for none.
func (m RawJSON) MarshalJSON() ([]byte, error) {
	if m == nil {
		return []byte("null"), nil
	}
	return m, nil
}

// UnmarshalJSON keeps a copy of the text.
func (m *RawJSON) UnmarshalJSON(b []byte) error {
	*m = append((*m)[:0], b...)
	return nil
}

// appendJSON writes the text as it is, or null for none.
func (m RawJSON) appendJSON(w *jsonio.Writer) {
	if m == nil {
		w.Null()
		return
	}
	w.RawJSON(m)
}
