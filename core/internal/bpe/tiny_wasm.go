//go:build wasm

package bpe

// tinyBits sizes the piece cache's tiny part (pieces of up to keyBytes
// bytes): 64K entries, 1 MB, in WebAssembly. With 32K, a warm count of the
// 1 MiB benchmark corpus still merged about 880 pieces (entries of 4- to
// 12-byte pieces evicted by others, whole tokens included), and in wazero
// a merge costs many look-ups (a call per rank it asks); with 64K the count
// ran 1.06-1.09x faster there (RATIONALE.md, "Why is the engine's speed in
// wazero not the speed in V8?"). 128K gained nothing more.
// The cache is then 2.5 MB an encoding instead of 2.
const tinyBits = 16
