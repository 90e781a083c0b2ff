package bpe

import (
	"math/rand/v2"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// Properties of the engine that hold for any input, valid UTF-8 or not.

func checkText(t *testing.T, e *Encoder, s string) {
	t.Helper()
	ranks := e.AppendEncode(nil, s)
	if n := e.Count(s); n != len(ranks) {
		t.Fatalf("%s: Count %d, Encode %d tokens for %q", e.Name, n, len(ranks), s)
	}
	// Count's loop for WebAssembly builds, natively too.
	if n := e.countBatched(s); n != len(ranks) {
		t.Fatalf("%s: countBatched %d, Encode %d tokens for %q", e.Name, n, len(ranks), s)
	}
	ids := make([]int, len(ranks))
	for i, r := range ranks {
		ids[i] = int(r)
	}
	back, err := e.AppendDecode(nil, ids)
	if err != nil || string(back) != s {
		t.Fatalf("%s: decode(encode(%q)) = %q, %v", e.Name, s, back, err)
	}
	// Pieces cover the text, in order, each non-empty.
	for i := 0; i < len(s); {
		j := e.Next(s, i)
		if j <= i || j > len(s) {
			t.Fatalf("%s: Next(%q, %d) = %d", e.Name, s, i, j)
		}
		i = j
	}
	for _, limit := range []int{0, 1, len(ranks) - 1, len(ranks), len(ranks) + 1} {
		n, ok := e.WithinLimit(s, limit)
		if ok != (len(ranks) <= limit) || (ok && n != len(ranks)) || (!ok && n <= limit) {
			t.Fatalf("%s: WithinLimit(%q, %d) = %d, %v with %d tokens", e.Name, s, limit, n, ok, len(ranks))
		}
		// WithinLimit in WebAssembly builds: the same count where it stops.
		if limit >= 0 {
			if m := e.withinBatched(s, limit); m != n {
				t.Fatalf("%s: withinBatched(%q, %d) = %d, WithinLimit %d", e.Name, s, limit, m, n)
			}
		}
	}
	for _, max := range []int{0, 1, 2, len(ranks) / 2, len(ranks)} {
		for _, end := range []bool{false, true} {
			part, n := e.Truncate(s, max, end)
			if n != e.Count(part) || n > max {
				t.Fatalf("%s: Truncate(%q, %d, %v) = %q with %d tokens (count %d)", e.Name, s, max, end, part, n, e.Count(part))
			}
			if end && !strings.HasSuffix(s, part) || !end && !strings.HasPrefix(s, part) {
				t.Fatalf("%s: Truncate(%q, %d, %v) = %q is not a part of the text", e.Name, s, max, end, part)
			}
			if utf8.ValidString(s) && !utf8.ValidString(part) {
				t.Fatalf("%s: Truncate(%q, %d, %v) = %q cuts a character", e.Name, s, max, end, part)
			}
			if max >= len(ranks) && part != s {
				t.Fatalf("%s: Truncate(%q, %d) dropped text that fits", e.Name, s, max)
			}
		}
	}
}

func FuzzEngine(f *testing.F) {
	for _, s := range []string{"", "Hello world", "  \n\t x", "I'm 'S", "a\xffb\xc3", "你好😀", "\u0301x", strings.Repeat("ab", 40)} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		for _, e := range loadEncoders(t) {
			checkText(t, e, s)
		}
	})
}

