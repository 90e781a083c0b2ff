//go:build wasip1

// Command nohf is the full wasip1 reactor without the tokenizer.json loader
// (tokenfit-nohf.wasm): wasm/wasip1 but for package core/hf, whose import
// is all that links the loader. Its load_tokenizer and loadTokenizer answer
// unknown_operation, naming tokenfit.wasm; the npm package starts it by
// default, 80 KB of gzip smaller (RATIONALE.md, "Why does init() start
// without the tokenizer.json loader?"). Build it as wasm/wasip1's doc says,
// with ./wasm/wasip1/nohf.
package main

import _ "github.com/tokenfit/tokenfit/wasm/internal/full"

// main does nothing: a reactor runs its exports, not main.
func main() {}
