package core

import (
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/engine"
)

// The JSON API's loadTokenizer operation reaches the tokenizer.json loader
// only in a program that imports package core/hf, whose initialisation
// calls RegisterTokenizerLoader. Every other program links none of the
// loader: the WebAssembly module pages start with leaves out 80 KB of its
// gzip that way (RATIONALE.md, "Why does init() start without the
// tokenizer.json loader?"). There the operation stays known, and says
// which module has it.

func init() {
	// api.go's init, which makes the map, runs first (files initialise in
	// name order).
	operations["loadTokenizer"] = func(*API, *Registry, []byte) (any, error) { return nil, errNoLoader }
}

var errNoLoader = &engine.Error{Err: ErrUnknownOperation, Detail: ": loadTokenizer: this module was built without the tokenizer.json loader (package core/hf); tokenfit.wasm has it"}

// RegisterTokenizerLoader gives the JSON API's loadTokenizer operation the
// tokenizer.json loader, in every API. A program imports package core/hf
// rather than call it: it must run before any API call, as that package's
// initialisation does. LoadTokenizer and LoadTokenizerBytes need neither.
func RegisterTokenizerLoader() {
	operations["loadTokenizer"] = decode(func(a *API, _ *Registry, r LoadTokenizerRequest) (any, error) { return a.loadTokenizer(r) })
}

// LoadTokenizerBytes answers loadTokenizer for a file given as its bytes
// (a tokenizer.json or its compact table), as Call answers
// {"name": name, "data": base64 of data} with the loader, but with no
// request to encode and decode: what the wasip1 module's load_tokenizer
// export calls (RATIONALE.md, "Why is a tokenizer.json loaded through the
// JSON API, as base64, under a name?"). The tokenizer may keep views of
// data, which the caller must not change afterwards. Like Call it never
// panics, and an error is its JSON answer.
func (a *API) LoadTokenizerBytes(name string, data []byte) []byte {
	out, err := answer(func() (any, error) {
		if err := checkBytesName(name); err != nil {
			return nil, err
		}
		if data == nil {
			data = []byte{} // present, and empty: the file's error, not a missing field
		}
		return a.loadTokenizer(LoadTokenizerRequest{Name: name, Data: data})
	})
	if err != nil {
		return ErrorJSON(err)
	}
	return out
}

// checkBytesName refuses a name a JSON request could not carry: one that is
// not UTF-8.
func checkBytesName(name string) error {
	if !utf8.ValidString(name) {
		return fieldErr("name", "must be UTF-8")
	}
	return nil
}
