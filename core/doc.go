// Package core is everything tokenfit knows, in pure Go: the counting engine,
// chat and tool counting, the model registry, the context budget, history
// pruning, injection planning and session tracking, and the JSON requests and
// answers that every host speaks.
//
// Core knows nothing of where it runs. It imports no os, no syscall/js and no
// wazero; the WebAssembly adapters (wasm/js, wasm/wasip1) and the hosts (the
// npm package, the Go host package, the CLI) translate and call it.
//
// Counting is exact for the OpenAI encodings o200k_base, cl100k_base,
// p50k_base and r50k_base: it equals the official tiktoken's
// encode_ordinary, so special-token text such as <|endoftext|> is counted as
// ordinary text. Models without a public tokenizer get an estimate that says
// it is one and how far off it may be.
package core
