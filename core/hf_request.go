package core

import "encoding/json"

// The JSON shapes of the loadTokenizer operation, in every build so that
// the TypeScript types can be held to them; the operation itself is in
// hf.go, which the lean WebAssembly module leaves out.

// LoadTokenizerRequest loads a Hugging Face tokenizer under Name, from one
// of: Tokenizer, the tokenizer.json as a JSON object, or Data, the bytes of
// a tokenizer.json or of its compact table (tokenfit convert), base64 in
// JSON. Afterwards every operation takes Name as its encoding.
type LoadTokenizerRequest struct {
	Name      string          `json:"name"`
	Tokenizer json.RawMessage `json:"tokenizer,omitempty"`
	Data      []byte          `json:"data,omitempty"`
}

// TokenizerInfo describes a loaded tokenizer.
type TokenizerInfo struct {
	Name      string `json:"name"`
	VocabSize int    `json:"vocabSize"`
}
