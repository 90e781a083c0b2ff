//go:build wasip1

// Command wasip1 is tokenfit as a WASI reactor: core's API behind a handful
// of //go:wasmexport functions over linear memory. It builds in two
// variants (names, signatures, ownership and errors are in wasm/ABI.md):
//
//	full (default)        the whole JSON API through call, and the count fast path
//	full without the tokenizer.json loader (-tags tokenfit_nohf)
//	                      the same but loadTokenizer, 80 KB less gzip: what
//	                      the npm package starts by default
//	lean (-tags tokenfit_lite)
//	                      counting only, without core's JSON API, the model
//	                      registry, fmt or encoding/json: count, encode,
//	                      decode, within_limit, truncate and live counters
//	                      over package core/engine, each a direct export
//
// Build the full one with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -tags tokenfit_noembed \
//	    -gcflags=github.com/tokenfit/tokenfit/core=-l \
//	    -trimpath -ldflags="-s -w -buildid= -checklinkname=0" -buildvcs=false -o tokenfit.wasm ./wasm/wasip1
//	go run ./internal/cmd/postlink tokenfit.wasm
//
// and the others by adding tokenfit_nohf or tokenfit_lite to the tags
// (make wasm builds all three). The -gcflags compile package core without
// inlining, which makes the module 23 KB of gzip smaller and nothing
// measurably slower (host/internal/modbuild.CoreNoInline); the lean module
// has no core. -checklinkname=0 lets the linker take
// reseed.go's references to the runtime; postlink pre-initialises the full
// modules (with and without the loader), whose _initialize then only
// re-seeds the runtime's random state (reseed.go; the lean one is left as
// the linker wrote it but for its data). Call _initialize once, then the
// exports. No module carries a vocabulary: the host gives it the tables it
// needs through load_table (or load_packed, in the transport form pages download).
// wasm/exports.txt and wasm/exports-lite.txt list the exports, and tests
// hold the modules to them.
//
// Nothing here decides anything: each export checks that its pointers name
// live buffers, calls core, and recovers any panic into an error answer, so
// the instance keeps answering after bad input; last, it ends a collection
// cycle it would leave open (gccycle.go).
package main

// main does nothing: a reactor runs its exports, not main.
func main() {}
