//go:build wasip1

package main

import _ "github.com/tokenfit/tokenfit/wasm/internal/loader" // package full, with the tokenizer.json loader

// main does nothing: a reactor runs its exports, not main.
func main() {}
