package hf

import (
	"hash/maphash"
	"sync/atomic"
)

// A cache of merged pieces: text is made of a few thousand distinct pieces
// (words, syllables), and a piece that is not a whole token costs a merge
// with a map look-up per pair. Direct-mapped, one atomic pointer per slot:
// goroutines share it without locks, and a slot lost to a concurrent write
// is only a miss.

const (
	pieceCacheBits = 16
	maxCachedPiece = 64 // bytes
)

type cachedPiece struct {
	piece string
	ids   []uint32
}

type pieceCache struct {
	seed  maphash.Seed
	slots [1 << pieceCacheBits]atomic.Pointer[cachedPiece]
}

func newPieceCache() *pieceCache { return &pieceCache{seed: maphash.MakeSeed()} }

func (c *pieceCache) slot(p string) *atomic.Pointer[cachedPiece] {
	return &c.slots[maphash.String(c.seed, p)>>(64-pieceCacheBits)]
}
