//go:build wasm

package core

import (
	_ "github.com/tokenfit/tokenfit/core/registry" // the catalog, compiled in as the CLI has it
	_ "github.com/tokenfit/tokenfit/core/tables"   // the four tables, compiled in
)

// Under WebAssembly (make test-wasm-*), every test of the package, the
// external ones too, runs with what a native program has (native.go): the
// tables, the catalog and the loader.
func init() { RegisterTokenizerLoader() }
