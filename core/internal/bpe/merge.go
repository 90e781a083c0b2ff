package bpe

import (
	"sync"

	"github.com/tokenfit/tokenfit/core/internal/minheap"
)

// Byte-pair merging: starting from single bytes, repeatedly join the adjacent
// pair whose joined bytes have the lowest rank, the leftmost on a tie, until
// no adjacent pair is a token. This is the official tiktoken's rule; two
// implementations of it follow, one for short pieces and one for long ones.

// smallPiece is the length up to which the quadratic scan beats the heap: a
// piece that is not a whole token is usually a rare word of a few bytes.
const smallPiece = 96

// part is a boundary between tokens during a merge: the token that starts at
// start, its rank, and the rank of it joined with the token after it.
type part struct {
	start int32
	tok   uint32
	rank  uint32
}

// splitSmall merges p (2 ≤ len(p) ≤ smallPiece) and returns the token
// boundaries: parts[i].start for each token, then len(p).
// Cost: O(len(p)²) rank look-ups in the worst case, without allocating.
func (v *Vocab) splitSmall(p string, buf *[smallPiece + 1]part) []part {
	parts := buf[:0]
	for i := 0; i+1 < len(p); i++ {
		parts = append(parts, part{int32(i), v.byteRank[p[i]], v.pair2[int(p[i])<<8|int(p[i+1])] - 1})
	}
	parts = append(parts, part{int32(len(p) - 1), v.byteRank[p[len(p)-1]], noRank}, part{int32(len(p)), noRank, noRank})
	for {
		best, at := noRank, -1
		for i, pt := range parts[:len(parts)-1] {
			if pt.rank < best {
				best, at = pt.rank, i
			}
		}
		if at < 0 {
			return parts
		}
		// Join the token at at with the next: drop the boundary between.
		copy(parts[at+1:], parts[at+2:])
		parts = parts[:len(parts)-1]
		parts[at].tok = best
		parts[at].rank = noRank
		if at+2 < len(parts) {
			parts[at].rank = v.joined(best, parts[at+1].tok, p[parts[at].start:parts[at+2].start])
		}
		if at > 0 {
			parts[at-1].rank = v.joined(parts[at-1].tok, best, p[parts[at-1].start:parts[at+1].start])
		}
	}
}

// bigMerge holds the scratch state of a heap merge; pooled so that counting
// long pieces does not allocate once warm.
type bigMerge struct {
	tokenList
	heap []uint64 // rank << 32 | start, a min-heap
}

// tokenList is a merge's tokens: a linked list of their starts in a piece
// of n bytes, with the rank of each joined with the next.
type tokenList struct {
	next, prev []int32  // next[last] = n
	pair       []uint32 // pair[i]: rank of the token at i joined with the next
}

// join joins the token at i with the next one. Cost: O(1).
func (l *tokenList) join(i int32, n int) {
	j := l.next[i]
	l.next[i] = l.next[j]
	if int(l.next[j]) < n {
		l.prev[l.next[j]] = i
	}
	l.pair[j] = noRank
}

var bigPool = sync.Pool{New: func() any { return new(bigMerge) }}

// splitBig merges p with a priority queue of candidate pairs. The tokens
// are then m.next's list: from 0, each token i ends at m.next[i], up to len(p).
// Cost: O(n log n) for n = len(p).
func (v *Vocab) splitBig(p string, m *bigMerge) {
	n := len(p)
	m.next = grow(m.next, n)
	m.prev = grow(m.prev, n)
	m.pair = grow(m.pair, n)
	m.heap = m.heap[:0]
	for i := range n {
		m.next[i] = int32(i + 1)
		m.prev[i] = int32(i - 1)
		m.pair[i] = noRank
		if i+1 < n {
			if r := v.rank(p[i : i+2]); r != noRank {
				m.pair[i] = r
				m.heap = append(m.heap, uint64(r)<<32|uint64(i))
			}
		}
	}
	minheap.Init(m.heap)
	// end returns the end of the pair that starts at token i, or -1.
	end := func(i int32) int32 {
		j := m.next[i]
		if int(j) >= n {
			return -1
		}
		return m.next[j]
	}
	rerank := func(i int32) {
		m.pair[i] = noRank
		if e := end(i); e >= 0 && int(e-i) <= v.maxLen {
			if r := v.rank(p[i:e]); r != noRank {
				m.pair[i] = r
				m.heap = minheap.Push(m.heap, uint64(r)<<32|uint64(i))
			}
		}
	}
	for len(m.heap) > 0 {
		var top uint64
		top, m.heap = minheap.Pop(m.heap)
		i, r := int32(uint32(top)), uint32(top>>32)
		if m.pair[i] != r {
			continue // stale: the token at i changed since this was queued
		}
		m.join(i, n)
		rerank(i)
		if pr := m.prev[i]; pr >= 0 {
			rerank(pr)
		}
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
