package live

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/bpe"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

func encoder(t testing.TB, name string) *bpe.Encoder {
	tab, err := tables.Parse(tables.Embedded(name), false)
	if err != nil {
		t.Fatal(err)
	}
	e, err := bpe.New(tab, false)
	if err != nil {
		t.Fatal(err)
	}
	return e
}

var fragments = []string{"a", "b", "Z", " ", "  ", "\n", "\r\n", "\t", "'", "'s", "'re", "1", "23", ".", ",", "(", ")",
	"é", "\u0301", "你", "好", "😀", "\u3000", "\u00a0", "HELLO", "world", " the", "<|endoftext|>", "//", "\n\n", "ǅ"}

func randomEdit(rng *rand.Rand, text string) (at, del int, ins string) {
	boundary := func(p int) int {
		for p > 0 && p < len(text) && !utf8.RuneStart(text[p]) {
			p--
		}
		return p
	}
	at = boundary(rng.IntN(len(text) + 1))
	end := boundary(min(len(text), at+rng.IntN(8)))
	if end < at {
		end = at
	}
	var b strings.Builder
	for range rng.IntN(4) {
		b.WriteString(fragments[rng.IntN(len(fragments))])
	}
	return at, end - at, b.String()
}

// TestLive_EqualsFullCount applies random edits and checks the count after
// each against counting the whole text.
func TestLive_EqualsFullCount(t *testing.T) {
	for _, name := range tables.Names {
		e := encoder(t, name)
		rng := rand.New(rand.NewPCG(1, uint64(len(name))))
		for round := range 40 {
			var b strings.Builder
			for range rng.IntN(200) {
				b.WriteString(fragments[rng.IntN(len(fragments))])
			}
			text := b.String()
			c := New(e)
			c.Reset(text)
			if c.Count() != e.Count(text) {
				t.Fatalf("%s: Reset count %d, want %d", name, c.Count(), e.Count(text))
			}
			for step := range 200 {
				at, del, ins := randomEdit(rng, text)
				got := c.Edit(at, del, ins)
				text = text[:at] + ins + text[at+del:]
				if want := e.Count(text); got != want || c.Text() != text {
					t.Fatalf("%s round %d step %d: Edit(%d, %d, %q) → %d, want %d\ntext %q", name, round, step, at, del, ins, got, want, text)
				}
			}
		}
	}
}

func BenchmarkLive_Keystroke(b *testing.B) {
	e := encoder(b, "o200k_base")
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("The budget calculator prunes the oldest turns first, keeping tool calls with their results. ")
	}
	c := New(e)
	c.Reset(sb.String())
	mid := c.Len() / 2
	b.ResetTimer()
	for i := range b.N {
		if i%2 == 0 {
			c.Edit(mid, 0, "x")
		} else {
			c.Edit(mid, 1, "")
		}
	}
}

// TestLive_LongTexts edits texts whose runs are long: whitespace blocks,
// one-letter runs, CJK without spaces, and code.
func TestLive_LongTexts(t *testing.T) {
	units := []string{"    ", "\n", "a", "漢字", "\t\n", "func f() {\n\treturn x\n}\n", "word ", "!!", "😀"}
	for _, name := range tables.Names {
		e := encoder(t, name)
		rng := rand.New(rand.NewPCG(2, uint64(len(name))))
		for range 30 {
			var b strings.Builder
			for b.Len() < 3000 {
				b.WriteString(strings.Repeat(units[rng.IntN(len(units))], 1+rng.IntN(60)))
			}
			text := b.String()
			c := New(e)
			c.Reset(text)
			for range 100 {
				at, del, ins := randomEdit(rng, text)
				got := c.Edit(at, del, ins)
				text = text[:at] + ins + text[at+del:]
				if want := e.Count(text); got != want {
					t.Fatalf("%s: Edit(%d, %d, %q) → %d, want %d", name, at, del, ins, got, want)
				}
			}
		}
	}
}

func TestLive_ByteOffset(t *testing.T) {
	c := New(encoder(t, "o200k_base"))
	c.Reset("aé😀b")
	for _, tc := range []struct {
		u, b int
		ok   bool
	}{{0, 0, true}, {1, 1, true}, {2, 3, true}, {3, 0, false}, {4, 7, true}, {5, 8, true}, {6, 0, false}, {-1, 0, false}} {
		b, ok := c.ByteOffset(tc.u)
		if ok != tc.ok || ok && b != tc.b {
			t.Errorf("ByteOffset(%d) = %d, %v; want %d, %v", tc.u, b, ok, tc.b, tc.ok)
		}
	}
	if c.Len16() != 5 {
		t.Errorf("Len16 = %d", c.Len16())
	}
}

func BenchmarkLive_Reset(b *testing.B) {
	e := encoder(b, "o200k_base")
	var sb strings.Builder
	for sb.Len() < 1<<20 {
		sb.WriteString("The budget calculator prunes the oldest turns first, keeping tool calls with their results. 你好世界 ")
	}
	text := sb.String()
	c := New(e)
	b.SetBytes(int64(len(text)))
	for b.Loop() {
		c.Reset(text)
	}
}
