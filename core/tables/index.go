//go:build !wasm

package tables

import (
	_ "embed"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// o200k_base's prebuilt index (the .tkx format of core/internal/bpe's
// index.go, written by gen_sums.go), compiled into native programs: with it
// a fresh process builds nothing before its first count (RATIONALE.md,
// "Why does start-up build so little?"). The other encodings build their
// look-up structures at first use; WebAssembly programs load the indexes
// their hosts give them.
//
//go:embed o200k_base.tkx
var o200kIndex []byte

func init() { tables.CompileIndex(index) }

func index(name string) []byte {
	if name == "o200k_base" {
		return o200kIndex
	}
	return nil
}
