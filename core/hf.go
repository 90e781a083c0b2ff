package core

import (
	"maps"
	"slices"

	"github.com/tokenfit/tokenfit/core/engine"
)

// HFTokenizer is an exact tokenizer loaded from a Hugging Face
// tokenizer.json; see engine.HFTokenizer. It is a Tokenizer, so budgets and
// plans take it as they take an Encoding.
type HFTokenizer engine.HFTokenizer

var _ idTokenizer = (*HFTokenizer)(nil)

// LoadTokenizer reads a Hugging Face tokenizer.json or its compact table;
// see engine.LoadTokenizer.
func LoadTokenizer(name string, data []byte) (*HFTokenizer, error) {
	t, err := engine.LoadTokenizer(name, data)
	return (*HFTokenizer)(t), err
}

// WithTokenizer returns a copy of the registry in which requests naming
// t.Name() as their encoding count with t, replacing a tokenizer loaded
// under that name before. The name may not be a built-in encoding's or a
// heuristic's.
func (r *Registry) WithTokenizer(t *HFTokenizer) (*Registry, error) {
	if err := checkTokenizerName(t.Name()); err != nil {
		return nil, err
	}
	n := *r
	n.tokenizers = maps.Clone(r.tokenizers)
	if n.tokenizers == nil {
		n.tokenizers = map[string]Tokenizer{}
	}
	n.tokenizers[t.Name()] = t
	return &n, nil
}

// Tokenizer returns the tokenizer loaded under name (WithTokenizer), and
// false when none is. It answers the interface, not the *HFTokenizer, so
// that a program looking a name up (the wasip1 adapter's count by name)
// does not link the tokenizer's methods unless it can also load one.
func (r *Registry) Tokenizer(name string) (Tokenizer, bool) {
	t, ok := r.tokenizers[name]
	return t, ok
}

// checkTokenizerName refuses a name a loaded tokenizer cannot have.
func checkTokenizerName(name string) error {
	if name == "" || len(name) > 256 {
		return fieldErr("name", "must name the tokenizer in 1 to 256 bytes")
	}
	if _, builtin := heuristics[name]; builtin || slices.Contains(EncodingNames(), name) {
		return fieldErr("name", "%q is a built-in encoding's name: load the tokenizer under another", engine.Clip(name))
	}
	return nil
}

// loadTokenizer answers loadTokenizer. A file that is not a tokenizer
// tokenfit reproduces exactly is an error (invalid_table,
// unsupported_tokenizer) and leaves the API as it was.
func (a *API) loadTokenizer(req LoadTokenizerRequest) (any, error) {
	if err := checkTokenizerName(req.Name); err != nil {
		return nil, err
	}
	tok := req.Tokenizer
	if string(tok) == "null" {
		tok = nil // null is absence
	}
	if (tok == nil) == (req.Data == nil) {
		return nil, fieldErr("tokenizer", "give the tokenizer.json as tokenizer (a JSON object) or data (base64 of the file or its table), one of them")
	}
	data := []byte(req.Data)
	if tok != nil {
		data = tok
	}
	t, err := LoadTokenizer(req.Name, data)
	if err != nil {
		return nil, err
	}
	if t.Name() != req.Name {
		t = t.Named(req.Name) // a table's own name
	}
	if _, err := a.update(func(r *Registry) (*Registry, error) { return r.WithTokenizer(t) }); err != nil {
		return nil, err
	}
	return TokenizerInfo{Name: t.Name(), VocabSize: t.VocabSize()}, nil
}
