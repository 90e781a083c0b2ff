package pretok

import (
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/dlclark/regexp2/v2"
)

// The scanners against the official patterns run by a backtracking regular
// expression engine (regexp2, which tiktoken-go also uses, interpreted here
// from the pattern text rather than through tiktoken-go's generated code).
// regexp2 knows Unicode as Go's unicode package does (15.0), the scanners
// as the official tiktoken does (16.0): a text holding a character whose
// classes differ between the two is outside the oracle's reach and only the
// structural properties are checked on it.

var patterns = []struct {
	name string
	next Next
	re   string
}{
	{"gpt2", GPT2, `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`},
	{"cl100k", Cl100k, `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
	{"o200k", O200k, `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|` +
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|` +
		`\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
	// O200k's eight-byte window, which only WebAssembly builds use.
	{"o200k-window", o200kWindow, `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|` +
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|` +
		`\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
	{"tekken", Tekken, `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|` +
		`[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|` +
		`\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`},
}

var (
	oracleOnce sync.Once
	oracles    []*regexp2.Regexp
	classRes   []struct {
		bit uint8
		re  *regexp2.Regexp
	}
	classMu    sync.Mutex
	classAgree = map[rune]bool{}
)

func initOracles() {
	oracleOnce.Do(func() {
		for _, p := range patterns {
			oracles = append(oracles, regexp2.MustCompile(p.re, regexp2.Unicode))
		}
		for _, c := range []struct {
			bit uint8
			re  string
		}{
			{letter, `^\p{L}$`}, {number, `^\p{N}$`}, {space, `^\s$`},
			{upper, `^[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]$`}, {lower, `^[\p{Ll}\p{Lm}\p{Lo}\p{M}]$`},
		} {
			classRes = append(classRes, struct {
				bit uint8
				re  *regexp2.Regexp
			}{c.bit, regexp2.MustCompile(c.re, regexp2.Unicode)})
		}
	})
}

// sameClasses reports whether regexp2 and the scanners' tables class every
// character of s alike.
func sameClasses(s string) bool {
	classMu.Lock()
	defer classMu.Unlock()
	for i := 0; i < len(s); {
		r, n := utf8.DecodeRuneInString(s[i:])
		i += n
		ok, seen := classAgree[r]
		if !seen {
			c := lookup(r)
			ok = true
			for _, cr := range classRes {
				m, _ := cr.re.MatchString(string(r))
				if m != (c&cr.bit != 0) {
					ok = false
				}
			}
			classAgree[r] = ok
		}
		if !ok {
			return false
		}
	}
	return true
}

// splitRegexp returns the ends of the pieces the pattern finds, as byte
// offsets. regexp2 works on runes, an invalid byte being one U+FFFD.
func splitRegexp(t *testing.T, re *regexp2.Regexp, s string) []int {
	var off []int // rune index → byte offset
	for i := 0; i < len(s); {
		off = append(off, i)
		_, n := utf8.DecodeRuneInString(s[i:])
		i += n
	}
	off = append(off, len(s))
	var ends []int
	m, err := re.FindStringMatch(s)
	for m != nil && err == nil {
		ends = append(ends, off[m.RuneIndex+m.RuneLength])
		m, err = re.FindNextMatch(m)
	}
	if err != nil {
		t.Fatal(err)
	}
	return ends
}

// split returns the ends of the pieces next finds, checking that each piece
// is non-empty, within the text, and the same when scanned from its own
// start (the patterns have no look-behind).
func split(t *testing.T, name string, next Next, s string) []int {
	var ends []int
	for i := 0; i < len(s); {
		j := next(s, i)
		if j <= i || j > len(s) {
			t.Fatalf("%s: Next(%q, %d) = %d", name, s, i, j)
		}
		if k := next(s[i:], 0); k != j-i {
			t.Fatalf("%s: Next(%q, %d) = %d but Next(%q, 0) = %d", name, s, i, j, s[i:], k)
		}
		if utf8.ValidString(s) && !utf8.ValidString(s[i:j]) {
			t.Fatalf("%s: piece %q of %q cuts a character", name, s[i:j], s)
		}
		ends = append(ends, j)
		i = j
	}
	return ends
}

func checkSplit(t *testing.T, s string) {
	initOracles()
	inReach := sameClasses(s)
	if s != "" {
		// The batch scanners, many pieces a call, find their one-piece
		// scanner's pieces whatever the batch's size.
		for _, b := range batches {
			want := split(t, b.name, b.next, s)
			for _, size := range []int{1, 2, 3, 64} {
				if got := splitBatched(b.pieces, s, size); !equalInts(got, want) {
					t.Fatalf("%sPieces in batches of %d: %q\n pieces %q\n %s's %q", b.name, size, s, pieces(s, got), b.name, pieces(s, want))
				}
			}
		}
	}
	for k, p := range patterns {
		got := split(t, p.name, p.next, s)
		if !inReach {
			continue
		}
		want := splitRegexp(t, oracles[k], s)
		if !equalInts(got, want) {
			t.Fatalf("%s: %q\n scanner pieces %q\n pattern pieces %q", p.name, s, pieces(s, got), pieces(s, want))
		}
	}
}

// batches are the scanners that write many pieces a call (Count's in
// WebAssembly builds), each with the one-piece scanner it must agree with.
var batches = []struct {
	name   string
	next   Next
	pieces func(s string, i int, ends []int) int
}{
	{"O200k", O200k, O200kPieces},
	{"Cl100k", Cl100k, Cl100kPieces},
	{"GPT2", GPT2, GPT2Pieces},
}

// splitBatched returns the ends of the pieces that a batch scanner finds,
// size at a time.
func splitBatched(batch func(s string, i int, ends []int) int, s string, size int) []int {
	var all []int
	ends := make([]int, size)
	for i := 0; i < len(s); {
		k := batch(s, i, ends)
		if k < 1 || k < size && ends[k-1] != len(s) {
			return append(all, -1) // too few pieces
		}
		all = append(all, ends[:k]...)
		i = ends[k-1]
	}
	return all
}

func equalInts(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

func pieces(s string, ends []int) []string {
	var out []string
	i := 0
	for _, e := range ends {
		if e < i || e > len(s) {
			out = append(out, "…")
			break
		}
		out = append(out, s[i:e])
		i = e
	}
	return out
}

// FuzzPretok holds the three scanners to their patterns (regexp2) and to
// the structural properties: pieces are non-empty, cover the text in order,
// cut no character of a valid text, and do not depend on what precedes them.
func FuzzPretok(f *testing.F) {
	for _, s := range []string{
		"", "Hello world", "  \n\t x", "I'm 'S they're THEY'RE it'ſ", "a\xffb\xc3", "你好😀", "\u0301x", " \u0301",
		"a  b", "a \n\n  b", "\r\n \r\n  z", "x\n \n\ty", "123456 7", "٣٤٥", "$$$ //x\n/", "helloWorld HELLOworld ǅungla",
		"\u00a0x\u3000 y\u2028z\u0085", "<|endoftext|>", strings.Repeat(" ", 40) + "x", "\v\f\t \n", "'''s", "x'llx",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		checkSplit(t, s)
	})
}

// TestPretok_AgreesWithPattern runs the oracle over the shared corpus, so
// that a disagreement outside the fuzzer's reach still shows in make test.
func TestPretok_AgreesWithPattern(t *testing.T) {
	for _, s := range []string{
		"Hello world", "I'm here, they're THERE, we'LL see", "  \n\n  x", "a\t\t b", "\n\t\n\t", "12345 3.14159 1,000",
		"你好，世界 日本語 한국어 Привет мир مرحبا", "func main() {\n\tfmt.Println(\"hi\")\n}\n", "😀👍🏽👨‍👩‍👧 ❤️", "a/\n/b +\n/ // x",
		"'sa 'Sab x'sa (foo .Bar \tfoo _name -flag \"q\" #Tag a.b.c (ABc ?!ab 'tis'", "\u00a0foo ¡Hola .été",
	} {
		checkSplit(t, s)
	}
}
