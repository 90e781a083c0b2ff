//go:build !tokenfit_noembed

package core

import _ "embed"

// The catalog (about 1 MB) in native builds; the WebAssembly modules are
// built with -tags tokenfit_noembed and leave it out (their hosts load it:
// the loadCatalog operation).
//
//go:embed registry/catalog.json
var catalogData []byte

func embeddedCatalog() []byte { return catalogData }
