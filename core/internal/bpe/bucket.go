package bpe

import (
	"slices"

	"github.com/tokenfit/tokenfit/core/internal/minheap"
)

// The merge for long pieces. The heap merge in merge.go is O(n log n); on
// the inputs that make pieces long (a megabyte of one letter, of spaces, of
// "\n\t") its log factor shows. In the vocabularies here a merge creates pairs
// whose ranks are higher than the merged token's, so the lowest rank present
// never goes down: the pairs can be taken rank by rank, each rank's pairs
// left to right. A binary heap then holds only the distinct ranks, which are
// few, and the whole merge is near O(n). Should a vocabulary ever break that
// order, the merge notices and the heap merge answers instead.

type entry struct {
	pos  int32 // start of the pair's left token
	link int32 // next entry of the same rank, or -1
}

type bucketMerge struct {
	tokenList
	tok     []uint32 // tok[i]: rank of the token that starts at i
	entries []entry  // every pair ever queued, chained per rank
	head    []int32  // head[rank]: last entry queued for rank, or -1
	ranks   []uint64 // min-heap of the ranks that have entries
	touched []uint32 // ranks whose head is set, to reset afterwards
	work    []int32  // starts queued for the rank being merged
}

// The scratch of a bucket merge includes a head per rank of the vocabulary
// (800 KB for o200k_base), too much to let a sync.Pool drop at every
// collection: each Vocab keeps one spare, swapped out while in use; a
// goroutine that finds it taken makes its own.
func (v *Vocab) getBuckets() *bucketMerge {
	if m := v.spare.Swap(nil); m != nil {
		return m
	}
	return new(bucketMerge)
}

// putBuckets keeps m as the spare unless a piece merged whole (window.go's
// last resort, when a window has no valid junction) grew it past what a
// window needs: that much scratch is not worth keeping for the life of the
// process.
func (v *Vocab) putBuckets(m *bucketMerge) {
	if cap(m.next) > 2*window {
		return
	}
	v.spare.Store(m)
}

// splitBuckets merges p like splitBig and leaves the tokens in m.next's list.
// It returns false, with m.next undefined, if it met a pair ranked below the
// rank being merged.
func (v *Vocab) splitBuckets(p string, m *bucketMerge) bool {
	n := len(p)
	m.next = grow(m.next, n)
	m.prev = grow(m.prev, n)
	m.pair = grow(m.pair, n)
	m.tok = grow(m.tok, n)
	if len(m.head) < len(v.off) {
		m.head = make([]int32, len(v.off))
		for i := range m.head {
			m.head[i] = -1
		}
	}
	// Each merge queues at most two pairs: 3n entries in all.
	if cap(m.entries) < 3*n {
		m.entries = make([]entry, 0, 3*n)
	}
	m.entries, m.ranks, m.touched = m.entries[:0], m.ranks[:0], m.touched[:0]
	defer func() {
		for _, r := range m.touched {
			m.head[r] = -1
		}
	}()
	queue := func(r uint32, pos int32) {
		if m.head[r] < 0 {
			m.ranks = minheap.Push(m.ranks, uint64(r))
			m.touched = append(m.touched, r)
		}
		m.entries = append(m.entries, entry{pos, m.head[r]})
		m.head[r] = int32(len(m.entries) - 1)
	}
	for i := range n {
		m.next[i] = int32(i + 1)
		m.prev[i] = int32(i - 1)
		m.tok[i] = v.byteRank[p[i]]
		m.pair[i] = noRank
		if i+1 < n {
			if r := v.pair2[int(p[i])<<8|int(p[i+1])] - 1; r != noRank {
				m.pair[i] = r
				queue(r, int32(i))
			}
		}
	}
	current := uint32(0)
	ordered := true
	rerank := func(i int32) {
		m.pair[i] = noRank
		j := m.next[i]
		if int(j) >= n {
			return
		}
		e := m.next[j]
		if int(e-i) > v.maxLen {
			return
		}
		if r := v.joined(m.tok[i], m.tok[j], p[i:e]); r != noRank {
			if r <= current {
				ordered = false
			}
			m.pair[i] = r
			queue(r, i)
		}
	}
	for len(m.ranks) > 0 && ordered {
		var top uint64
		top, m.ranks = minheap.Pop(m.ranks)
		current = uint32(top)
		m.work = m.work[:0]
		for e := m.head[current]; e >= 0; e = m.entries[e].link {
			m.work = append(m.work, m.entries[e].pos)
		}
		m.head[current] = -1
		slices.Sort(m.work)
		for _, i := range m.work {
			if m.pair[i] != current {
				continue // stale: the token at i changed since this was queued
			}
			m.join(i, n)
			m.tok[i] = current
			rerank(i)
			if pr := m.prev[i]; pr >= 0 {
				rerank(pr)
			}
		}
	}
	return ordered
}
