//go:build tokenfit_noembed || tokenfit_noindex || wasm

package tables

// Built without tables, with -tags tokenfit_noindex, or for WebAssembly: no
// index is compiled in (see index_embed.go).
func embeddedIndex(string) []byte { return nil }
