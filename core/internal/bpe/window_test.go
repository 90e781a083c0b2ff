package bpe

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// TestWindow_Exact merges long pieces window by window, with windows made
// small, and checks every token against merging the piece whole.
func TestWindow_Exact(t *testing.T) {
	defer func(w int, c float64) { window, cutAt = w, c }(window, cutAt)
	rng := rand.New(rand.NewPCG(11, 12))
	units := []string{"a", "ab", "abc", "aab", " ", "\\n\\t", "^", "9", "漢", "你好世界", "🙂", "é", "aé", "xyzzy", "ΑΒΓ", "ﷺ"}
	letters := "etaoinshrdlucmfwypvbgkqjxz"
	for name, e := range loadEncoders(t) {
		for trial := range 300 {
			window = 64 + rng.IntN(400)
			cutAt = []float64{0.75, 1, 0.99, 0.5}[trial%4] // late cuts make junctions fail
			var b strings.Builder
			size := 200 + rng.IntN(6000)
			switch trial % 3 {
			case 0: // one unit repeated
				u := units[rng.IntN(len(units))]
				b.WriteString(strings.Repeat(u, size/len(u)+1))
			case 1: // random letters: one long word
				for b.Len() < size {
					b.WriteByte(letters[rng.IntN(len(letters))])
				}
			default: // units mixed
				for b.Len() < size {
					b.WriteString(units[rng.IntN(len(units))])
				}
			}
			p := b.String()
			var got []string
			e.eachToken(p, func(tok string) { got = append(got, tok) })
			var want []string
			saved := window
			window = 1 << 30
			e.eachToken(p, func(tok string) { want = append(want, tok) })
			window = saved
			if strings.Join(got, "|") != strings.Join(want, "|") {
				t.Fatalf("%s, window %d: %d tokens windowed, %d whole, for a %d-byte piece %.40q", name, window, len(got), len(want), len(p), p)
			}
		}
	}
}
