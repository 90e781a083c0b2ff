package bpe

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// TestNewVocab_Offsets: offsets computed in memory the table brings along
// (Table.Offsets, what tables.ExpandOffsets leaves: whatever it holds) are
// the ones computed in fresh memory, and the encoder answers the same; a
// Table.Offsets of the wrong length is not used.
func TestNewVocab_Offsets(t *testing.T) {
	rng := rand.New(rand.NewPCG(15, 17))
	for _, name := range tables.Names {
		tab, err := tables.Parse(tables.Embedded(name), true)
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := New(tab, false)
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range []int{len(tab.Lengths) + 1, len(tab.Lengths)} {
			off := make([]uint32, n)
			for i := range off {
				off[i] = rng.Uint32()
			}
			withOff := *tab
			withOff.Offsets = off
			e, err := New(&withOff, false)
			if err != nil {
				t.Fatalf("%s: %v", name, err)
			}
			if !slices.Equal(e.off, fresh.off) {
				t.Fatalf("%s: the offsets differ", name)
			}
			if reused := &e.off[0] == &off[0]; reused != (n == len(tab.Lengths)+1) {
				t.Fatalf("%s: %d words given, used: %v", name, n, reused)
			}
			for range 200 {
				s := RandomText(rng, 1+rng.IntN(500))
				if a, b := fresh.Count(s), e.Count(s); a != b {
					t.Fatalf("%s: %d tokens, %d with the offsets given, for %q", name, a, b, s)
				}
				checkText(t, e, s)
			}
		}
	}
}
