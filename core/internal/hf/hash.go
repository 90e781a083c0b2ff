package hf

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"unsafe"
)

// seeds key the hash of a table built from a tokenizer.json: the
// vocabulary and the merges. Every table draws its own when it is made, from
// the runtime's generator (which the WebAssembly modules seed afresh in
// every instance), so that a file cannot be written whose keys all fall in
// one slot: with a fixed hash they can, and a table probed linearly then
// costs its number of keys per key (RATIONALE.md, "Why does a hostile
// tokenizer.json cost what a fair one does?").
//
// The mixing step is wyhash's: the 128-bit product of the key's bytes and
// the seeds, folded (mum). The key's bytes and the seeds meet by
// multiplication, not only by xor, so no difference between two keys gives
// the same hash whatever the seeds: the step an unseeded multiply-rotate
// hash (and the same hash with a seed xored in) allows, flipping a block's
// top bit and the next block's bit 28, does not carry through it
// (TestHash_Differentials).
type seeds struct{ s0, s1 uint64 }

func newSeeds() seeds { return seeds{rand.Uint64(), rand.Uint64()} }

// mum is the fold of the 128-bit product of a and b.
func mum(a, b uint64) uint64 {
	hi, lo := bits.Mul64(a, b)
	return hi ^ lo
}

func r8(s string, i int) uint64 {
	return binary.LittleEndian.Uint64(unsafe.Slice(unsafe.StringData(s[i:]), 8))
}

func r4(s string, i int) uint64 {
	return uint64(binary.LittleEndian.Uint32(unsafe.Slice(unsafe.StringData(s[i:]), 4)))
}

// str hashes a key: a word or a character in counting, one multiplication
// for up to 16 bytes, one more per 16 bytes beyond. (A pair of ids, in
// pairs.go, is mum(pair ^ s0, s1).)
func (h seeds) str(s string) uint64 {
	n := len(s)
	var a, b uint64
	acc := h.s1 + uint64(n)
	switch {
	case n > 16:
		i := 0
		for ; n-i > 16; i += 16 {
			acc = mum(r8(s, i)^h.s0, r8(s, i+8)^acc)
		}
		a, b = r8(s, n-16), r8(s, n-8)
	case n > 8:
		a, b = r8(s, 0), r8(s, n-8)
	case n >= 4:
		a = r4(s, 0)<<32 | r4(s, n-4)
	case n > 0:
		a = uint64(s[0])<<16 | uint64(s[n/2])<<8 | uint64(s[n-1])
	}
	return mum(a^h.s0, b^acc)
}
