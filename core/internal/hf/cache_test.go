package hf

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/randtext"
)

// TestTextCache_Budget: a cache over its budget drops entries to make room,
// never holds more than the budget, and gives back only what was put for
// the same text.
func TestTextCache_Budget(t *testing.T) {
	c := newTextCache(6, 2000)
	for i := range 5000 {
		s := strings.Repeat("x", i%50) + strconv.Itoa(i%300)
		set, ids, ok := c.get(s)
		if ok && !slices.Equal(ids, []uint32{uint32(i % 300), uint32(len(s))}) {
			t.Fatalf("%q gave %v", s, ids)
		}
		if !ok {
			c.put(set, s, []uint32{uint32(i % 300), uint32(len(s))})
		}
		if h := c.held.Load(); h > c.budget || h < 0 {
			t.Fatalf("holds %d bytes, budget %d", h, c.budget)
		}
	}
	var sum int64
	for i := range c.slots {
		if e := c.slots[i].Load(); e != nil {
			sum += e.size()
		}
	}
	if sum != c.held.Load() || sum == 0 {
		t.Fatalf("entries hold %d bytes, counted %d", sum, c.held.Load())
	}
}

// TestSections_Cached: sections counted again come from the section cache
// (one small enough to drop entries all the time, too) with the tokens a
// model with fresh caches gives.
func TestSections_Cached(t *testing.T) {
	texts := strings.Split(benchCorpus(t), "\n")
	rng := rand.New(rand.NewPCG(7, 14))
	for range 500 {
		texts = append(texts, randtext.Text(rng, []int{10, 100, 1000}[rng.IntN(3)]))
	}
	for _, m := range spFamilies(t) {
		small := *m
		small.sections = newTextCache(4, 4096)
		for _, text := range texts {
			fresh := *m
			fresh.cache, fresh.sections = newPieceCache(), newSectionCache()
			want := fresh.AppendEncode(nil, text)
			for _, x := range []*Model{m, m, &small, &small} {
				if got := x.AppendEncode(nil, text); !slices.Equal(got, want) {
					t.Fatalf("%s: %.60q encodes as %v, with fresh caches as %v", m.Name, text, got, want)
				}
			}
		}
	}
}
