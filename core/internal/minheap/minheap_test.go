package minheap

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestHeap_Order pops what Init and Push hold in ascending order, for every
// size up to 64 and keys with many repeats.
func TestHeap_Order(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for n := range 64 {
		keys := make([]uint64, n)
		for i := range keys {
			keys[i] = r.Uint64N(16)
		}
		half := slices.Clone(keys[:n/2])
		Init(half)
		h := half
		for _, k := range keys[n/2:] {
			h = Push(h, k)
		}
		want := slices.Sorted(slices.Values(keys))
		var got []uint64
		for len(h) > 0 {
			var k uint64
			k, h = Pop(h)
			got = append(got, k)
		}
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: popped %v, want %v", n, got, want)
		}
	}
}
