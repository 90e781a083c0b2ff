package host_test

import (
	"context"
	"fmt"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// Memory over many calls and many instances. make test runs them small;
// TOKENFIT_LONG=1 (make test-long) at full size: 1,000,000 countTokens and
// 100,000 calculateBudget calls on one instance, 10,000 instances, and
// 1,000 hosts sharing an open Host's compilation and 1,000 with a runtime
// of their own started and closed.

func long() bool { return os.Getenv("TOKENFIT_LONG") == "1" }

// size returns full when the long tests run, else short.
func size(full, short int) int {
	if long() {
		return full
	}
	return short
}

// memoryTexts are the texts counted: chat-sized prose, code, CJK, emoji
// and whitespace, and now and then a long one, so that every path of the
// engine and its caches is warm after the first round.
func memoryTexts() []string {
	base := []string{
		"Hello world", "The budget calculator prunes the oldest turns first.", "func main() {\n\tfmt.Println(\"hi\")\n}\n",
		"你好，世界！自然语言处理。", "😀👍🏽👨‍👩‍👧 ❤️", "   \n\n\t\t  x", "<|endoftext|>", "I'm sure they're here, aren't they?",
	}
	var out []string
	for i := range 63 {
		out = append(out, fmt.Sprintf("%s %d %s", base[i%len(base)], i*i, base[(i*7)%len(base)]))
	}
	return append(out, strings.Repeat("tokenization 漢字 ", 40)+strings.Repeat("a", 300))
}

func budgetRequests() [][]byte {
	var out [][]byte
	for i := range 16 {
		var h []string
		for j := range i % 6 {
			h = append(h, fmt.Sprintf(`{"role": "user", "content": "question %d about tokens"}, {"role": "assistant", "content": %q}`,
				j, strings.Repeat("an answer ", j%5)))
		}
		out = append(out, fmt.Appendf(nil, `{"model": "gpt-4o", "contextWindow": %d, "sections": {"system": "Be brief.", "knowledge": [%q, "fact two"], "current": "next?"},
			"directive": "Answer in English.", "history": [%s], "limits": {"minHistoryTokens": 50}}`,
			200+i*50, strings.Repeat("fact ", i*5), strings.Join(h, ", ")))
	}
	return out
}

// TestMemory_Module: countTokens and calculateBudget calls, after warm-up
// passes of the same calls (until one leaves the memory as it found it), grow the module's linear memory by at most 1 MB (4 MB
// in the short run).
func TestMemory_Module(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1))
	in := instance(t, h)
	texts, budgets := memoryTexts(), budgetRequests()
	var reqs [][]byte
	for i, s := range texts {
		reqs = append(reqs, fmt.Appendf(nil, `{"encoding": %q, "text": %q}`, core.EncodingNames()[i%4], s))
	}
	countCalls := func(n int) {
		for i := range n {
			out, err := in.Call(ctx, "countTokens", reqs[i%len(reqs)])
			if err != nil || !strings.HasPrefix(string(out), `{"tokens":`) {
				t.Fatalf("countTokens: %s, %v", out, err)
			}
		}
	}
	budgetCalls := func(n int) {
		for i := range n {
			out, err := in.Call(ctx, "calculateBudget", budgets[i%len(budgets)])
			if err != nil || strings.HasPrefix(string(out), `{"error"`) {
				t.Fatalf("calculateBudget: %s, %v", out, err)
			}
		}
	}
	countFast := func(n int) {
		for i := range n {
			if _, err := in.Count(ctx, core.EncodingNames()[i%4], texts[i%len(texts)]); err != nil {
				t.Fatal(err)
			}
		}
	}
	start := host.MemorySize(in)
	// The warm-up: passes until one leaves the memory as it found it. The
	// engine's piece caches fill region by region as new pieces come (up to
	// 2.5 MB an encoding), so one pass is not always enough to reach the
	// size the calls keep; a leak never stops growing.
	passes := 0
	for {
		before := host.MemorySize(in)
		countCalls(size(200000, 5000))
		budgetCalls(size(20000, 500))
		countFast(size(200000, 5000))
		passes++
		if host.MemorySize(in) == before {
			break
		}
		if passes == 8 {
			t.Fatalf("linear memory still grew in the 8th warm-up pass: %.1f → %.1f MB", mb(uint64(before)), mb(uint64(host.MemorySize(in))))
		}
	}
	warm := host.MemorySize(in)
	for _, step := range []struct {
		name string
		n    int
		f    func(int)
	}{
		{"countTokens", size(1000000, 5000), countCalls},
		{"calculateBudget", size(100000, 500), budgetCalls},
		{"count (fast path)", size(1000000, 5000), countFast},
	} {
		before := host.MemorySize(in)
		t0 := time.Now()
		step.f(step.n)
		after := host.MemorySize(in)
		t.Logf("%d %s calls in %v: linear memory %.1f → %.1f MB", step.n, step.name, time.Since(t0).Round(time.Millisecond), mb(uint64(before)), mb(uint64(after)))
	}
	end := host.MemorySize(in)
	t.Logf("linear memory: %.1f MB started, %.1f MB after %d warm-up passes, %.1f MB at the end", mb(uint64(start)), mb(uint64(warm)), passes, mb(uint64(end)))
	// A short run ends before the collector's pacing settles: it gets
	// some slack; the full run gets none.
	if limit := uint32(size(1<<20, 4<<20)); end > warm+limit {
		t.Errorf("linear memory grew by %.1f MB after warm-up (%.1f → %.1f MB)", mb(uint64(end-warm)), mb(uint64(warm)), mb(uint64(end)))
	}
}

