package core

import (
	_ "github.com/tokenfit/tokenfit/core/registry" // the catalog, compiled in as the CLI has it
	_ "github.com/tokenfit/tokenfit/core/tables"   // the four tables, compiled in
)

// Every test of the package, the external ones too, runs with what a
// native program that imports core/tables, core/registry and core/hf has
// (core/hf itself imports core, so its registration is called here).
func init() { RegisterTokenizerLoader() }
