//go:build wasip1

// Command lite is the lean wasip1 reactor (tokenfit-lite.wasm): counting
// only, over core/engine, every operation a direct export, without core's
// JSON API, the model registry, fmt or encoding/json (package lean; see
// wasm/ABI.md, "The lean reactor"). Build it as wasm/wasip1's doc says,
// with ./wasm/wasip1/lite and without the -gcflags (it has no core).
package main

import _ "github.com/tokenfit/tokenfit/wasm/internal/lean"

// main does nothing: a reactor runs its exports, not main.
func main() {}