// skipShort skips a test under -short, which make test uses only for its
// run under the race detector: these tests run there without it.
func skipShort(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: make test runs this without -race")
	}
}

func mb(n uint64) float64 { return float64(n) / (1 << 20) }

// heapInUse is the Go heap in use after a collection.
func heapInUse() uint64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return ms.HeapInuse
}

// rss is the process's resident memory, or 0 where /proc is not there.
func rss() uint64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	f := strings.Fields(string(b))
	if len(f) < 2 {
		return 0
	}
	pages, _ := strconv.ParseUint(f[1], 10, 64)
	return pages * uint64(os.Getpagesize())
}

// waitGoroutines waits a little for goroutines that are ending to end.
func waitGoroutines(n int) int {
	for range 50 {
		if g := runtime.NumGoroutine(); g <= n {
			return g
		}
		time.Sleep(10 * time.Millisecond)
	}
	return runtime.NumGoroutine()
}

// TestMemory_Cycles starts and closes instances (through the pool, as a
// trap or a grown memory does), whole hosts that share an open Host's
// compilation, and hosts with a runtime of their own: the Go heap, the
// goroutines and the process's resident memory come back to where they
// were.
func TestMemory_Cycles(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	// No tables: the cycles are about instances, not about building
	// vocabularies (a heuristic counts without one).
	cfg := host.NewConfig().WithModule(module(t)).WithEncodings()
	req := []byte(`{"encoding": "chars4", "text": "Hello world"}`)
	const want = `{"tokens":2,"upperBound":3,"encoding":"chars4","exact":false}`
	cycle := func(h *host.Host) {
		in, err := h.Instance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		out, err := in.Call(ctx, "countTokens", req)
		host.Retire(in)
		in.Release()
		if err != nil || string(out) != want {
			t.Fatalf("countTokens = %s, %v", out, err)
		}
	}
	// A Host of cfg shares h's compilation; one of alone (another cache
	// directory) makes and closes a runtime of its own.
	alone := cfg.WithCompilationCacheDir(t.TempDir())
	hostCycle := func(cfg host.Config) {
		h, err := host.New(ctx, cfg)
		if err != nil {
			t.Fatal(err)
		}
		if out, err := h.Call(ctx, "countTokens", req); err != nil || string(out) != want {
			t.Fatalf("countTokens = %s, %v", out, err)
		}
		if err := h.Close(ctx); err != nil {
			t.Fatal(err)
		}
	}
	h := newHost(t, cfg.WithMaxInstances(1))
	// Warm up: the compilation cache, the runtime's pools.
	for range 5 {
		cycle(h)
	}
	for range 2 {
		hostCycle(cfg)
		hostCycle(alone)
	}
	for _, step := range []struct {
		name string
		n    int
		f    func()
	}{
		{"instance", size(10000, 20), func() { cycle(h) }},
		{"host", size(1000, 5), func() { hostCycle(cfg) }},
		{"runtime", size(1000, 5), func() { hostCycle(alone) }},
	} {
		g0, heap0, rss0 := waitGoroutines(0), heapInUse(), rss()
		t0 := time.Now()
		for range step.n {
			step.f()
		}
		g1, heap1, rss1 := waitGoroutines(g0), heapInUse(), rss()
		t.Logf("%d %s start/close cycles in %v: goroutines %d → %d, Go heap in use %.1f → %.1f MB, resident %.1f → %.1f MB",
			step.n, step.name, time.Since(t0).Round(time.Millisecond), g0, g1, mb(heap0), mb(heap1), mb(rss0), mb(rss1))
		if g1 > g0 {
			t.Errorf("%s cycles: %d goroutines left over", step.name, g1-g0)
		}
		if heap1 > heap0+4<<20 {
			t.Errorf("%s cycles: Go heap grew by %.1f MB", step.name, mb(heap1-heap0))
		}
		if long() && rss0 > 0 && rss1 > rss0+64<<20 {
			t.Errorf("%s cycles: resident memory grew by %.1f MB", step.name, mb(rss1-rss0))
		}
	}
}
