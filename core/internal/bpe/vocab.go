// Package bpe is the counting engine: a byte-level BPE that gives the same
// tokens as the official tiktoken, over the compact tables of package tables.
package bpe

import (
	"fmt"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// noRank marks a byte sequence that is not a token.
const noRank = ^uint32(0)

// Vocab maps token bytes to ranks and back. It is read-only once built and
// safe for concurrent use.
type Vocab struct {
	Name     string
	Pattern  tables.Pattern
	bytes    string   // every token's bytes, in rank order
	off      []uint32 // token rank spans bytes[off[rank]:off[rank+1]]
	slots    []uint64 // open addressing: hash tag << 32 | rank+1; 0 is empty
	mask     uint64
	maxLen   int
	byteRank [256]uint32
	specials map[uint32]string
}

// NewVocab builds the lookup structures over a parsed table: one pass to
// place the tokens (O(n)); the token bytes are copied once into a string.
func NewVocab(t *tables.Table) (*Vocab, error) {
	n := len(t.Lengths)
	v := &Vocab{Name: t.Name, Pattern: t.Pattern, bytes: string(t.Bytes), off: make([]uint32, n+1)}
	size := 1
	for size < 2*n {
		size <<= 1
	}
	v.slots = make([]uint64, size)
	v.mask = uint64(size - 1)
	for i := range v.byteRank {
		v.byteRank[i] = noRank
	}
	pos := uint32(0)
	for rank, l := range t.Lengths {
		v.off[rank] = pos
		pos += uint32(l)
		if l == 0 {
			continue
		}
		tok := v.bytes[v.off[rank]:pos]
		v.maxLen = max(v.maxLen, len(tok))
		if len(tok) == 1 {
			v.byteRank[tok[0]] = uint32(rank)
		}
		h := hash(tok)
		i := h & v.mask
		for v.slots[i] != 0 {
			i = (i + 1) & v.mask
		}
		v.slots[i] = h&^0xFFFFFFFF | uint64(rank+1)
	}
	v.off[n] = pos
	for b, r := range v.byteRank {
		if r == noRank {
			return nil, fmt.Errorf("%w: byte %#x has no token", tables.ErrFormat, b)
		}
	}
	v.specials = make(map[uint32]string, len(t.Specials))
	for _, s := range t.Specials {
		v.specials[s.Rank] = s.Text
	}
	return v, nil
}

// rank returns the rank of the token whose bytes are s, or noRank.
// Cost: O(len(s)) for the hash, then usually one probe.
func (v *Vocab) rank(s string) uint32 {
	if len(s) > v.maxLen {
		return noRank
	}
	if len(s) == 1 {
		return v.byteRank[s[0]]
	}
	h := hash(s)
	tag := h &^ 0xFFFFFFFF
	for i := h & v.mask; ; i = (i + 1) & v.mask {
		e := v.slots[i]
		if e == 0 {
			return noRank
		}
		if e&^0xFFFFFFFF == tag {
			r := uint32(e) - 1
			if v.bytes[v.off[r]:v.off[r+1]] == s {
				return r
			}
		}
	}
}

// Token returns the bytes of a rank: an ordinary token or a special token's
// text. ok is false for a rank the encoding does not have.
func (v *Vocab) Token(rank int) (tok string, ok bool) {
	if rank >= 0 && rank < len(v.off)-1 && v.off[rank] != v.off[rank+1] {
		return v.bytes[v.off[rank]:v.off[rank+1]], true
	}
	if rank >= 0 && rank <= int(^uint32(0)) {
		tok, ok = v.specials[uint32(rank)]
	}
	return tok, ok
}

// Size returns one past the highest rank, special tokens included.
func (v *Vocab) Size() int {
	n := len(v.off) - 1
	for r := range v.specials {
		n = max(n, int(r)+1)
	}
	return n
}

// hash mixes the bytes of s into 64 bits. It uses only 64-bit multiplies,
// which WebAssembly has natively.
func hash(s string) uint64 {
	const (
		k0 = 0x9E3779B97F4A7C15
		k1 = 0xC2B2AE3D27D4EB4F
		k2 = 0x165667B19E3779F9
	)
	n := len(s)
	h := uint64(n) * k0
	for len(s) >= 8 {
		h = (h ^ le64(s)*k1) * k2
		h ^= h >> 29
		s = s[8:]
	}
	var t uint64
	switch {
	case len(s) >= 4:
		t = uint64(le32(s))<<32 | uint64(le32(s[len(s)-4:]))
	case len(s) > 0:
		t = uint64(s[0])<<16 | uint64(s[len(s)>>1])<<8 | uint64(s[len(s)-1])
	}
	h = (h ^ t*k1) * k2
	h ^= h >> 32
	h *= k0
	h ^= h >> 29
	return h
}

func le64(s string) uint64 {
	_ = s[7]
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

func le32(s string) uint32 {
	_ = s[3]
	return uint32(s[0]) | uint32(s[1])<<8 | uint32(s[2])<<16 | uint32(s[3])<<24
}
