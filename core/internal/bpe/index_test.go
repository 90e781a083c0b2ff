package bpe

import (
	"math/rand/v2"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// TestIndex_SameAnswers: a vocabulary built from a prebuilt index answers as
// the one that built it.
func TestIndex_SameAnswers(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 9))
	for _, name := range tables.Names {
		tab, err := tables.Parse(tables.Embedded(name), true)
		if err != nil {
			t.Fatal(err)
		}
		built, _ := New(tab, false)
		idx := built.AppendIndex(nil, tab.CRC)
		v, err := NewVocabIndexed(tab, append([]byte(nil), idx...), false)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		fromIndex := &Encoder{Vocab: v}
		for range 500 {
			s := RandomText(rng, 1+rng.IntN(500))
			if a, b := built.Count(s), fromIndex.Count(s); a != b {
				t.Fatalf("%s: %d tokens built, %d from the index, for %q", name, a, b, s)
			}
			checkText(t, fromIndex, s)
		}
		for r := 0; r < size(fromIndex.Vocab); r++ {
			a, okA := built.Token(r)
			b, okB := fromIndex.Token(r)
			if a != b || okA != okB {
				t.Fatalf("%s: token %d differs", name, r)
			}
		}
	}
}

func TestIndex_Rejects(t *testing.T) {
	tab, _ := tables.Parse(tables.Embedded("r50k_base"), true)
	other, _ := tables.Parse(tables.Embedded("p50k_base"), true)
	built, _ := New(tab, false)
	idx := built.AppendIndex(nil, tab.CRC)
	for name, b := range map[string][]byte{
		"empty":         nil,
		"magic":         append([]byte("XXXX"), idx[4:]...),
		"truncated":     idx[:len(idx)/2],
		"another table": idx,
	} {
		target := tab
		if name == "another table" {
			target = other
		}
		if _, err := NewVocabIndexed(target, b, false); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

// size is one past the highest rank, special tokens included.
func size(v *Vocab) int {
	n := len(v.off) - 1
	for r := range v.specials {
		n = max(n, int(r)+1)
	}
	return n
}
