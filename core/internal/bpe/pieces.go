package bpe

// pieceCache remembers the counts of recent pieces that needed a merge: in
// real text rare words repeat (about 45% of the merged pieces in the
// benchmark corpus), and an app counts the same conversation again and
// again; a merge costs several times a look-up. It also holds whole tokens
// (count 1) of 5 bytes or more, which countCachedFirst and countLonger ask
// it for before the look-up.
//
// It has three parts, allocated together with the vocabulary (2 MB; 2.5 MB
// in WebAssembly): 32K entries (64K in WebAssembly, tiny_wasm.go) of 16
// bytes for pieces of up to keyBytes (12) bytes, four to a cache line (four
// in five merged pieces of the benchmark corpus are that short), 16K
// entries of one 64-byte line for pieces of up to 56 bytes, and 2K entries
// of four lines for longer ones, up to 248 bytes (a word of a
// script written without spaces, a run of CJK characters: few, but each
// merge of one costs as much as hundreds of look-ups). Each entry keeps its
// key in full, so a hit is always right. Every field is a word (atomic
// where goroutines run in parallel, see sync_threads.go): an entry is a
// sequence lock, its header's version odd while a writer fills it. A reader
// that sees the header change under it, or a writer that finds the entry
// busy, gives up: a miss, never a wrong count.
type pieceCache struct {
	table tablePtr
}

const (
	pieceBits    = 14
	keyWords     = 7 // a short entry: the header and 7 words of key
	longBits     = 11
	longKeyWords = 31 // a long entry: the header and 31 words of key
	maxCachedLen = 8 * longKeyWords
)

// pieceTable is the three parts, each entry a header word followed by its
// key words.
type pieceTable struct {
	tiny  [2 << tinyBits]word
	short [(1 + keyWords) << pieceBits]word
	long  [(1 + longKeyWords) << longBits]word
}

// A tiny entry's header is version << 40 | count << 36 | the key's hi word
// (keyOf's: bytes 8-11 and the length, at most 12, << 32), and its one key
// word keyOf's lo. Other entries' headers are version << 16 | count << 8 | key length, with the
// version odd while the entry is written; the key words hold the key's
// bytes, little endian, zero past its length.

// ways returns p's two candidate entries, picked by independent bits of h,
// p's hash (or 0 when the caller had none), in the part for p's length.
// Two choices instead of one keep the distinct pieces of a long text from
// evicting each other: in the benchmark corpus, counted a second time, the
// share of merged pieces found went from 83% to 94% (o200k_base) and from
// 77% to 90% (cl100k_base). Each part's sizes are constants, so that the
// shifts and slices cost no checks.
func (t *pieceTable) ways(p string, h uint64) ([]word, []word) {
	if h == 0 {
		h = hash(p)
	}
	if len(p) <= 8*keyWords {
		const words = 1 + keyWords
		i, j := wayPair(h, pieceBits)
		return t.short[i*words : (i+1)*words], t.short[j*words : (j+1)*words]
	}
	const words = 1 + longKeyWords
	i, j := wayPair(h, longBits)
	return t.long[i*words : (i+1)*words], t.long[j*words : (j+1)*words]
}

