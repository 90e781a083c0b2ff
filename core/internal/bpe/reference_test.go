package bpe

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/tables"
	"github.com/tokenfit/tokenfit/internal/oracle"
)

// The engine against the reference tables: byte-pair encoding done the
// plainest way (tiktoken's byte_pair_merge: merge the adjacent pair whose
// bytes have the lowest rank, leftmost first, until no pair is a token),
// over a Go map built from the table's ranks. Whatever the engine does to
// be fast (whole-piece look-ups, the three merge strategies for short,
// bucketed and long pieces, the piece cache), its ranks must be these.

type refVocab struct {
	ranks map[string]uint32
}

var (
	refOnce sync.Once
	refs    map[string]*refVocab
)

func loadRefs(t testing.TB) map[string]*refVocab {
	refOnce.Do(func() {
		refs = map[string]*refVocab{}
		for _, name := range tables.Names {
			tab, err := tables.Parse(tables.Embedded(name), true)
			if err != nil {
				panic(err)
			}
			r := &refVocab{ranks: make(map[string]uint32, len(tab.Lengths))}
			off := 0
			for rank, l := range tab.Lengths {
				if l > 0 {
					r.ranks[string(tab.Bytes[off:off+int(l)])] = uint32(rank)
				}
				off += int(l)
			}
			refs[name] = r
		}
	})
	return refs
}

// encodePiece is tiktoken's byte_pair_merge on one piece: the ranks of the
// pairs kept beside the boundaries, the lowest found by a linear scan (the
// leftmost on a tie), its neighbours' ranks recomputed. O(k²) comparisons.
func (r *refVocab) encodePiece(t *testing.T, p string) []uint32 {
	if rank, ok := r.ranks[p]; ok {
		return []uint32{rank}
	}
	const none = uint32(1<<32 - 1)
	type part struct {
		start int
		rank  uint32 // of p[start : the start after the next part's]
	}
	parts := make([]part, 0, len(p)+1)
	for i := 0; i <= len(p); i++ {
		parts = append(parts, part{i, none})
	}
	pairRank := func(i int) uint32 {
		if i+2 >= len(parts) {
			return none
		}
		if rank, ok := r.ranks[p[parts[i].start:parts[i+2].start]]; ok {
			return rank
		}
		return none
	}
	for i := range parts {
		parts[i].rank = pairRank(i)
	}
	for len(parts) > 2 {
		best, at := none, -1
		for i := 0; i+1 < len(parts); i++ {
			if parts[i].rank < best {
				best, at = parts[i].rank, i
			}
		}
		if at < 0 {
			break
		}
		parts = append(parts[:at+1], parts[at+2:]...)
		parts[at].rank = pairRank(at)
		if at > 0 {
			parts[at-1].rank = pairRank(at - 1)
		}
	}
	out := make([]uint32, 0, len(parts)-1)
	for i := 0; i+1 < len(parts); i++ {
		rank, ok := r.ranks[p[parts[i].start:parts[i+1].start]]
		if !ok {
			t.Fatalf("%q: part %q is not a token (every byte is one)", p, p[parts[i].start:parts[i+1].start])
		}
		out = append(out, rank)
	}
	return out
}

// checkReference compares the engine's ranks, count and per-piece counts
// with the reference on s.
func checkReference(t *testing.T, s string) {
	for _, name := range tables.Names {
		e, ref := loadEncoders(t)[name], loadRefs(t)[name]
		var want []uint32
		for i := 0; i < len(s); {
			j := e.Next(s, i)
			p := s[i:j]
			w := ref.encodePiece(t, p)
			if n := e.CountPiece(p); n != len(w) {
				t.Fatalf("%s: CountPiece(%q) = %d, reference %d tokens", name, p, n, len(w))
			}
			want = append(want, w...)
			i = j
		}
		got := e.AppendEncode(nil, s)
		if len(got) != len(want) || e.Count(s) != len(want) {
			t.Fatalf("%s: %q: engine %d tokens (count %d), reference %d", name, s, len(got), e.Count(s), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("%s: %q: token %d is %d, reference %d\n engine %v\n    ref %v", name, s, i, got[i], want[i], got, want)
			}
		}
	}
}

// FuzzReference holds the engine to the plain reference on any text, valid
// UTF-8 or not. Texts over 2 KB are cut: the reference is quadratic per
// piece, and pieces past 48 bytes already take the long-piece merges.
func FuzzReference(f *testing.F) {
	for _, s := range []string{
		"", "Hello world", "  \n\t x", "I'm 'S", "a\xffb\xc3", "你好😀", "\u0301x", strings.Repeat("ab", 40),
		strings.Repeat("a", 1500), strings.Repeat("漢字", 200), strings.Repeat("🙂", 100), "antidisestablishmentarianism",
		strings.Repeat("\xe2\x80", 70), strings.Repeat("=-", 120), "https://example.com/a/b?c=d&e=f#g",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if len(s) > 2<<10 {
			s = s[:2<<10]
		}
		checkReference(t, s)
	})
}

// TestReference_Corpus runs the reference over pieces of every length the
// merge strategies switch at, on random text and on long single pieces.
func TestReference_Corpus(t *testing.T) {
	texts := []string{strings.Repeat("a", 1000), strings.Repeat("漢", 400), strings.Repeat("ab", 700), strings.Repeat("\xff", 300)}
	for n := 1; n <= 200; n += 7 {
		texts = append(texts, strings.Repeat("x", n), strings.Repeat("é", n), strings.Repeat("🙂", n/4+1))
	}
	for i, s := range texts {
		if !utf8.ValidString(s) && i > 3 {
			continue
		}
		checkReference(t, s)
	}
}

var (
	fuzzOracleOnce sync.Once
	fuzzOracle     *oracle.Process
	fuzzOracleErr  error
)

// FuzzOracle holds the engine to the official tiktoken (in Node, through
// the oracle) on valid UTF-8 texts. It skips when Node or js/node_modules
// is missing; the oracle process lives as long as the fuzzing worker.
func FuzzOracle(f *testing.F) {
	for _, s := range []string{"Hello world", "  \n\t x", "I'm 'S they're", "你好😀", "\u0301x", " \u0301", "a\n\n b", "x\n \n\ty", "٣٤٥٦ 12345"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		if !utf8.ValidString(s) {
			return // JSON would carry U+FFFD in its place: not the same text
		}
		fuzzOracleOnce.Do(func() { fuzzOracle, fuzzOracleErr = startTiktoken() })
		if fuzzOracleErr != nil {
			t.Skip(fuzzOracleErr)
		}
		for _, name := range tables.Names {
			want, err := fuzzOracle.Encode(name, []string{s})
			if err != nil {
				t.Fatal(err)
			}
			e := loadEncoders(t)[name]
			// countBatched: Count's loop in WebAssembly builds.
			if got := e.AppendEncode(nil, s); !oracle.EqualIDs(got, want[0]) || e.Count(s) != len(want[0]) || e.countBatched(s) != len(want[0]) {
				t.Fatalf("%s: %s", name, oracle.Describe(e, s, got, want[0]))
			}
		}
	})
}
