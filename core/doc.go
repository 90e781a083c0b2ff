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
//
// Any input gets an answer or a typed error, never a panic. Text that is not
// valid UTF-8 follows one rule in every operation, host and JSON request:
// each invalid byte becomes U+FFFD first (ValidUTF8; encoding/json does the
// same inside JSON strings, and a lone surrogate escape is one U+FFFD), so
// Count(t) == len(Encode(t)) for any bytes t. In requests, null is a
// field's absence, a null token id is an error, integers must be written as
// integers within int64, and JSON nested deeper than 10,000 levels is
// refused. TESTING.md's Reliability section lists the rest, and
// testdata/hostile holds the cases every host is tested with.
//
// The request side (chat counting, chat rules and templates, the
// providers' request shapes, a history's pruning items) is package
// core/internal/chat, below core: the compiler holds the order, and core
// names its types again for Go callers (chat.go). Tokenizer, FieldError
// and the sentinel errors are core/engine's, below both.
//
// Comments that cite a "seed" (memory-budget-formula, the budget
// calculator, tiered-injection, …) name the design documents the defaults
// come from; RATIONALE.md ("Where do the defaults come from") says which
// number each gave.
package core
