package hf

import (
	"sync"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/minheap"
)

// Byte-pair merging by merge rank: from single bytes, repeatedly merge the
// adjacent pair whose merge comes first in the file's merges, the leftmost
// on a tie, until no adjacent pair has a merge. Unlike tiktoken's rule (the
// rank of the joined bytes), a pair merges only if the file lists it.

const none = ^uint32(0)

// merger is the scratch state of one merge, pooled.
type merger struct {
	id         []uint32 // id[i]: the token that starts at byte i
	next, prev []int32  // linked list of token starts
	rank       []uint32 // rank[i]: merge rank of the token at i with the next, or none
	heap       []uint64 // rank<<32 | start, a min-heap
}

var mergePool = sync.Pool{New: func() any { return new(merger) }}

func (w *merger) merge(m *Model, p string, dst []uint32) []uint32 {
	n := len(p)
	w.id = grow(w.id, n)
	w.next = grow(w.next, n)
	w.prev = grow(w.prev, n)
	w.rank = grow(w.rank, n)
	w.heap = w.heap[:0]
	if m.spiece {
		// From characters; one the vocabulary lacks is none and never merges.
		prev := int32(-1)
		for i := 0; i < n; {
			_, size := utf8.DecodeRuneInString(p[i:])
			id, ok := m.vocab.get(p[i : i+size])
			if !ok {
				id = none
			}
			w.id[i], w.next[i], w.prev[i] = id, int32(i+size), prev
			prev = int32(i)
			i += size
		}
	} else {
		for i := range n {
			w.id[i] = m.byteID[p[i]]
			w.next[i] = int32(i + 1)
			w.prev[i] = int32(i - 1)
		}
	}
	for i := int32(0); int(i) < n; i = w.next[i] {
		w.rerank(m, i, n)
	}
	for len(w.heap) > 0 {
		var top uint64
		top, w.heap = minheap.Pop(w.heap)
		i, r := int32(uint32(top)), uint32(top>>32)
		if w.rank[i] != r {
			continue // stale: the token at i or its neighbour changed
		}
		j := w.next[i]
		v, _ := m.merges.get(uint64(w.id[i])<<32 | uint64(w.id[j]))
		w.id[i] = uint32(v)
		w.next[i] = w.next[j]
		if int(w.next[j]) < n {
			w.prev[w.next[j]] = i
		}
		w.rank[j] = none
		w.rerank(m, i, n)
		if pr := w.prev[i]; pr >= 0 {
			w.rerank(m, pr, n)
		}
	}
	for i := int32(0); int(i) < n; i = w.next[i] {
		if w.id[i] == none { // byte fallback
			for _, b := range []byte(p[i:w.next[i]]) {
				dst = append(dst, m.byteID[b])
			}
			continue
		}
		dst = append(dst, w.id[i])
	}
	return dst
}

// rerank sets the merge rank of the token at i with the next and queues it.
func (w *merger) rerank(m *Model, i int32, n int) {
	w.rank[i] = none
	j := w.next[i]
	if int(j) >= n || w.id[i] == none || w.id[j] == none {
		return
	}
	if v, ok := m.merges.get(uint64(w.id[i])<<32 | uint64(w.id[j])); ok {
		r := uint32(v >> 32)
		w.rank[i] = r
		w.heap = minheap.Push(w.heap, uint64(r)<<32|uint64(i))
	}
}

func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	return s[:n]
}
