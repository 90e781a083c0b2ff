//go:build tokenfit_embedwasm

package host

import _ "embed"

// Built with -tags tokenfit_embedwasm: the module is compiled into the host
// (about 3.8 MB). host/tokenfit.wasm is a copy of build/wasm/tokenfit.wasm
// that `make build` puts there; it is never committed.
//
//go:embed tokenfit.wasm
var embeddedModule []byte