// TestEngine_MergesAgree checks the three merge implementations against each
// other on pieces long enough to reach them all.
func TestEngine_MergesAgree(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, e := range loadEncoders(t) {
		var b bucketMerge
		var h bigMerge
		for range 3000 {
			s := RandomText(rng, 60)
			for i := 0; i < len(s); {
				j := e.Next(s, i)
				p := s[i:j]
				i = j
				if len(p) < 2 || len(p) > smallPiece {
					continue
				}
				var buf [smallPiece + 1]part
				small := e.splitSmall(p, &buf)
				if !e.splitBuckets(p, &b) {
					t.Fatalf("%s: %q out of rank order", e.Name, p)
				}
				e.splitBig(p, &h)
				k := 0
				for x := int32(0); int(x) < len(p); x = b.next[x] {
					if int(small[k].start) != int(x) || b.next[x] != h.next[x] {
						t.Fatalf("%s: merges disagree on %q", e.Name, p)
					}
					k++
				}
				if k != len(small)-1 {
					t.Fatalf("%s: merges disagree on %q: %d vs %d tokens", e.Name, p, k, len(small)-1)
				}
			}
		}
	}
}

func TestEngine_Properties(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for _, e := range loadEncoders(t) {
		for range 300 {
			checkText(t, e, RandomText(rng, 1+rng.IntN(300)))
		}
		// Arbitrary bytes, not UTF-8.
		for range 100 {
			b := make([]byte, rng.IntN(64))
			for i := range b {
				b[i] = byte(rng.IntN(256))
			}
			checkText(t, e, string(b))
		}
	}
}

// TestEngine_Decode rejects ranks the encoding does not have, and decodes
// special tokens to their text.
func TestEngine_Decode(t *testing.T) {
	e := loadEncoders(t)["p50k_base"]
	if _, err := e.AppendDecode(nil, []int{1, -1}); err == nil {
		t.Error("decoded -1")
	}
	if b, err := e.AppendDecode(nil, []int{50256}); err != nil || string(b) != "<|endoftext|>" {
		t.Errorf("50256 = %q, %v", b, err)
	}
	if _, err := e.AppendDecode(nil, []int{1 << 40}); err == nil {
		t.Error("decoded 1<<40")
	}
}

// TestEngine_FirstCountDoesNotAllocate: the first count of a fresh encoder,
// built or from an index, allocates nothing either, merges and the piece
// cache included (pieces of up to smallPiece bytes). The wasip1 module loads
// a table with its collector off, so the heap is above the collector's goal
// after a load, and the first allocation afterwards starts a collection:
// when the piece cache was allocated at the first merge, that collection ran
// in every instance's first count (RATIONALE.md, "Why a piece cache").
func TestEngine_FirstCountDoesNotAllocate(t *testing.T) {
	tab, err := tables.Parse(tables.Embedded("o200k_base"), true)
	if err != nil {
		t.Fatal(err)
	}
	built, err := New(tab, false)
	if err != nil {
		t.Fatal(err)
	}
	idx := built.AppendIndex(nil, tab.CRC)
	indexed, err := NewIndexed(tab, idx, false)
	if err != nil {
		t.Fatal(err)
	}
	// Whole tokens short and long, pieces that merge (3 bytes, 5-12, longer).
	const text = "Hello world qzx qzxvbn zzyzx-quux refactorisationally 你好世界 😀 Übergrößenträger"
	for name, e := range map[string]*Encoder{"built": built, "indexed": indexed} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		n := e.Count(text)
		runtime.ReadMemStats(&after)
		if m := after.Mallocs - before.Mallocs; m != 0 {
			t.Errorf("%s: the first count allocated %d times (%d bytes)", name, m, after.TotalAlloc-before.TotalAlloc)
		}
		if e.pieces.table.Load() == nil {
			t.Errorf("%s: no piece cache", name)
		}
		if want := len(e.AppendEncode(nil, text)); n != want {
			t.Errorf("%s: %d tokens, the merge gives %d", name, n, want)
		}
	}
}

func TestEngine_CountDoesNotAllocate(t *testing.T) {
	e := loadEncoders(t)["o200k_base"]
	text := strings.Repeat("The budget calculator prunes history. 你好世界 😀 ", 50) + strings.Repeat("a", 500)
	e.Count(text)
	if n := testing.AllocsPerRun(20, func() { e.Count(text) }); n != 0 {
		t.Errorf("Count allocates %.1f times per call", n)
	}
}
