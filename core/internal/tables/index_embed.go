//go:build !tokenfit_noembed && !tokenfit_noindex && !wasm

package tables

import _ "embed"

// o200k_base's prebuilt index (the .tkx format of core/internal/bpe's
// index.go, written by gen_sums.go), compiled into native programs: with it
// a fresh process builds nothing before its first count, for 3.2 MB more
// binary (RATIONALE.md, "Why does start-up build so little?"). The other
// encodings build their look-up structures at first use. A program that
// would rather be 3.2 MB smaller and build it (O(n), once per process) is
// built with -tags tokenfit_noindex. WebAssembly builds carry no tables,
// so no index either.
//
//go:embed o200k_base.tkx
var o200kIndex []byte

func embeddedIndex(name string) []byte {
	if name == "o200k_base" {
		return o200kIndex
	}
	return nil
}
