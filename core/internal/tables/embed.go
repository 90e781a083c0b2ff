//go:build !tokenfit_noembed

package tables

import _ "embed"

// The four tables add about 3.6 MB to a binary. WebAssembly builds for the
// browser leave them out with -tags tokenfit_noembed and load the table a
// page needs at run time instead.

var (
	//go:embed o200k_base.tkt
	o200k []byte
	//go:embed cl100k_base.tkt
	cl100k []byte
	//go:embed p50k_base.tkt
	p50k []byte
	//go:embed r50k_base.tkt
	r50k []byte
)

func embedded(name string) []byte {
	switch name {
	case "o200k_base":
		return o200k
	case "cl100k_base":
		return cl100k
	case "p50k_base":
		return p50k
	case "r50k_base":
		return r50k
	}
	return nil
}
