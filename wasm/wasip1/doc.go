//go:build wasip1

// Command wasip1 is tokenfit as a WASI reactor (tokenfit.wasm): core's API
// behind a handful of //go:wasmexport functions over linear memory. A
// module is the packages its main package imports, each adding its
// exports; there are three (names, signatures, ownership and errors are in
// wasm/ABI.md):
//
//	wasm/wasip1       the whole JSON API through call, the count fast path
//	                  and the tokenizer.json loader: reactor, full, core/hf
//	wasm/wasip1/nohf  the same without the loader (no core/hf), 80 KB less
//	                  gzip: what the npm package starts by default
//	wasm/wasip1/lite  counting only, without core's JSON API, the model
//	                  registry, fmt or encoding/json: count, encode, decode,
//	                  within_limit, truncate and live counters over package
//	                  core/engine, each a direct export: reactor, lean
//
// (packages wasm/internal/reactor, full and lean). Build this one with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -pgo=wasm/wasip1/default.pgo \
//	    -gcflags=github.com/tokenfit/tokenfit/core=-l -gcflags=github.com/tokenfit/tokenfit/core/internal/chat=-l \
//	    -trimpath -ldflags="-s -w -buildid= -checklinkname=0" -buildvcs=false -o tokenfit.wasm ./wasm/wasip1
//	go run ./internal/cmd/postlink tokenfit.wasm
//
// from the repository's root, and the others the same way from their
// directories (make wasm builds all of them). All three are compiled with
// this directory's profile, default.pgo. The -gcflags compile package core
// and its request side (core/internal/chat) without inlining, which makes the module 23 KB of gzip smaller and
// nothing measurably slower (host/internal/modbuild.CoreNoInline); the lean
// module has no core. -checklinkname=0 lets the linker take the reactor's
// references to the runtime (reseed.go); postlink pre-initialises every
// module, whose _initialize then only re-seeds the runtime's random state.
// Call _initialize once, then the exports. No module carries a vocabulary:
// the host gives it the tables it needs through load_table (or
// load_packed, in the transport form pages download), and none of them
// imports package core/tables. wasm/exports.txt and wasm/exports-lite.txt
// list the exports, and tests hold the modules to them.
package main
