package pretok

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSWAR_Lanes holds atLeast and equal to a byte's own comparison, for
// every seven-bit value in every lane, whatever the other lanes hold.
func TestSWAR_Lanes(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for v := 0; v < 0x80; v++ {
		for lane := 0; lane < 8; lane++ {
			x := rng.Uint64() &^ highs
			x = x&^(0xFF<<(8*lane)) | uint64(v)<<(8*lane)
			for c := 1; c < 0x80; c++ {
				if got := has(atLeast(x, byte(c)), lane); got != (v >= c) {
					t.Fatalf("atLeast(%#x in lane %d, %#x) = %v", v, lane, c, got)
				}
				if got := has(equal(x, byte(c)), lane); got != (v == c) {
					t.Fatalf("equal(%#x in lane %d, %#x) = %v", v, lane, c, got)
				}
			}
		}
	}
	for b := 0; b < 256; b++ {
		w := uint64(b) << 24
		if got := has(lowerLanes(w), 3); got != (asciiLetter[b] == 1) {
			t.Fatalf("lowerLanes(%#x) = %v", b, got)
		}
	}
}

// TestSWAR_Windows holds the scanners to their patterns on random texts
// made of the characters whose classes the eight-byte window tells apart
// (and some it must leave to the general path), at every offset of a
// window: what the fuzzer may take long to reach.
func TestSWAR_Windows(t *testing.T) {
	alphabet := []string{"a", "z", "q", "A", "Z", "M", "0", "9", "5", " ", " ", "\t", "\n", "\r", "\v", "\f",
		"/", "'", "(", ".", "_", "@", "`", "[", "{", "~", "\x7f", "\x1f", "é", "É", "٣", "\u00a0", "\u0085", "ſ", "\u0301", "\xff", "你",
		// non-ASCII whose low seven bits are a digit, a space, CR, LF, '/', an apostrophe or a letter
		// (alone, a continuation byte is invalid UTF-8, which splits like U+FFFD)
		"°", "·", "Ċ", "č", "į", "§", "Ā", "ǁ", "ā", "\xb7", "\x8a", "\x8d", "\xa0", "\xaf", "\xa7", "\xe1", "\xf3"}
	words := []string{"hello", "World", "HTTPServer", "ABCDEFGHIJ", "abcdefghijklmnopqrstu", "Supercalifragilistic", "xY",
		"         ", "\n\t\t\t\t\t\t\t\t", " \r\n  \n   ", "--------------", "})}])\n\n", "12345678901", "don't", "ISN'T",
		"naïve", "über", "\"key\": ", "<p>", "//", "/*", "*/\n/",
		// contractions, and runs longer than the window for GPT-2's digits and symbols
		"it's", "'S", "'ll", " 'd", "''", " 1234567890", "...........", "\t\tfoo", " \n\n"}
	rng := rand.New(rand.NewPCG(3, 4))
	n := 4000
	if testing.Short() {
		n = 500
	}
	for k := 0; k < n; k++ {
		var b strings.Builder
		size := 8 + rng.IntN(32)
		for b.Len() < size {
			if rng.IntN(3) == 0 {
				b.WriteString(words[rng.IntN(len(words))])
			} else if rng.IntN(2) == 0 {
				b.WriteString(alphabet[rng.IntN(len(alphabet))])
			} else {
				// mostly ASCII letters, runs of spaces and punctuation
				b.WriteString(alphabet[rng.IntN(16)])
			}
		}
		checkSplit(t, b.String())
	}
}

// TestSWAR_BatchesOnTestdata holds the batch scanners to their one-piece
// scanners on every text of the repository's testdata (the corpus of many
// scripts, code and markup, the test vectors, the hostile inputs), each
// file whole: real text's mix of pieces, which the random windows above
// draw only from their alphabet.
func TestSWAR_BatchesOnTestdata(t *testing.T) {
	files, err := filepath.Glob("../../../testdata/*/*")
	if err != nil || len(files) == 0 {
		t.Fatalf("no testdata (%v)", err)
	}
	for _, f := range files {
		data, err := os.ReadFile(f)
		if err != nil {
			continue // a directory
		}
		s := string(data)
		for _, b := range batches {
			var want []int // split's checks validate the whole text a piece
			for i := 0; i < len(s); i = want[len(want)-1] {
				want = append(want, b.next(s, i))
			}
			for _, size := range []int{1, 3, 256} {
				if got := splitBatched(b.pieces, s, size); !equalInts(got, want) {
					k := 0
					for k < min(len(got), len(want)) && got[k] == want[k] {
						k++
					}
					t.Fatalf("%s: %sPieces in batches of %d differs from %s at piece %d (offset %d)", f, b.name, size, b.name, k, want[max(k-1, 0)])
				}
			}
		}
	}
}
