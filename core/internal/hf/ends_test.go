package hf

import (
	"math/rand/v2"
	"os"
	"strconv"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/randtext"
)

// endsTexts are the cases where a token's bytes are not the text's: a ▁
// put before each section (Prepend, Metaspace), spaces and ▁ of the text
// both written ▁, added tokens starting new sections, NFC composing.
var endsTexts = []string{
	"Hello world", " Hello", "  lead", "▁x ▁", "▁▁", "a▁b c", "x <s> y", "<s>x", "x<s>", " <s> ", "hi <unk> there",
	"<start_of_turn>user\nhi<end_of_turn>", "<|begin_of_text|>Hi", "e\u0301 cafe\u0301 n\u0303", "\u0301x", "Å\u0301",
	"你好，世界 😀 x", "a\n\n b  c\t d", "👨‍👩‍👧‍👦 ok",
}

// TestOracle_Ends holds AppendEnds to tokenizers.js: where the text of the
// first k tokens ends is the length of their decoded text, wherever that
// text starts the input (and decoding gives the whole input back). make
// test runs 40 random strings per family, make test-long 2,000
// (TOKENFIT_HF_ENDS_N).
func TestOracle_Ends(t *testing.T) {
	o := startOracle(t)
	n := 40 // decoding every prefix is quadratic: fewer and shorter texts than TestOracle_Random's
	if s := os.Getenv("TOKENFIT_HF_ENDS_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	rng := rand.New(rand.NewPCG(2, 14))
	texts := append([]string(nil), endsTexts...)
	for range n {
		texts = append(texts, randtext.Comparable(randtext.Text(rng, []int{10, 30, 100, 200}[rng.IntN(4)])))
	}
	for _, family := range families {
		m := loadFamily(t, family)
		want, err := o.Encode(family+"#prefixes", texts)
		if err != nil {
			t.Fatal(err)
		}
		bad, compared := 0, 0
		for i, text := range texts {
			ends := m.AppendEnds(nil, text)
			if len(ends) != m.Count(text) || len(ends) != len(want[i]) {
				t.Fatalf("%s %q: %d ends for %d tokens (tokenizers.js %d)", family, text, len(ends), m.Count(text), len(want[i]))
			}
			prev := 0
			for k, e := range ends {
				if e < prev || e > len(text) {
					t.Fatalf("%s %q: ends %v", family, text, ends)
				}
				prev = e
				if w := want[i][k]; w >= 0 {
					compared++
				}
				if w := want[i][k]; w >= 0 && e != w && bad < 5 {
					bad++
					t.Errorf("%s %q: the text of %d tokens ends at %d, tokenizers.js decodes %q", family, text, k+1, e, text[:w])
				}
			}
			if len(ends) > 0 && ends[len(ends)-1] != len(text) {
				t.Fatalf("%s %q: the last end is %d of %d", family, text, ends[len(ends)-1], len(text))
			}
		}
		if compared < len(texts) {
			t.Errorf("%s: only %d ends compared in %d texts", family, compared, len(texts))
		}
		t.Logf("%s: %d texts, %d ends compared", family, len(texts), compared)
	}
}
