// Package live keeps the exact token count of a text while it is edited, in
// time proportional to the edit rather than to the text.
//
// BPE works piece by piece, so the count is the sum of the pieces' counts.
// An edit changes the pieces near it only: the counter rescans from a cut
// before the edit (pretok.Cut: a position no piece reads across) until the
// new pieces fall back in step with the old ones after it, and replaces just
// those. The text lives in a gap buffer, the pieces in chunks that carry
// their sums, so finding a position costs O(chunks) and an edit near the
// last one moves few bytes.
//
// Where a text has no cut for a long way (a megabyte of one letter, which is
// one piece), an edit costs as much as that stretch, as it must: its single
// piece has to be merged again.
package live

import (
	"github.com/tokenfit/tokenfit/core/internal/measure"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/bpe"
	"github.com/tokenfit/tokenfit/core/internal/pretok"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// piece is one pre-tokenizer piece: its length in bytes and in UTF-16 code
// units, and its number of tokens.
type piece struct {
	n, u, t int32
}

// chunk is a run of consecutive pieces with their sums.
type chunk struct {
	ps      []piece
	n, u, t int
}

const chunkSize = 256 // pieces per chunk after a split

// Counter counts a text under edits. It is not safe for concurrent use.
type Counter struct {
	enc       *bpe.Encoder
	wordMarks bool
	text      gapBuffer
	chunks    []*chunk
	total     int
}

// New returns a counter over an empty text.
func New(enc *bpe.Encoder) *Counter {
	return &Counter{enc: enc, wordMarks: enc.Pattern == tables.PatternO200k}
}

// Count returns the number of tokens in the text. O(1).
func (c *Counter) Count() int { return c.total }

// Len returns the text's length in bytes.
func (c *Counter) Len() int { return c.text.len() }

// Text returns the text. O(n).
func (c *Counter) Text() string { return c.text.String() }

// Reset replaces the whole text. O(n).
func (c *Counter) Reset(text string) {
	c.text.reset(text)
	c.chunks = c.chunks[:0]
	c.total = 0
	// Pieces go straight into full chunks: no list of all pieces to copy.
	ch := &chunk{ps: make([]piece, 0, chunkSize)}
	for i := 0; i < len(text); {
		j := c.enc.Next(text, i)
		p := c.piece(text[i:j])
		ch.ps = append(ch.ps, p)
		ch.n += int(p.n)
		ch.u += int(p.u)
		ch.t += int(p.t)
		c.total += int(p.t)
		if len(ch.ps) == chunkSize {
			c.chunks = append(c.chunks, ch)
			ch = &chunk{ps: make([]piece, 0, chunkSize)}
		}
		i = j
	}
	if len(ch.ps) > 0 || len(c.chunks) == 0 {
		c.chunks = append(c.chunks, ch)
	}
}

func (c *Counter) piece(p string) piece {
	return piece{int32(len(p)), int32(measure.UTF16Len(p)), int32(c.enc.CountPiece(p))}
}

// Edit replaces del bytes at byte offset at with ins and returns the new
// count. at and at+del must lie on character boundaries in [0, Len()].
// Cost: proportional to ins, del and the pieces around the edit, plus
// O(chunks) to find the place.
func (c *Counter) Edit(at, del int, ins string) int {
	end := at + del
	// Restart at a piece start before a cut that lies clear of the edit:
	// pieces before the cut never read the edited bytes.
	restart := 0
	if cut := c.cutBefore(at - 4*utf8.UTFMax); cut > 0 {
		restart = c.pieceStartAt(cut)
	}
	c.text.replace(at, del, ins)
	delta := len(ins) - del
	newEnd := at + len(ins)

	// Old pieces from restart on, in old coordinates.
	ci, pi := c.locate(restart)
	old := pieceIter{chunks: c.chunks, ci: ci, pi: pi, pos: restart}

	var fresh []piece
	pos := restart
	oldPos, removed := restart, 0 // old boundary (old coordinates), pieces passed
	windowEnd := pos
	for pos < c.text.len() {
		if pos >= windowEnd {
			windowEnd = c.cutAfter(max(pos, newEnd) + 64)
		}
		// Scan within [pos, windowEnd+3 chars): pieces ending by windowEnd
		// are final.
		hi := min(c.text.len(), windowEnd+4*utf8.UTFMax)
		s := c.text.slice(pos, hi)
		synced := false
		i := 0
		for i < len(s) {
			j := c.enc.Next(s, i)
			if pos+j > windowEnd && hi < c.text.len() {
				break // may depend on text past the window: rescan wider
			}
			fresh = append(fresh, c.piece(s[i:j]))
			i = j
			q := pos + i // a new boundary, new coordinates
			// Advance the old boundaries up to q (mapped to new
			// coordinates: old positions from end on shift by delta).
			for old.ok() && mapOld(oldPos, at, end, delta) < q {
				oldPos += int(old.cur().n)
				removed++
				old.next()
			}
			if q >= newEnd && mapOld(oldPos, at, end, delta) == q && oldPos >= end {
				synced = true
				break
			}
		}
		pos += i
		if synced {
			break
		}
		if i == 0 {
			windowEnd = c.cutAfter(windowEnd + 1) // no piece fit: widen
		}
	}
	if pos >= c.text.len() {
		// Ran to the end: every old piece from restart on is replaced.
		for old.ok() {
			removed++
			old.next()
		}
	}
	c.replacePieces(restart, removed, fresh)
	return c.total
}

// mapOld maps an old boundary to new coordinates. Boundaries inside the
// replaced bytes have no image; they map to at, before any new boundary
// after the edit.
func mapOld(p, at, end, delta int) int {
	switch {
	case p <= at:
		return p
	case p < end:
		return at
	}
	return p + delta
}

// cutBefore returns the last cut at or before p, or 0.
func (c *Counter) cutBefore(p int) int {
	if p <= 0 {
		return 0
	}
	lo := max(0, p-256)
	for {
		s := c.text.slice(lo, min(c.text.len(), p+utf8.UTFMax))
		for w := p - lo; w > 0; w-- {
			if utf8.RuneStart(s[w]) && pretok.Cut(s, w, c.wordMarks) {
				return lo + w
			}
		}
		if lo == 0 {
			return 0
		}
		p = lo
		lo = max(0, lo-4*(p-lo+256))
	}
}

// cutAfter returns the first cut at or after p, or the text's length.
func (c *Counter) cutAfter(p int) int {
	n := c.text.len()
	for lo := max(0, p-utf8.UTFMax); p < n; {
		hi := min(n, p+256+2*(p-lo))
		s := c.text.slice(lo, hi)
		for w := p - lo; w < len(s); w++ {
			if utf8.RuneStart(s[w]) && pretok.Cut(s, w, c.wordMarks) {
				return lo + w
			}
		}
		p, lo = hi, hi-utf8.UTFMax
	}
	return n
}

// pieceStartAt returns the start of the piece that holds byte p.
func (c *Counter) pieceStartAt(p int) int {
	ci, pi := c.locate(p)
	start := 0
	for _, ch := range c.chunks[:ci] {
		start += ch.n
	}
	for _, pc := range c.chunks[ci].ps[:pi] {
		start += int(pc.n)
	}
	return start
}

// locate returns the chunk and index of the piece that holds byte p (or
// the position just past the last piece).
func (c *Counter) locate(p int) (ci, pi int) {
	for ci < len(c.chunks) {
		ch := c.chunks[ci]
		if p < ch.n {
			for pi = 0; pi < len(ch.ps); pi++ {
				if p < int(ch.ps[pi].n) {
					return ci, pi
				}
				p -= int(ch.ps[pi].n)
			}
		}
		p -= ch.n
		ci++
	}
	if len(c.chunks) == 0 {
		return 0, 0
	}
	return len(c.chunks) - 1, len(c.chunks[len(c.chunks)-1].ps)
}

// replacePieces removes count pieces starting at the piece that begins at
// byte start and inserts ps there.
func (c *Counter) replacePieces(start, count int, ps []piece) {
	ci, pi := c.locate(start)
	for k := ci; count > 0 && k < len(c.chunks); k++ {
		ch := c.chunks[k]
		from := 0
		if k == ci {
			from = pi
		}
		take := min(count, len(ch.ps)-from)
		for _, p := range ch.ps[from : from+take] {
			c.total -= int(p.t)
		}
		ch.ps = append(ch.ps[:from], ch.ps[from+take:]...)
		count -= take
		ch.sum()
	}
	c.insertPieces(ci, pi, ps)
}

// insertPieces inserts ps before piece pi of chunk ci, splitting chunks that
// grow too big and dropping empty ones.
func (c *Counter) insertPieces(ci, pi int, ps []piece) {
	for _, p := range ps {
		c.total += int(p.t)
	}
	if len(c.chunks) == 0 {
		c.chunks = []*chunk{{}}
	}
	ch := c.chunks[ci]
	merged := make([]piece, 0, len(ch.ps)+len(ps))
	merged = append(merged, ch.ps[:pi]...)
	merged = append(merged, ps...)
	merged = append(merged, ch.ps[pi:]...)
	var repl []*chunk
	for len(merged) > 2*chunkSize {
		repl = append(repl, newChunk(merged[:chunkSize]))
		merged = merged[chunkSize:]
	}
	if len(merged) > 0 {
		repl = append(repl, newChunk(merged))
	}
	rest := c.chunks[ci+1:]
	out := append(c.chunks[:ci:ci], repl...)
	for _, r := range rest {
		if len(r.ps) > 0 {
			out = append(out, r)
		}
	}
	c.chunks = out
}

func newChunk(ps []piece) *chunk {
	ch := &chunk{ps: append([]piece(nil), ps...)}
	ch.sum()
	return ch
}

func (ch *chunk) sum() {
	ch.n, ch.u, ch.t = 0, 0, 0
	for _, p := range ch.ps {
		ch.n += int(p.n)
		ch.u += int(p.u)
		ch.t += int(p.t)
	}
}

// pieceIter walks pieces forward across chunks.
type pieceIter struct {
	chunks []*chunk
	ci, pi int
	pos    int
}

func (it *pieceIter) ok() bool {
	for it.ci < len(it.chunks) && it.pi >= len(it.chunks[it.ci].ps) {
		it.ci++
		it.pi = 0
	}
	return it.ci < len(it.chunks)
}

func (it *pieceIter) cur() piece { return it.chunks[it.ci].ps[it.pi] }
func (it *pieceIter) next()      { it.pi++ }

// ByteOffset converts an offset in UTF-16 code units (as JavaScript strings
// count) to a byte offset. ok is false when u is out of range or falls
// inside a character that UTF-16 writes as a surrogate pair.
// Cost: O(chunks + piece).
func (c *Counter) ByteOffset(u int) (int, bool) {
	if u < 0 {
		return 0, false
	}
	b := 0
	for _, ch := range c.chunks {
		if u >= ch.u {
			u -= ch.u
			b += ch.n
			continue
		}
		for _, p := range ch.ps {
			if u >= int(p.u) {
				u -= int(p.u)
				b += int(p.n)
				continue
			}
			s := c.text.slice(b, b+int(p.n))
			for i, r := range s {
				if u == 0 {
					return b + i, true
				}
				u--
				if r >= 0x10000 {
					if u == 0 {
						return 0, false // between the halves of a surrogate pair
					}
					u--
				}
			}
		}
	}
	return b, u == 0
}

// Len16 returns the text's length in UTF-16 code units.
func (c *Counter) Len16() int {
	n := 0
	for _, ch := range c.chunks {
		n += ch.u
	}
	return n
}

// Encoding returns the name of the counter's encoding.
func (c *Counter) Encoding() string { return c.enc.Name }

// ByteAt returns the byte at offset p (0 ≤ p < Len()).
func (c *Counter) ByteAt(p int) byte { return c.text.slice(p, p+1)[0] }
