package hf

import (
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
)

// leftmostLongest is the rule as tokenizers.js's DictionarySplitter
// applies it, a trie walk from every position: the first position where a
// token starts, the longest token there. O(n·longest).
func leftmostLongest(tokens map[string]uint32, text string, i int) (start, end int, id uint32) {
	for ; i < len(text); i++ {
		best := 0
		for t := range tokens {
			if len(t) > best && strings.HasPrefix(text[i:], t) {
				best = len(t)
			}
		}
		if best > 0 {
			return i, i + best, tokens[text[i:i+best]]
		}
	}
	return len(text), len(text), 0
}

func buildSet(texts []string) (*addedSet, map[string]uint32) {
	s := new(addedSet)
	want := map[string]uint32{}
	for i, t := range texts {
		s.add(t, t, uint32(i))
		want[t] = uint32(i) // a text added again takes the later id
	}
	s.build()
	return s, want
}

// TestAdded_LeftmostLongest holds the automaton to the rule on random sets
// of tokens over three letters (prefixes, suffixes and infixes of one
// another, texts listed twice) and random texts, each scanned in windows
// of a few bytes as well as whole.
func TestAdded_LeftmostLongest(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	word := func(n int) string {
		b := make([]byte, n)
		for i := range b {
			b[i] = "abc"[rng.IntN(3)]
		}
		return string(b)
	}
	for round := range 2000 {
		var texts []string
		for range 1 + rng.IntN(12) {
			texts = append(texts, word(1+rng.IntN(6)))
		}
		s, want := buildSet(texts)
		text := word(rng.IntN(120))
		hits := []addedHit(nil)
		a := s.scan(text, hits)
		for i := 0; i < len(text); {
			gs, ge, gid := a.next()
			ws, we, wid := leftmostLongest(want, text, i)
			if gs != ws || ge != we || gid != wid {
				t.Fatalf("round %d: tokens %q, text %q at %d: got %d-%d id %d, want %d-%d id %d", round, texts, text, i, gs, ge, gid, ws, we, wid)
			}
			i = ge
		}
	}
}

// TestAdded_Windows: a text longer than the window, with tokens across its
// edges and longer than it.
func TestAdded_Windows(t *testing.T) {
	long := strings.Repeat("ab", addedWindow) + "c"
	s, want := buildSet([]string{"ba", "ab", "abab", long, "cab", "b"})
	for _, text := range []string{
		strings.Repeat("ab", 3*addedWindow),
		strings.Repeat("ab", addedWindow) + long + "cab" + strings.Repeat("b", addedWindow+1),
		strings.Repeat("x", addedWindow-1) + "abab" + strings.Repeat("x", addedWindow-3) + "ba",
	} {
		a := s.scan(text, nil)
		for i := 0; i < len(text); {
			gs, ge, gid := a.next()
			ws, we, wid := leftmostLongest(want, text, i)
			if gs != ws || ge != we || gid != wid {
				t.Fatalf("text of %d bytes at %d: got %d-%d id %d, want %d-%d id %d", len(text), i, gs, ge, gid, ws, we, wid)
			}
			i = ge
		}
	}
}

// addedRepro is the issue's: one added token "a"×20000+"b", counted
// against 100 KB of "a" (tokenizers.js took 41 s; walking a trie from each
// position, as it does and this package did, 2·10⁹ steps). Scaled 64×
// down unless TOKENFIT_HUGE=1.
func addedRepro() (token, text string) {
	scale := 64
	if os.Getenv("TOKENFIT_HUGE") == "1" {
		scale = 1
	}
	return strings.Repeat("a", 20000/scale) + "b", strings.Repeat("a", 100000/scale)
}

// TestAdded_Linear: counting a text against an added token 16 times longer
// costs at most 4 times as much (a trie walk from every position: 16
// times). The measure is a ratio of benchmark times, both in this run.
func TestAdded_Linear(t *testing.T) {
	if testing.Short() {
		t.Skip("benchmarks")
	}
	text := strings.Repeat("a", 20000)
	model := func(n int) *Model {
		m, err := Load("repro", []byte(strings.Replace(small("", ""), `"content":"<|x|>"`, `"content":"`+strings.Repeat("a", n)+`b"`, 1)))
		if err != nil {
			t.Fatal(err)
		}
		return m
	}
	short, long := model(256), model(4096)
	ratio := 0.0
	for try := range 3 {
		bs := testing.Benchmark(func(b *testing.B) {
			for range b.N {
				short.Count(text)
			}
		})
		bl := testing.Benchmark(func(b *testing.B) {
			for range b.N {
				long.Count(text)
			}
		})
		ratio = float64(bl.NsPerOp()) / float64(bs.NsPerOp())
		t.Logf("try %d: %d ns with a 257-byte token, %d ns with a 4097-byte one (%.2f×)", try, bs.NsPerOp(), bl.NsPerOp(), ratio)
		if ratio <= 4 {
			return
		}
	}
	t.Errorf("a 16 times longer token costs %.1f times as much", ratio)
}

// TestAdded_Repro counts the repro as tokenizers.js does: the
// token never matches.
func TestAdded_Repro(t *testing.T) {
	token, text := addedRepro()
	m, err := Load("repro", []byte(strings.Replace(small("", ""), `"content":"<|x|>"`, `"content":"`+token+`"`, 1)))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := m.Count(text), m.Count(text+"x")-1; got != want || got == 0 {
		t.Errorf("%d tokens, want %d", got, want)
	}
	if ids := m.AppendEncode(nil, text[:len(text)-1]+token); ids[len(ids)-1] != 259 {
		t.Errorf("the token at the end: %v", ids[len(ids)-4:])
	}
}

// TestAdded_Memory: the automaton of 4,096 added tokens of 130 random bytes
// (65,536 in make test-long) takes at most 16 bytes per byte of token
// (a trie whose edges were a hash table: about 90).
func TestAdded_Memory(t *testing.T) {
	n := 4096
	if os.Getenv("TOKENFIT_HUGE") == "1" {
		n = 65536
	}
	rng := rand.New(rand.NewPCG(9, 10))
	texts := make([]string, n)
	size := 0
	for i := range texts {
		b := make([]byte, 120+rng.IntN(21))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		texts[i] = string(b)
		size += len(b)
	}
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	s := new(addedSet)
	for i, text := range texts {
		s.add(text, text, uint32(i))
	}
	s.build()
	runtime.GC()
	runtime.ReadMemStats(&after)
	per := float64(after.HeapAlloc-before.HeapAlloc) / float64(size)
	t.Logf("%d tokens, %d bytes: %.1f bytes per byte", n, size, per)
	if per > 16 {
		t.Errorf("%.1f bytes per byte of token", per)
	}
	runtime.KeepAlive(s)
}
