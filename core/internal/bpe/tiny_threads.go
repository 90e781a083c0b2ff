//go:build !wasm

package bpe

// tinyBits sizes the piece cache's tiny part: 32K entries, 512 KB. Natively
// a merge costs little, and a larger part would only take more of the
// processor's cache (see tiny_wasm.go for WebAssembly's).
const tinyBits = 15
