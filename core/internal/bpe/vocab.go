// Package bpe is the counting engine: a byte-level BPE that gives the same
// tokens as the official tiktoken, over the compact tables of package tables.
package bpe

import (
	"math/bits"
	"strconv"
	"sync/atomic"
	"unsafe"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// noRank marks a byte sequence that is not a token.
const noRank = ^uint32(0)

// Vocab maps token bytes to ranks and back. It is read-only once built and
// safe for concurrent use.
//
// The bytes → rank look-up is an open-addressing hash table split into
// regions of regionSlots slots, each filled the first time a look-up needs
// it. Building the whole table at start-up would touch megabytes of fresh
// memory, which costs more than all else a first count does; a short text
// needs a handful of regions. NewVocab only groups the ranks by region.
//
// A slot holds its token's first keyBytes bytes, its length and its rank
// (keySlot), so a look-up of a token that short reads one cache line: a slot
// that held only a rank made it read three (the slot, the token's offset and
// its bytes), and in counting, most of the time went to waiting for them.
type Vocab struct {
	Name     string
	Pattern  tables.Pattern
	bytes    string   // every token's bytes, in rank order
	off      []uint32 // token rank spans bytes[off[rank]:off[rank+1]]
	maxLen   int
	byteRank [256]uint32
	pair2    *[1 << 16]uint32 // pair2[b0<<8|b1]: rank+1 of the 2-byte token b0 b1, or 0
	specials map[uint32]string
	cache    *pairCache
	spare    atomic.Pointer[bucketMerge]
	pieces   pieceCache

	keys       []keySlot // the look-up table, regionSlots per region
	slots      []uint32  // an index's table (see index.go) the regions are filled from, or nil
	regionBits uint      // the hash's top regionBits bits pick the region
	ready      []regionOnce
	order      []int32 // ranks grouped by region
	starts     []int32 // region r's ranks are order[starts[r]:starts[r+1]]
}

const (
	// slotRankBits is the width of rank+1 in an index's slot; the rest is a
	// tag from the hash.
	slotRankBits = 18
	// regionSlots is the size of one region: 32 KB of keySlots.
	regionSlots = 2048
	// keyBytes is how many of a token's bytes its slot holds.
	keyBytes = 12
	// offBits is the width of an offset while NewVocab groups the ranks:
	// the byte above holds the rank's region.
	offBits = 24
)

// keySlot is one slot of the look-up table: lo holds the token's bytes 0-7
// and hi its bytes 8-11, little endian and zero past the token's end, then
// its length (bits 32-39) and its rank+1 (bits 40-63). hi is 0 in an empty
// slot.
type keySlot struct{ lo, hi uint64 }

// keyOf returns the lo and hi words of s's slot, without the rank.
// Overlapping loads instead of a loop over the bytes: every length is a
// few instructions.
func keyOf(s string) (lo, hi uint64) {
	n := len(s)
	switch {
	case n >= keyBytes:
		lo, hi = le64(s), uint64(le32(s[8:]))
	case n > 8:
		lo, hi = le64(s), uint64(le32(s[n-4:])>>(8*(keyBytes-n)))
	case n == 8:
		lo = le64(s)
	case n >= 4:
		lo = uint64(le32(s)) | uint64(le32(s[n-4:]))<<(8*(n-4))
	case n > 0:
		lo = uint64(s[0]) | uint64(s[n>>1])<<(8*(n>>1)) | uint64(s[n-1])<<(8*(n-1))
	}
	return lo, hi | uint64(n&0xFF)<<32
}

// NewVocab builds the look-up structures over a parsed table in one pass
// over its lengths (O(n)). When own is false the token bytes are used in
// place (t must then stay unchanged, as embedded tables do); else they are
// copied. The offsets are computed in t.Offsets when it has room for them
// (a table just expanded: memory already written is cheaper than fresh).
func NewVocab(t *tables.Table, own bool) (*Vocab, error) {
	n := len(t.Lengths)
	if n+1 >= 1<<slotRankBits {
		return nil, &tables.FormatError{Reason: strconv.Itoa(n) + " ranks; the engine holds fewer than " + strconv.Itoa(1<<slotRankBits-1)}
	}
	off := t.Offsets
	if len(off) != n+1 {
		off = make([]uint32, n+1)
	}
	v := &Vocab{Name: t.Name, Pattern: t.Pattern, off: off, cache: new(pairCache), pair2: new([1 << 16]uint32)}
	v.pieces.allocate()
	if own || len(t.Bytes) == 0 {
		v.bytes = string(t.Bytes)
	} else {
		v.bytes = unsafe.String(&t.Bytes[0], len(t.Bytes))
	}
	size := regionSlots
	for size < 2*n {
		size <<= 1
	}
	regions := size / regionSlots
	v.regionBits = uint(bits.Len(uint(regions)) - 1)
	v.keys = make([]keySlot, size)
	v.ready = make([]regionOnce, regions)
	v.starts = make([]int32, regions+1)
	for i := range v.byteRank {
		v.byteRank[i] = noRank
	}
	if regions > 256 {
		return nil, &tables.FormatError{Reason: strconv.Itoa(n) + " ranks is too many"}
	}
	if len(v.bytes) >= 1<<offBits {
		return nil, &tables.FormatError{Reason: strconv.Itoa(len(v.bytes)) + " bytes of tokens; the engine holds fewer than 16 MB"}
	}
	// Each rank's region (≤ 256 regions) waits in its offset's top byte
	// until the second pass groups the ranks, instead of in a scratch array
	// of its own (fresh memory: pages are what a start-up pays for).
	pos := uint32(0)
	for rank, l := range t.Lengths {
		start := pos
		pos += uint32(l)
		v.off[rank] = start
		if l == 0 {
			continue
		}
		if int(pos) > len(v.bytes) {
			return nil, &tables.FormatError{Reason: "token lengths run past the table's bytes"}
		}
		tok := v.bytes[start:pos]
		v.maxLen = max(v.maxLen, len(tok))
		switch len(tok) {
		case 1:
			v.byteRank[tok[0]] = uint32(rank)
		case 2:
			v.pair2[int(tok[0])<<8|int(tok[1])] = uint32(rank + 1)
		}
		r := v.regionOf(hash(tok))
		v.off[rank] |= uint32(r) << offBits
		v.starts[r+1]++
	}
	v.off[n] = pos
	if int(pos) != len(v.bytes) {
		return nil, &tables.FormatError{Reason: "token lengths add to " + strconv.Itoa(int(pos)) + ", the table holds " + strconv.Itoa(len(v.bytes))}
	}
	for b, r := range v.byteRank {
		if r == noRank {
			return nil, &tables.FormatError{Reason: "byte 0x" + strconv.FormatInt(int64(b), 16) + " has no token"}
		}
	}
	for r := 1; r <= regions; r++ {
		if v.starts[r] >= regionSlots {
			return nil, &tables.FormatError{Reason: "a region of the look-up table would be full"}
		}
		v.starts[r] += v.starts[r-1]
	}
	v.order = make([]int32, v.starts[regions])
	next := append([]int32(nil), v.starts[:regions]...)
	for rank, l := range t.Lengths {
		if l != 0 {
			r := v.off[rank] >> offBits
			v.off[rank] &= 1<<offBits - 1
			v.order[next[r]] = int32(rank)
			next[r]++
		}
	}
	v.specials = make(map[uint32]string, len(t.Specials))
	for _, s := range t.Specials {
		v.specials[s.Rank] = s.Text
	}
	return v, nil
}

func (v *Vocab) regionOf(h uint64) int {
	// The top regionBits (≤ 8) bits, with a shift the compiler need not
	// guard: h >> (64 - regionBits) costs a test for regionBits == 0 and
	// the masking of a shift of 64.
	return int(h >> 56 >> ((8 - v.regionBits) & 63))
}

// fill places region r's tokens in its slots, from an index's slots when
// there is one. Probing wraps within the region, so regions fill
// independently.
func (v *Vocab) fill(r int) {
	keys := v.keys[r*regionSlots : (r+1)*regionSlots]
	if v.slots != nil {
		for i, e := range v.slots[r*regionSlots : (r+1)*regionSlots] {
			if rank := e&(1<<slotRankBits-1) - 1; e != 0 && int(rank) < len(v.off)-1 {
				keys[i] = v.keySlot(rank)
			}
		}
		return
	}
	for _, rank := range v.order[v.starts[r]:v.starts[r+1]] {
		i := hash(v.token(uint32(rank))) % regionSlots
		for keys[i].hi != 0 {
			i = (i + 1) % regionSlots
		}
		keys[i] = v.keySlot(uint32(rank))
	}
}

// keySlot returns the slot of an ordinary rank.
func (v *Vocab) keySlot(rank uint32) keySlot {
	lo, hi := keyOf(v.token(rank))
	return keySlot{lo, hi | uint64(rank+1)<<40}
}

// token returns the bytes of an ordinary rank.
func (v *Vocab) token(r uint32) string { return v.bytes[v.off[r]:v.off[r+1]] }

// rank returns the rank of the token whose bytes are s, or noRank.
// Cost: O(len(s)) for the hash, then usually one probe.
func (v *Vocab) rank(s string) uint32 {
	r, _ := v.rankHash(s)
	return r
}

// rankHash is rank that also returns the hash of s (0 when it needed none),
// for the piece cache to reuse. It is the look-up of nearly every piece, so
// a piece of up to keyBytes bytes takes a path without calls (a call costs
// the registers live across it, spilled at the function's entry): its hash
// and its slot's key are computed together from the same loads (the values
// hash and keyOf give), and the two rare cases, a region not filled yet and
// a longer piece, are calls in tail position.
func (v *Vocab) rankHash(s string) (uint32, uint64) {
	n := len(s)
	var h, lo, hi, t uint64
	switch {
	case n == 1:
		return v.byteRank[s[0]], 0
	case n == 2:
		return v.pair2[int(s[0])<<8|int(s[1])] - 1, 0
	case n > keyBytes:
		return v.rankLong(s)
	case n < 8:
		if n >= 4 {
			a, b := uint64(le32(s)), uint64(le32(s[n-4:]))
			t, lo = a<<32|b, a|b<<(8*(n-4))
		} else {
			b0, b1, b2 := uint64(s[0]), uint64(s[1]), uint64(s[2])
			t, lo = b0<<16|b1<<8|b2, b0|b1<<8|b2<<16
		}
		h = uint64(n) * k0
	default: // 8 to keyBytes bytes: hash's loop runs once
		lo = le64(s)
		h = (uint64(n)*k0 ^ lo*k1) * k2
		h ^= h >> 29
		switch r := s[8:]; len(r) {
		case 4:
			a := uint64(le32(r))
			t, hi = a<<32|a, a
		case 3, 2, 1:
			t = uint64(r[0])<<16 | uint64(r[len(r)>>1])<<8 | uint64(r[len(r)-1])
			hi = uint64(le32(s[n-4:])) >> (8 * (keyBytes - n))
		}
	}
	h = (h ^ t*k1) * k2
	h ^= h >> 32
	h *= k0
	h ^= h >> 29
	hi |= uint64(n) << 32
	r := v.regionOf(h)
	if !v.ready[r].filled() {
		return v.rankFill(s, r)
	}
	base := r * regionSlots
	for i := h; ; i++ {
		k := &v.keys[base|int(i%regionSlots)]
		if k.lo == lo && k.hi&(1<<40-1) == hi {
			return uint32(k.hi>>40) - 1, h // the slot holds the whole token
		}
		if k.hi == 0 {
			return noRank, h
		}
	}
}

// rankFill is rankHash for a piece whose region is not filled yet.
func (v *Vocab) rankFill(s string, r int) (uint32, uint64) {
	v.ready[r].do(v, r)
	return v.rankHash(s)
}

// rankLong is rankHash for a piece longer than keyBytes: its slot holds its
// first keyBytes bytes, and a match compares the rest.
func (v *Vocab) rankLong(s string) (uint32, uint64) {
	h := hash(s)
	return v.rankOfLong(s, h), h
}

// rankOfLong is rankLong for a piece whose hash is h.
func (v *Vocab) rankOfLong(s string, h uint64) uint32 {
	if len(s) > v.maxLen {
		return noRank
	}
	lo, hi := le64(s), uint64(le32(s[8:]))|uint64(len(s)&0xFF)<<32
	r := v.regionOf(h)
	v.ready[r].do(v, r)
	base := r * regionSlots
	for i := h; ; i++ {
		k := &v.keys[base|int(i%regionSlots)]
		if k.hi == 0 {
			return noRank
		}
		if k.lo == lo && k.hi&(1<<40-1) == hi {
			if rank := uint32(k.hi>>40) - 1; v.token(rank) == s {
				return rank
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

const (
	k0 = 0x9E3779B97F4A7C15
	k1 = 0xC2B2AE3D27D4EB4F
	k2 = 0x165667B19E3779F9
)

// hash mixes the bytes of s into 64 bits. It uses only 64-bit multiplies,
// which WebAssembly has natively. The prebuilt indexes (and their checksums
// in every module) depend on it.
func hash(s string) uint64 {
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
