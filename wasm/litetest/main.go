package main

import (
	"unsafe"

	"github.com/tokenfit/tokenfit/core/internal/bpe"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

var enc *bpe.Encoder

//go:wasmexport load
func load(p *byte, n int32) int32 {
	b := unsafe.Slice(p, n)
	t, err := tables.Parse(b, true)
	if err != nil {
		return -1
	}
	e, err := bpe.New(t, true)
	if err != nil {
		return -2
	}
	enc = e
	return 0
}

//go:wasmexport count
func count(p *byte, n int32) int32 { return int32(enc.Count(unsafe.String(p, n))) }

func main() {}
