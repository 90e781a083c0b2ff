package host_test

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/host"
)

// TestMemory_RetiredGivesBack: an instance that a big request grew past
// WithMaxInstanceMemory is retired and its memory given back to the system
// within seconds; the process kept it (a server stayed at ~2 GB for minutes
// after one big request). TOKENFIT_LONG=1: a 300 MB request against the
// default limit; else 56 MB against 64 MB.
func TestMemory_RetiredGivesBack(t *testing.T) {
	size, limit := 56<<20, uint64(64<<20)
	if long() {
		size, limit = 300<<20, host.DefaultMaxInstanceMemory
	}
	skipShort(t)
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1).WithMaxInstanceMemory(limit))
	runtime.GC()
	before := int64(rss())
	// A request the module must hold whole: its memory grows past the
	// limit, and the call (a wrong type) ends at once.
	req := make([]byte, 0, size+64)
	req = append(req, `{"text": 1, "pad": "`...)
	req = append(req, strings.Repeat("a", size)...)
	req = append(req, `"}`...)
	if out, err := h.Call(ctx, "countTokens", req); err != nil || !strings.Contains(string(out), "invalid_request") {
		t.Fatalf("%.200s, %v", out, err)
	}
	req = nil
	peak := int64(rss())
	deadline := time.Now().Add(20 * time.Second)
	for int64(rss()) > before+int64(size)/4 {
		if time.Now().After(deadline) {
			t.Fatalf("resident memory %d MB before, %d MB after the request, still %d MB 20 s later", before>>20, peak>>20, int64(rss())>>20)
		}
		time.Sleep(100 * time.Millisecond)
	}
	t.Logf("resident memory: %d MB before, %d MB after the request, %d MB once it was retired", before>>20, peak>>20, int64(rss())>>20)
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Fatalf("then Count = %d, %v", n, err)
	}
}
