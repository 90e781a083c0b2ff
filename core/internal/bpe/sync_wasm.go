//go:build wasm

package bpe

// WebAssembly runs Go on one thread and switches goroutines only where they
// block, never inside these functions, so plain words and flags are safe.
// In Go's wasm code sync/atomic and sync.Once are calls that cost ~12% of
// counting; these are loads.

type word struct{ v uint64 }

func (w *word) Load() uint64   { return w.v }
func (w *word) Store(v uint64) { w.v = v }

type regionOnce struct{ done bool }

func (o *regionOnce) do(v *Vocab, r int) {
	if !o.done {
		v.fill(r)
		o.done = true
	}
}

// pieceCache remembers the counts of recent pieces that needed a merge: in
// real text rare words repeat (about 40% of merged pieces in the benchmark
// corpus), and an app counts the same conversation again and again; a merge
// costs far more than a look-up. 32K entries, 2 MB, allocated at the first
// merge. Direct-mapped, keys kept in full and compared, so a hit is always
// right. It lives only in the
// WebAssembly build, where merging is slowest and there is one thread; a
// native build merges fast enough not to need shared state for it.
type pieceCache struct {
	entries *[1 << pieceBits]pieceEntry
}

const (
	pieceBits    = 15
	maxCachedLen = 62
)

type pieceEntry struct {
	n     uint8 // key length; 0 is empty
	key   [maxCachedLen]byte
	count uint8
}

// slot picks p's entry from h, p's hash (or 0 when the caller had none).
func (c *pieceCache) slot(p string, h uint64) *pieceEntry {
	if c.entries == nil {
		c.entries = new([1 << pieceBits]pieceEntry)
	}
	if h == 0 {
		h = hash(p)
	}
	return &c.entries[h>>(64-pieceBits)]
}

func (c *pieceCache) get(p string, h uint64) (int, bool) {
	if len(p) > maxCachedLen {
		return 0, false
	}
	e := c.slot(p, h)
	if int(e.n) == len(p) && string(e.key[:e.n]) == p {
		return int(e.count), true
	}
	return 0, false
}

func (c *pieceCache) put(p string, h uint64, count int) {
	if len(p) > maxCachedLen || count > 255 {
		return
	}
	e := c.slot(p, h)
	e.n = uint8(len(p))
	copy(e.key[:], p)
	e.count = uint8(count)
}
