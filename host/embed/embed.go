// Package embed holds tokenfit's WebAssembly module, so that a Go program
// that imports package host has one with `go get` alone: host.New(ctx,
// host.NewConfig()) runs it in wazero, no build step, no file to ship.
//
// tokenfit.wasm and tokenfit-lite.wasm are the build outputs the
// repository keeps: the bytes `make wasm` writes to build/wasm/ (the wasip1
// reactor and its counting-only variant, built reproducibly from
// wasm/wasip1 and core), copied here by `make embed`. TestEmbed_Fresh fails
// when they differ from a fresh build of the tree, so whoever changes core
// or wasm/ regenerates them (`make embed`) in the same commit. See
// RATIONALE.md, "Why are the modules committed after all?".
package embed

import _ "embed"

// Module is the wasip1 reactor (wasm/ABI.md; make wasm prints its size): what
// host.NewConfig() runs.
//
//go:embed tokenfit.wasm
var Module []byte

// LeanModule is the counting-only reactor, about half the full one, for
// host.NewConfig().WithLeanModule(embed.LeanModule): hosts that only count
// start it in about half the time.
//
//go:embed tokenfit-lite.wasm
var LeanModule []byte
