// Package registry compiles the models catalog (catalog.json: every model
// of models.dev the built-in rows do not name, with its limits and prices,
// about 1 MB) into a program that imports it:
//
//	import _ "github.com/tokenfit/tokenfit/core/registry"
//
// core.DefaultRegistry then reads it the first time a name is not a
// built-in row's. A program that does not import it answers from the
// built-in rows alone until it loads the catalog (the loadCatalog
// operation), as the WebAssembly modules do when their hosts give it
// (RATIONALE.md, "Why is the catalog a table beside the module, loaded when
// a call first needs it?"). Core imports it in every native program
// (core/native.go); no WebAssembly module does. The directory also holds the catalog's sources, which core's
// go generate (core/gen_models.go) reads.
package registry

import (
	_ "embed"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

//go:embed catalog.json
var catalog []byte

func init() { tables.CompileCatalog(catalog) }