// wayPair returns two different entries of 2^bits from h.
func wayPair(h uint64, bits uint) (int, int) {
	i, j := int(h>>(64-bits)), int(h>>20&(1<<bits-1))
	return i, j ^ b2i(j == i)
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

// keyWord returns the k-th 8 bytes of p, zero-padded: the last, partial
// word as the top of the last eight bytes, without a loop over them.
func keyWord(p string, k int) uint64 {
	switch {
	case 8*k+8 <= len(p):
		return le64(p[8*k:])
	case len(p) >= 8:
		return le64(p[len(p)-8:]) >> (8 * (8*k + 8 - len(p)))
	}
	lo, _ := keyOf(p)
	return lo
}

func (c *pieceCache) get(p string, h uint64) (int, bool) {
	t := c.table.Load()
	if t == nil || len(p) == 0 || len(p) > maxCachedLen {
		return 0, false
	}
	if len(p) <= keyBytes {
		return t.getTiny(p, h)
	}
	e0, e1 := t.ways(p, h)
	if n, ok := match(e0, p); ok {
		return n, true
	}
	return match(e1, p)
}

// match returns the count entry e holds for p, if it holds p. Its whole
// words are compared inline, the last partial one through keyWord.
func match(e []word, p string) (int, bool) {
	head := e[0].Load()
	if head>>16&1 != 0 || int(head&0xFF) != len(p) {
		return 0, false
	}
	key := e[1:]
	k := 0
	for ; 8*k+8 <= len(p) && k < len(key); k++ {
		if key[k].Load() != le64(p[8*k:]) {
			return 0, false
		}
	}
	if 8*k < len(p) && key[k].Load() != keyWord(p, k) {
		return 0, false
	}
	if e[0].Load() != head {
		return 0, false
	}
	return int(head >> 8 & 0xFF), true
}

// allocate gives c its table. NewVocab and NewVocabIndexed do, so that
// its memory is taken while a table loads (the wasip1 adapter loads with the
// collector off) and counting allocates nothing: allocated at the first
// merge instead, they started a garbage collection in the first count of a
// WebAssembly instance, whose heap is above the collector's goal after a
// load (RATIONALE.md, "Why a piece cache"). Fresh memory is zero already,
// so nothing touches the table before a count does. A cache without a table
// (the zero value) keeps nothing and finds nothing.
func (c *pieceCache) allocate() { c.table.CompareAndSwap(nil, new(pieceTable)) }

func (c *pieceCache) put(p string, h uint64, count int) {
	if len(p) > maxCachedLen || count > 0xFF {
		return
	}
	t := c.table.Load()
	if t == nil {
		return
	}
	// The first way unless it is taken and the second is free; when both
	// are taken, the first: a newer piece is likelier to come again.
	if len(p) <= keyBytes {
		t.putTiny(p, h, count)
		return
	}
	e, e1 := t.ways(p, h)
	if e[0].Load()&0xFF != 0 && e1[0].Load()&0xFF == 0 {
		e = e1
	}
	head := e[0].Load()
	version := head >> 16
	if version&1 != 0 || !e[0].CompareAndSwap(head, (version+1)<<16) {
		return // another writer has it
	}
	key := e[1:]
	for k := 0; 8*k < len(p); k++ {
		key[k].Store(keyWord(p, k))
	}
	e[0].Store((version+2)<<16 | uint64(count)<<8 | uint64(len(p)))
}

// tinyWays returns p's two candidate entries in the tiny part.
func (t *pieceTable) tinyWays(p string, h uint64) ([]word, []word) {
	if h == 0 {
		h = hash(p)
	}
	i, j := wayPair(h, tinyBits)
	return t.tiny[2*i : 2*i+2], t.tiny[2*j : 2*j+2]
}

func (t *pieceTable) getTiny(p string, h uint64) (int, bool) {
	lo, hi := keyOf(p)
	e0, e1 := t.tinyWays(p, h)
	if n, ok := matchTiny(e0, lo, hi); ok {
		return n, true
	}
	return matchTiny(e1, lo, hi)
}

// matchTiny returns the count tiny entry e holds for the key lo, hi, if it
// holds it.
func matchTiny(e []word, lo, hi uint64) (int, bool) {
	head := e[0].Load()
	if head&(1<<36-1) != hi || head>>40&1 != 0 || e[1].Load() != lo || e[0].Load() != head {
		return 0, false
	}
	return int(head >> 36 & 0xF), true
}

// putTiny is put for a piece of at most keyBytes bytes (so at most 12
// tokens: the count fits in 4 bits).
func (t *pieceTable) putTiny(p string, h uint64, count int) {
	if count > 0xF {
		return
	}
	lo, hi := keyOf(p)
	e, e1 := t.tinyWays(p, h)
	if e[0].Load()&(1<<36-1) != 0 && e1[0].Load()&(1<<36-1) == 0 {
		e = e1
	}
	head := e[0].Load()
	version := head >> 40
	if version&1 != 0 || !e[0].CompareAndSwap(head, (version+1)<<40) {
		return // another writer has it
	}
	e[1].Store(lo)
	e[0].Store((version+2)<<40 | uint64(count)<<36 | hi)
}
