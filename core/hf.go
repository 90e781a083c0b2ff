//go:build !tokenfit_lite

// The lean WebAssembly module (-tags tokenfit_lite) links no tokenizer.json
// loader; see engine/hf.go.

package core

import "github.com/tokenfit/tokenfit/core/engine"

// HFTokenizer is an exact tokenizer loaded from a Hugging Face
// tokenizer.json; see engine.HFTokenizer. It is a Tokenizer, so budgets and
// plans take it as they take an Encoding.
type HFTokenizer engine.HFTokenizer

var _ Tokenizer = (*HFTokenizer)(nil)

// LoadTokenizer reads a Hugging Face tokenizer.json or its compact table;
// see engine.LoadTokenizer.
func LoadTokenizer(name string, data []byte) (*HFTokenizer, error) {
	t, err := engine.LoadTokenizer(name, data)
	return (*HFTokenizer)(t), err
}
