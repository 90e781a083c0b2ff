package core

import "encoding/base64"

// The JSON shapes of the loadTokenizer operation, in every build so that
// the TypeScript types can be held to them; the operation itself is in
// hf.go, which the lean WebAssembly module leaves out.

// LoadTokenizerRequest loads a Hugging Face tokenizer under Name, from one
// of: Tokenizer, the tokenizer.json as a JSON object, or Data, the bytes of
// a tokenizer.json or of its compact table (tokenfit convert), base64 in
// JSON. Afterwards every operation takes Name as its encoding.
type LoadTokenizerRequest struct {
	Name      string  `json:"name"`
	Tokenizer RawJSON `json:"tokenizer,omitempty"`
	Data      Base64  `json:"data,omitempty"`
}

// Base64 is bytes sent as a base64 string, as encoding/json sends []byte.
//
//genjson:ts string
type Base64 []byte

// MarshalJSON writes the bytes as a base64 string.
func (b Base64) MarshalJSON() ([]byte, error) {
	if b == nil {
		return []byte("null"), nil
	}
	return []byte(`"` + base64.StdEncoding.EncodeToString(b) + `"`), nil
}

// decodeJSON reads a base64 string (null: none).
func (b *Base64) decodeJSON(d *decoder, raw []byte) error {
	s, ok := d.str(raw, "[]uint8")
	if !ok {
		return nil
	}
	out, err := base64.StdEncoding.DecodeString(s)
	if err != nil {
		return fieldErr("data", "not base64: %s", err.Error())
	}
	*b = out
	return nil
}

// TokenizerInfo describes a loaded tokenizer.
type TokenizerInfo struct {
	Name string `json:"name"`
	// VocabSize is one past the highest token id, added tokens included.
	VocabSize int `json:"vocabSize"`
}
