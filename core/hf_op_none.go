//go:build tokenfit_nohf

// The WebAssembly module pages start with (-tags tokenfit_nohf) leaves the
// tokenizer.json loader out: 80 KB of its gzip that only loadTokenizer
// uses (RATIONALE.md, "Why does init() start without the tokenizer.json
// loader?"). The operation stays known, and says which module has it.

package core

import "github.com/tokenfit/tokenfit/core/internal/format"

func init() {
	// api.go's init, which makes the map, runs first (files initialise in
	// name order).
	operations["loadTokenizer"] = func(*API, *Registry, []byte) (any, error) { return nil, noLoader() }
}

func noLoader() error {
	return format.Errorf("%w: loadTokenizer: this module was built without the tokenizer.json loader (-tags tokenfit_nohf); tokenfit.wasm has it", ErrUnknownOperation)
}

// LoadTokenizerBytes answers as the loadTokenizer operation does in this
// build: unknown_operation, naming the module that has the loader.
func (a *API) LoadTokenizerBytes(string, []byte) []byte { return ErrorJSON(noLoader()) }
