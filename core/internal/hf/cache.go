package hf

import (
	"hash/maphash"
	"math/rand/v2"
	"strings"
	"sync/atomic"
)

// Caches of merged text, a set of slots per hash, one atomic pointer per
// slot: goroutines share them without locks, and a slot lost to a
// concurrent write is only a miss.
//
// The piece cache: text is made of a few thousand distinct pieces (words,
// syllables), and a piece that is not a whole token costs a merge with a
// look-up per pair.
//
// The section cache (SentencePiece-style files): with no pre-tokenizer, a
// section of text between added tokens is one piece to Hugging Face's
// libraries, and tokenizers.js caches the tokens of each piece under 256
// characters, so a message counted again costs it one look-up. Counting
// the same text again is common (a chat's earlier messages, each turn), and
// a section's words each cost a look-up in a vocabulary far larger than
// the processor's caches (Gemma 3's 262,144 tokens), so its tokens are
// kept too, up to a bound on the bytes held.

const (
	pieceCacheBits   = 16
	maxCachedPiece   = 64 // bytes
	sectionCacheBits = 14
	maxCachedSection = 1024    // bytes
	sectionBudget    = 4 << 20 // bytes of text and ids held
)

type cachedText struct {
	text string
	ids  []uint32
}

// size is what c holds, roughly: its text, its ids and their headers.
func (c *cachedText) size() int64 { return int64(len(c.text) + 4*len(c.ids) + 64) }

type textCache struct {
	seed   maphash.Seed
	slots  []atomic.Pointer[cachedText] // sets of cacheWays slots
	shift  uint
	budget int64 // the bytes its entries may hold, or 0 for no bound
	held   atomic.Int64
}

// cacheWays is the slots a text may take: with one, a text whose slot it
// shares with another text counted as often misses every time (a fifth of
// the sections of 894 messages, with 16,384 slots; with four, 0.5%).
const (
	cacheWayBits = 2
	cacheWays    = 1 << cacheWayBits
)

// newTextCache makes a cache of 2^bits slots.
func newTextCache(bits uint, budget int64) *textCache {
	return &textCache{seed: maphash.MakeSeed(), slots: make([]atomic.Pointer[cachedText], 1<<bits), shift: 64 - bits + cacheWayBits, budget: budget}
}

func newPieceCache() *textCache   { return newTextCache(pieceCacheBits, 0) }
func newSectionCache() *textCache { return newTextCache(sectionCacheBits, sectionBudget) }

// get returns the set of s, and the ids cached there for s if any.
func (c *textCache) get(s string) ([]atomic.Pointer[cachedText], []uint32, bool) {
	i := maphash.String(c.seed, s) >> c.shift * cacheWays
	set := c.slots[i : i+cacheWays : i+cacheWays]
	for w := range set {
		if e := set[w].Load(); e != nil && e.text == s {
			return set, e.ids, true
		}
	}
	return set, nil, false
}

// put keeps copies of s and its ids in set (s may be a view of a buffer
// written again), in a free slot or in place of one at random. Over the
// budget, entries anywhere are dropped at random to make room; it stores
// nothing if a few tries do not.
func (c *textCache) put(set []atomic.Pointer[cachedText], s string, ids []uint32) {
	slot := &set[rand.N(cacheWays)]
	for w := range set {
		if set[w].Load() == nil {
			slot = &set[w]
			break
		}
	}
	e := &cachedText{text: strings.Clone(s), ids: append([]uint32(nil), ids...)}
	if c.budget == 0 {
		slot.Store(e)
		return
	}
	for range 8 {
		if c.held.Load()+e.size() <= c.budget {
			break
		}
		if old := c.slots[rand.N(len(c.slots))].Swap(nil); old != nil {
			c.held.Add(-old.size())
		}
	}
	if c.held.Load()+e.size() > c.budget {
		return
	}
	if old := slot.Swap(e); old != nil {
		c.held.Add(-old.size())
	}
	c.held.Add(e.size())
}
