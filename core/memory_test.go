package core_test

import (
	"fmt"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
)

// TestMemory_Native: 1,000,000 countTokens and 100,000 calculateBudget calls
// through API.Call (TOKENFIT_LONG=1; 20,000 and 2,000 otherwise) leave the
// Go heap in use where the warm-up left it, within 1 MB.
func TestMemory_Native(t *testing.T) {
	full := os.Getenv("TOKENFIT_LONG") == "1"
	size := func(long, short int) int {
		if full {
			return long
		}
		return short
	}
	a := core.NewAPI()
	base := []string{"Hello world", "The budget calculator prunes the oldest turns first.", "你好，世界！", "😀👍🏽 ❤️", "  \n\t x", "<|endoftext|>",
		"func main() {\n\tfmt.Println(\"hi\")\n}\n", strings.Repeat("tokenization 漢字 ", 40)}
	var counts, budgets [][]byte
	for i := range 64 {
		counts = append(counts, fmt.Appendf(nil, `{"encoding": %q, "text": %q}`, core.EncodingNames()[i%4], fmt.Sprint(base[i%len(base)], i*i, base[i*7%len(base)])))
	}
	for i := range 16 {
		var h []string
		for j := range i % 6 {
			h = append(h, fmt.Sprintf(`{"role": "user", "content": "question %d"}, {"role": "assistant", "content": %q}`, j, strings.Repeat("an answer ", j)))
		}
		budgets = append(budgets, fmt.Appendf(nil, `{"model": "gpt-4o", "contextWindow": %d, "sections": {"system": "Be brief.", "knowledge": [%q], "current": "next?"}, "history": [%s]}`,
			200+i*50, strings.Repeat("fact ", i*5), strings.Join(h, ", ")))
	}
	run := func(op string, reqs [][]byte, n int) {
		for i := range n {
			if out := a.Call(op, reqs[i%len(reqs)]); strings.HasPrefix(string(out), `{"error"`) {
				t.Fatalf("%s: %s", op, out)
			}
		}
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	run("countTokens", counts, size(100000, 5000))
	run("calculateBudget", budgets, size(10000, 500))
	warm := heap()
	for _, step := range []struct {
		op   string
		reqs [][]byte
		n    int
	}{{"countTokens", counts, size(1000000, 20000)}, {"calculateBudget", budgets, size(100000, 2000)}} {
		before := heap()
		t0 := time.Now()
		run(step.op, step.reqs, step.n)
		after := heap()
		t.Logf("%d %s calls in %v: Go heap in use %.2f → %.2f MB", step.n, step.op, time.Since(t0).Round(time.Millisecond), float64(before)/(1<<20), float64(after)/(1<<20))
	}
	if end := heap(); end > warm+1<<20 {
		t.Errorf("heap in use grew by %.2f MB after warm-up", float64(end-warm)/(1<<20))
	}
}
