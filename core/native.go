//go:build !wasm

package core

// A native Go program that imports core has everything, as it did before
// the WebAssembly modules chose their parts by import: the four tables and
// o200k_base's index (core/tables), the models catalog (core/registry) and
// the tokenizer.json loader. A native binary's size matters little beside
// a CLI's or a server's first count; a module's every kilobyte is
// downloaded, so the modules' main packages import only what each needs
// (RATIONALE.md, "Why a lean module, and why core/engine?"). Package
// core/hf registers the loader for them; here it is registered directly,
// since core/hf imports core. This file initialises after hf_op.go (files
// initialise in name order), whose default it replaces.

import (
	_ "github.com/tokenfit/tokenfit/core/registry"
	_ "github.com/tokenfit/tokenfit/core/tables"
)

func init() { RegisterTokenizerLoader() }
