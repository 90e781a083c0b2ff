package engine

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/internal/tokenvectors"
)

// streamCount counts text written in parts of the sizes in parts (cycled),
// splitting whenever chunk bytes are held, and checks after each part that
// what was counted is whole pieces of the text. It returns the count and
// the most bytes held.
func streamCount(t *testing.T, e *Encoding, text string, chunk int, parts ...int) (int, int) {
	t.Helper()
	p := piecesOf(e, text)
	s := e.NewStreamCounter()
	s.chunk, s.next = chunk, chunk
	maxHeld := 0
	for i, k := 0, 0; i < len(text); k++ {
		n := min(len(text)-i, parts[k%len(parts)])
		s.Write([]byte(text[i : i+n]))
		maxHeld = max(maxHeld, s.Held())
		i += n
		p.check(t, s, i)
	}
	return s.Count(), maxHeld
}

// pieces are the pieces of a whole text: where each ends, and the tokens
// up to there.
type pieces struct {
	e          *Encoding
	text       string
	ends, sums []int
	valid      int // text[:valid] is UTF-8
}

func piecesOf(e *Encoding, text string) *pieces {
	p := &pieces{e: e, text: text, ends: []int{0}, sums: []int{0}, valid: len(text)}
	for i, r := range text {
		if r == utf8.RuneError && !strings.HasPrefix(text[i:], "\uFFFD") {
			p.valid = i
			break
		}
	}
	v := ValidUTF8(text)
	for i := 0; i < len(v); {
		j := e.enc.Next(v, i)
		p.ends = append(p.ends, j)
		p.sums = append(p.sums, p.sums[len(p.sums)-1]+e.enc.CountPiece(v[i:j]))
		i = j
	}
	return p
}

// check fails unless what s counted, after written bytes of the text, ends
// where a piece of the whole text ends and has its tokens up to there.
// (Pieces, not counts alone: a wrong piece often has as many tokens.)
func (p *pieces) check(t *testing.T, s *StreamCounter, written int) {
	t.Helper()
	k, ok := slices.BinarySearch(p.sums, s.total)
	if written <= p.valid {
		done := written - s.Held()
		k, ok = slices.BinarySearch(p.ends, done)
		ok = ok && p.sums[k] == s.total
	}
	if !ok {
		t.Fatalf("%s: %q after %d bytes: counted %d tokens of %d bytes, not whole pieces of the text", p.e.Name(), p.text, written, s.total, written-s.Held())
	}
}

// TestStream_Vectors: streamed, every shared vector (texts, repeats, the
// corpus files) counts as the official tiktoken counts it, with parts and
// chunks small enough that nearly every place to split is used.
func TestStream_Vectors(t *testing.T) {
	cases, err := tokenvectors.Load("../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		text := c.Text
		for name, want := range c.Counts {
			e, err := Get(name)
			if err != nil {
				t.Fatal(err)
			}
			for _, p := range [][]int{{1}, {3, 5, 7}, {4096}} {
				if p[0] == 1 && len(text) > 4096 {
					continue // a byte at a time: the short texts are enough
				}
				if n, _ := streamCount(t, e, text, 64, p...); n != want {
					t.Errorf("%s: %.40q (%d bytes) in parts of %v: %d tokens, tiktoken %d", name, text, len(text), p, n, want)
				}
			}
		}
	}
}

// adversarial texts: where a wrong place to split would show.
var adversarial = []string{
	"Hello world, this is a test.\r\n\r\nNew paragraph\n",
	"word" + strings.Repeat(" ", 40) + "next" + strings.Repeat("\t ", 20) + "x\n",
	"abc" + strings.Repeat("1234567890", 5) + "def 12345 6789,0.5e10",
	"line one\r\nline two\r\n\r\n  indented\r\n\n\n\tend\r",
	"e\u0301\u0301te\u0300 cafe\u0301s na\u0308ive Z\u0351\u0324a\u0308lgo",
	"family 👨\u200d👩\u200d👧\u200d👦 and 🏳\ufe0f\u200d🌈 flags 👍🏽 x",
	"it's they're we'VE I'm you'll he'd 'S O'Neil rock'n'roll don't",
	"{\"a\":1,\"b\":[true,null],\"c\":\"x y\"}\n<div class=\"k\">a&amp;b</div>",
	"日本語のテキスト、句読点。中文文本，标点！한국어 텍스트.",
	"mixed ĀĒĪŌŪ ÀÉÎÕÜ ßẞ ǅǈ ᾈ x\u00a0y\u2003z\u3000w",
	"path/to/file.go:12:3: a//b///c\n/usr/bin/env a/b",
	"\x80\xff bytes \xe2\x82 broken \xf0\x9f\x98 tail x\xc3",
	"CAPS WORDS HTTPServer XMLHttpRequest iPhone eBay ABCdef",
	"   leading spaces and trailing   ",
	// A whitespace piece ends after the run's last CR or LF, however far.
	"a\n" + strings.Repeat(" ", 40) + "\n\n" + strings.Repeat(" ", 40) + "b",
	"x.\r\n" + strings.Repeat("\t", 30) + "\r\n" + strings.Repeat("\u3000", 20) + "\ny",
	// o200k_base: an upper-case run gives back to its last letter that is
	// also lower case (ʰ, Lm), unless a lower-case letter follows the run.
	"ABCʰ" + strings.Repeat("DEFGH", 8) + "abc ABCʰ" + strings.Repeat("DEFGH", 8) + ".",
	strings.Repeat("9", 50) + "x" + strings.Repeat("12", 25) + strings.Repeat("٣", 20),
	"1,234,567.89 $12.50 100% 3.14159 2024-01-31T12:00:00Z",
}

