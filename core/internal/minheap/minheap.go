// Package minheap is the binary min-heap of uint64 keys that the BPE mergers
// (core/internal/bpe and core/internal/hf) queue their merges in, as
// rank<<32 | position, so that the smallest rank, then the leftmost position,
// comes first. Plain functions on a slice, not container/heap: no interface
// calls in the merge loop, and the caller keeps the slice for reuse.
package minheap

// Init orders h into a heap. O(n).
func Init(h []uint64) {
	for i := len(h)/2 - 1; i >= 0; i-- {
		down(h, i)
	}
}

// Push adds x to the heap h and returns the grown slice. O(log n).
func Push(h []uint64, x uint64) []uint64 {
	h = append(h, x)
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if h[parent] <= h[i] {
			break
		}
		h[parent], h[i] = h[i], h[parent]
		i = parent
	}
	return h
}

// Pop removes the smallest key from the non-empty heap h and returns it with
// the shrunk slice. O(log n).
func Pop(h []uint64) (uint64, []uint64) {
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	down(h, 0)
	return top, h
}

func down(h []uint64, i int) {
	for {
		l := 2*i + 1
		if l >= len(h) {
			return
		}
		c := l
		if r := l + 1; r < len(h) && h[r] < h[l] {
			c = r
		}
		if h[i] <= h[c] {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}
