//go:build wasip1

// Package reactor holds the exports every wasip1 module has (wasm/ABI.md):
// the buffers (alloc, free, last_error), the encodings (load_table,
// load_packed, load_indexed, encoding_handle, the count fast path), the
// stream counters, and the runtime's re-seeding (reseed_runtime), with the
// helpers the modules' own exports share. A //go:wasmexport function is
// exported by every module that links its package, so a module is the
// packages its main package imports: package full adds core's JSON API,
// package lean the direct counting exports, and each tells this one its
// error answers through Use.
//
// Nothing here decides anything: each export checks that its pointers name
// live buffers, calls core/engine, and recovers any panic into an error
// answer, so the instance keeps answering after bad input; last, it ends a
// collection cycle it would leave open (gccycle.go).
package reactor