// TestStream_EveryEdge: each adversarial text, written in two parts cut at
// every byte and split at the first chance, counts as Count does (Count
// answers tiktoken: TestEngine_Vectors, bpe's oracle tests).
func TestStream_EveryEdge(t *testing.T) {
	for _, name := range Names() {
		e, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range adversarial {
			want, p := e.Count(text), piecesOf(e, text)
			for k := 0; k <= len(text); k++ {
				s := e.NewStreamCounter()
				s.chunk, s.next = 1, 1
				s.Write([]byte(text[:k]))
				p.check(t, s, k)
				s.Write([]byte(text[k:]))
				p.check(t, s, len(text))
				if n := s.Count(); n != want {
					t.Errorf("%s: %q cut at %d: %d tokens, want %d", name, text, k, n, want)
				}
			}
			for _, p := range [][]int{{1}, {2, 3}, {5}} {
				if n, _ := streamCount(t, e, text, 1, p...); n != want {
					t.Errorf("%s: %q in parts of %v: %d tokens, want %d", name, text, p, n, want)
				}
			}
		}
	}
}

// TestStream_Bounded: a long text is held a chunk and a piece at a time,
// and a stretch with no place to split is held whole.
func TestStream_Bounded(t *testing.T) {
	e, err := Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	text := strings.Repeat(strings.Join(adversarial, " "), 200)
	if n, held := streamCount(t, e, text, 4096, 1000); n != e.Count(text) || held > 3*4096 {
		t.Errorf("prose: %d tokens, want %d; held %d bytes", n, e.Count(text), held)
	}
	one := strings.Repeat("a", 50000)
	if n, held := streamCount(t, e, one, 4096, 1000); n != e.Count(one) || held != len(one) {
		t.Errorf("one letter: %d tokens, want %d; held %d bytes", n, e.Count(one), held)
	}
}

// FuzzStream: any bytes, in any parts, count as Count does.
func FuzzStream(f *testing.F) {
	for _, s := range adversarial {
		f.Add(s, uint64(1))
	}
	f.Fuzz(func(t *testing.T, text string, seed uint64) {
		r := rand.New(rand.NewPCG(seed, 0))
		for _, name := range Names() {
			e, err := Get(name)
			if err != nil {
				t.Fatal(err)
			}
			s := e.NewStreamCounter()
			s.chunk, s.next = 1+r.IntN(32), 1
			for i := 0; i < len(text); {
				n := min(len(text)-i, 1+r.IntN(8))
				s.Write([]byte(text[i : i+n]))
				i += n
			}
			if n, want := s.Count(), e.Count(text); n != want {
				t.Fatalf("%s: %q: %d tokens, want %d", name, text, n, want)
			}
		}
	})
}

// TestStream_RandomAlphabet: random strings over the characters that
// decide pieces (letters of each case, marks, digits, apostrophes, every
// kind of space and newline, symbols, emoji parts, bytes that are not
// UTF-8) count as Count does, streamed a byte at a time.
func TestStream_RandomAlphabet(t *testing.T) {
	alphabet := []string{"a", "Z", "é", "\u0301", "ǅ", "ʼ", "漢", "1", "٣", "'", "s", "S", "ll", " ", "  ", "\t", "\r", "\n", "\u00a0", "\u3000",
		".", "/", "\"", "👍", "\u200d", "\ufe0f", "\x80", "\xe2\x82", "\xf0\x9f",
		// Runs longer than the look-ahead of a place to split.
		strings.Repeat(" ", 20), strings.Repeat("\t", 17), strings.Repeat("ABCDE", 4), strings.Repeat("7", 20), strings.Repeat("!", 20)}
	r := rand.New(rand.NewPCG(1, 2))
	for _, name := range Names() {
		e, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for range 1000 {
			var b strings.Builder
			for range 1 + r.IntN(120) {
				b.WriteString(alphabet[r.IntN(len(alphabet))])
			}
			text := b.String()
			if n, _ := streamCount(t, e, text, 1+r.IntN(24), 1+r.IntN(5)); n != e.Count(text) {
				t.Fatalf("%s: %q: %d tokens, want %d (valid UTF-8: %v)", name, text, n, e.Count(text), utf8.ValidString(text))
			}
		}
	}
}

// TestStream_StopAbove: with a limit, a streamed text answers as
// WithinLimit answers the whole text (the same count where it stops, the
// same verdict) at every limit around its count, in any parts and chunks,
// and stops holding text once the limit is passed.
func TestStream_StopAbove(t *testing.T) {
	texts := append(slices.Clone(adversarial), strings.Repeat(strings.Join(adversarial, " "), 20))
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range Names() {
		e, err := Get(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			total := e.Count(text)
			for _, limit := range []int{-1, 0, 1, 2, 3, total / 3, total / 2, total - 1, total, total + 1, total * 2} {
				want, wantOK := e.WithinLimit(text, limit)
				for _, parts := range []int{1, 7, 4096} {
					s := e.NewStreamCounter()
					s.StopAbove(limit)
					if r.IntN(2) == 0 {
						s.chunk, s.next = 1+r.IntN(64), 1
					}
					for i := 0; i < len(text); {
						n := min(len(text)-i, parts)
						s.Write([]byte(text[i : i+n]))
						i += n
						if s.Over() && s.Held() != 0 {
							t.Fatalf("%s: over the limit, still holding %d bytes", name, s.Held())
						}
					}
					if n := s.Count(); n != want || (n <= limit) != wantOK || (s.Over() && wantOK) {
						t.Errorf("%s: %.40q limit %d in parts of %d: %d (over %v), WithinLimit %d, %v", name, text, limit, parts, n, s.Over(), want, wantOK)
					}
				}
			}
		}
	}
}
