package bpe

// pieceCache remembers the counts of recent pieces that needed a merge: in
// real text rare words repeat (about 45% of the merged pieces in the
// benchmark corpus), and an app counts the same conversation again and
// again; a merge costs several times a look-up.
//
// It is 32K entries of one 64-byte line each (2 MB, allocated at the first
// merge), and keeps each key in full, so a hit is always right. Every field
// is a word (atomic where goroutines run in parallel, see sync_threads.go):
// an entry is a sequence lock, its header's version odd while a writer
// fills it. A reader that sees the header change under it, or
// a writer that finds the entry busy, gives up: a miss, never a wrong count.
type pieceCache struct {
	table tablePtr
}

const (
	pieceBits    = 15
	keyWords     = 7
	maxCachedLen = 8 * keyWords
)

type pieceTable [1 << pieceBits]pieceEntry

// pieceEntry's header is version << 16 | count << 8 | key length, with the
// version odd while the entry is written; key holds the key's bytes, little
// endian, zero past its length.
type pieceEntry struct {
	header word
	key    [keyWords]word
}

// ways returns p's two candidate entries, picked by independent bits of h,
// p's hash (or 0 when the caller had none). Two choices instead of one keep
// the distinct pieces of a long text from evicting each other: in the
// benchmark corpus, counted a second time, the share of merged pieces found
// went from 83% to 94% (o200k_base) and from 77% to 90% (cl100k_base).
func (t *pieceTable) ways(p string, h uint64) (*pieceEntry, *pieceEntry) {
	if h == 0 {
		h = hash(p)
	}
	i := h >> (64 - pieceBits)
	j := h >> 20 & (1<<pieceBits - 1)
	if j == i {
		j ^= 1
	}
	return &t[i], &t[j]
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
	e0, e1 := t.ways(p, h)
	if n, ok := e0.match(p); ok {
		return n, true
	}
	return e1.match(p)
}

// match returns the count e holds for p, if it holds p.
func (e *pieceEntry) match(p string) (int, bool) {
	head := e.header.Load()
	if head>>16&1 != 0 || int(head&0xFF) != len(p) {
		return 0, false
	}
	for k := 0; 8*k < len(p); k++ {
		if e.key[k].Load() != keyWord(p, k) {
			return 0, false
		}
	}
	if e.header.Load() != head {
		return 0, false
	}
	return int(head >> 8 & 0xFF), true
}

func (c *pieceCache) put(p string, h uint64, count int) {
	if len(p) > maxCachedLen || count > 0xFF {
		return
	}
	t := c.table.Load()
	if t == nil {
		c.table.CompareAndSwap(nil, new(pieceTable))
		t = c.table.Load()
	}
	// The first way unless it is taken and the second is free; when both
	// are taken, the first: a newer piece is likelier to come again.
	e, e1 := t.ways(p, h)
	if e.header.Load()&0xFF != 0 && e1.header.Load()&0xFF == 0 {
		e = e1
	}
	head := e.header.Load()
	version := head >> 16
	if version&1 != 0 || !e.header.CompareAndSwap(head, (version+1)<<16) {
		return // another writer has it
	}
	for k := 0; 8*k < len(p); k++ {
		e.key[k].Store(keyWord(p, k))
	}
	e.header.Store((version+2)<<16 | uint64(count)<<8 | uint64(len(p)))
}
