package bpe

// A cache of pair joins: (left token, right token) → the rank of their joined
// bytes, or no rank. Merging asks the same few joins again and again (the
// syllables of a script, the halves of common words); a hit costs one load
// instead of hashing and comparing the bytes.
//
// Each slot is one atomic word, valid bit | left << 42 | right << 21 |
// rank+1, so goroutines share the cache without locks; a slot lost to a
// concurrent write is only a miss. Ranks must be below 2^21 (o200k_base's
// are below 2^18).

const (
	cacheBits = 18
	rankBits  = 21
	rankMask  = 1<<rankBits - 1
	validBit  = 1 << 63
)

type pairCache [1 << cacheBits]word

// joined returns the rank of tokens a and b joined, whose bytes are s.
func (v *Vocab) joined(a, b uint32, s string) uint32 {
	key := uint64(a)<<rankBits | uint64(b)
	slot := &v.cache[(key*0x9E3779B97F4A7C15)>>(64-cacheBits)]
	if e := slot.Load(); e&validBit != 0 && (e>>rankBits)&(1<<(2*rankBits)-1) == key {
		return uint32(e&rankMask) - 1 // rank+1 was stored; 0 stored for none
	}
	r := v.rank(s)
	slot.Store(validBit | key<<rankBits | uint64(r+1)&rankMask)
	return r
}
