package bpe

import (
	"fmt"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"sync"
	"testing"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/randtext"
	"github.com/tokenfit/tokenfit/core/internal/tables"
	"github.com/tokenfit/tokenfit/internal/oracle"
)

// Differential tests: the engine against the official tiktoken.
//
// They run in `make test` with a few thousand strings per encoding. The long
// run the engine is held to (at least 1M random strings per encoding) is
//
//	TOKENFIT_DIFF_N=1000000 go test ./core/internal/bpe -run Oracle -timeout 0
//
// and every input that ever disagreed is kept in testdata/vectors/regressions.json.

var (
	encOnce  sync.Once
	encoders map[string]*Encoder
)

func loadEncoders(t testing.TB) map[string]*Encoder {
	encOnce.Do(func() {
		encoders = map[string]*Encoder{}
		for _, name := range tables.Names {
			tab, err := tables.Parse(tables.Embedded(name), true)
			if err != nil {
				panic(err)
			}
			e, err := New(tab, false)
			if err != nil {
				panic(err)
			}
			encoders[name] = e
		}
	})
	return encoders
}

func startOracle(t *testing.T) *oracle.Process {
	t.Helper()
	o, err := startTiktoken()
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

// compare checks every text against the oracle and reports at most a few
// disagreements per encoding.
func compare(t *testing.T, o *oracle.Process, texts []string) {
	t.Helper()
	for _, name := range tables.Names {
		want, err := o.Encode(name, texts)
		if err != nil {
			t.Fatal(err)
		}
		e := loadEncoders(t)[name]
		oracle.Compare(t, name, e, texts, want)
		// Count's loop for WebAssembly builds, natively too.
		for i, text := range texts {
			if n := e.countBatched(text); n != len(want[i]) {
				t.Errorf("%s: countBatched(%q) = %d, want %d", name, text, n, len(want[i]))
			}
		}
	}
}

// TestOracle_Fixed covers the cases the patterns are known to be subtle on.
func TestOracle_Fixed(t *testing.T) {
	o := startOracle(t)
	texts := []string{
		"Hello world", "hello world", "Hello, world!", " ", "  ", "   ", "\n", "\n\n", "\r\n", " \n", "\n ",
		"a  b", "a   b", "a\t\tb", "a \t b", "a\n\n b", "a \n\n  b", "x\n \n\ty", "  \r\n \r\n  z", "\t\n\t\n",
		"\n\t" + strings.Repeat("\n\t", 50), strings.Repeat(" ", 100) + "x", strings.Repeat("\u3000", 5) + "x",
		"I'm here", "I'M HERE", "we'll they've she'd it's 'tis", "don'T", "DON'T", "it'ſ", "Iſ'ſ", "'s", "'S", "''s",
		"x'llx", "'re'RE're", "can't've", "y'all", "o'clock", "rock'n'roll",
		"'sa", "'Sab", "'tis'", "x'sa", "(foo", ".Bar", "\tfoo", "_name", "-flag --long", "\"quoted\"", "#Tag",
		"a.b.c", "(ABc", "/usr/bin", "\u00a0foo", "¡Hola", "'\u0301x", ".\u00e9t\u00e9", "(x)", "?!ab",
		"1", "12", "123", "1234", "12345678901", "3.14159", "1,000,000", "٣٤٥٦", "Ⅻ", "½¼", "x1y2z3",
		"helloWorld", "HelloWorld", "HELLOworld", "HELLO", "hELLO", "ABCdef'S", "ǅungla", "ǈ", "ʰʰʰ", "ab\u0301cd",
		"\u0301", "\u0301\u0301abc", " \u0301", "e\u0301\u0302", "Ａｂｃ", "ÀÉÎõü", "straße", "İstanbul", "ﬁne",
		"你好，世界", "日本語のテキスト", "한국어 텍스트", "Привет, мир!", "مرحبا بالعالم", "שלום עולם", "नमस्ते दुनिया",
		"สวัสดีชาวโลก", "ሰላም ዓለም", "Γειά σου Κόσμε", "Ողջույն", "ᏣᎳᎩ", "𝔘𝔫𝔦𝔠𝔬𝔡𝔢", "𝟘𝟙𝟚",
		"😀", "👍🏽", "👨‍👩‍👧‍👦", "🇫🇷🇯🇵", "❤️", "a😀b", " 😀 ", "©®™", "→←↑↓",
		"func main() {\n\tfmt.Println(\"hi\")\n}\n", "if (a && b) { return x->y; }", "<div class=\"x\">y</div>",
		"{\"a\": [1, 2, {\"b\": null}]}", "SELECT * FROM t WHERE x = 'y';", "https://example.com/a/b?c=d&e=f#g",
		"path/to/file.go", "//comment\n//", "a/\n/b", "+\n/", "  // x", "$$$", "!!!\n\n", "...\r\n\r\n",
		"<|endoftext|>", "<|endofprompt|>", "<|fim_prefix|>x<|fim_suffix|>", "<|im_start|>user",
		"\x00\x01\x02", "\x7f", "\u00a0x", "x\u00a0", "\u2028\u2029", "\u0085", "\v\f", "a\u200bb", "\ufeffx",
		"\ufffd", "\U0010FFFF", "\U000E0001", "\uE000", "𮯰", "\u31EF", "\U0001FAE9", "\U0001FAC8", "Ꞔꞔ", "ᲀ", "ꟊ", "\u0C5D",
		strings.Repeat("a", 1000), strings.Repeat("ab", 500), strings.Repeat("^", 300), strings.Repeat("9", 100),
		strings.Repeat("🙂", 50), strings.Repeat("漢", 200), strings.Repeat(" a", 100), strings.Repeat(".", 257),
	}
	compare(t, o, texts)
}

// TestOracle_Random compares random strings of 10, 100, 1,000 and 10,000
// bytes, weighted toward what pre-tokenizers get wrong.
func TestOracle_Random(t *testing.T) {
	o := startOracle(t)
	n := 3000
	if s := os.Getenv("TOKENFIT_DIFF_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	seed := uint64(1)
	if s := os.Getenv("TOKENFIT_DIFF_SEED"); s != "" {
		seed, _ = strconv.ParseUint(s, 10, 64)
	}
	rng := rand.New(rand.NewPCG(seed, 2))
	const batch = 2000
	for done := 0; done < n; done += batch {
		texts := make([]string, min(batch, n-done))
		for i := range texts {
			size := []int{10, 10, 100, 100, 1000, 10000}[rng.IntN(6)]
			if size == 10000 && rng.IntN(10) != 0 {
				size = 100
			}
			texts[i] = RandomText(rng, size)
		}
		compare(t, o, texts)
		if t.Failed() {
			return
		}
	}
}

// TestOracle_CodePoints puts every code point (but surrogates) in the
// contexts where its character class matters. Planes 4–13 (unassigned) and
// 15–16 (private use) are each one class throughout, so make test takes
// every 61st of them and TOKENFIT_LONG=1 (make test-long) all: a quarter of
// the work, which under a loaded CI machine was 20 of its 30 minutes.
func TestOracle_CodePoints(t *testing.T) {
	if testing.Short() {
		t.Skip("slow")
	}
	all := os.Getenv("TOKENFIT_LONG") == "1"
	o := startOracle(t)
	var texts []string
	var b strings.Builder
	for r := rune(0); r <= utf8.MaxRune; r++ {
		if 0xD800 <= r && r <= 0xDFFF {
			continue
		}
		if !all && uniformPlane(r) && r%61 != 0 && r&0xFFFF < 0xFFFE {
			continue
		}
		x := string(r)
		fmt.Fprintf(&b, "a%sb %s%s 1%s2 %s's A%s\n\t%s'S  %sx,%s ", x, x, x, x, x, x, x, x, x)
		if r%64 == 63 {
			texts = append(texts, b.String())
			b.Reset()
		}
	}
	texts = append(texts, b.String())
	compare(t, o, texts)
}

// uniformPlane reports whether r lies in a plane whose code points all share
// one character class: 4–13 (unassigned) and 15–16 (private use).
func uniformPlane(r rune) bool {
	p := r >> 16
	return 4 <= p && p <= 13 || p >= 15
}

// RandomText is randtext.Text: the strings every differential test draws.
func RandomText(rng *rand.Rand, size int) string { return randtext.Text(rng, size) }
