// Package embed holds tokenfit's WebAssembly module, so that a Go program
// that imports package host has one with `go get` alone: host.New(ctx,
// host.NewConfig()) runs it in wazero, no build step, no file to ship.
//
// tokenfit.wasm and tokenfit-lite.wasm are the build outputs the
// repository keeps: the bytes `make wasm` writes to build/wasm/ (the wasip1
// reactor and its counting-only variant, built reproducibly from
// wasm/wasip1 and core) at the last release, copied here by `make release`
// with the version change. Between releases they stay the release's:
// TestEmbed_Compatible holds them to the host package of the tree (its
// exports, ABI and index format, every operation a method sends, the
// version), and TestEmbed_Fresh holds them byte for byte to a fresh build
// where a release is made (make release-check). See RATIONALE.md, "Why are
// the modules committed, and refreshed only by a release?".
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
