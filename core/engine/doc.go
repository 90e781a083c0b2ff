// Package engine is tokenfit's exact counting on its own: load a vocabulary
// table, then count, encode, decode, test a limit, truncate, and keep a live
// count under edits. It has no JSON API, no model registry and no fmt, so a
// program that needs only counting stays small: the lean WebAssembly module
// (wasm/wasip1/lite, see wasm/ABI.md) is built on it and weighs about a
// third less than the full one. Its tables are compiled in by importing
// package core/tables, or loaded at run time (Load).
//
// Package core offers the same counting (core.Encoding) with everything
// else. The two give the same answers; engine's tests hold them to it.
package engine
