package host_test

import (
	"bytes"
	"context"
	"sync"
	"testing"

	"github.com/tokenfit/tokenfit/host"
)

// TestHost_SharedCompilation: open Hosts of the same module and compilation
// settings share one compilation, whatever else their Configs say; one that
// closes leaves the others counting, and the last one's Close releases it,
// so a later Host compiles (from the cache) again.
func TestHost_SharedCompilation(t *testing.T) {
	ctx := context.Background()
	cfg := config(t).WithEncodings("r50k_base")
	a := newHost(t, cfg)
	b := newHost(t, config(t).WithModule(bytes.Clone(module(t))).WithEncodings("o200k_base").WithMaxInstances(1))
	if !host.SharesCompilation(a, b) {
		t.Error("two Hosts of the same module do not share its compilation")
	}
	stop := newHost(t, cfg.WithCloseOnContextDone(true))
	if host.SharesCompilation(a, stop) {
		t.Error("a Host WithCloseOnContextDone shares the compilation of one without (their code differs)")
	}
	other := newHost(t, cfg.WithCompilationCacheDir(t.TempDir()))
	if host.SharesCompilation(a, other) {
		t.Error("Hosts with different cache directories share a compilation (the second directory would never be written)")
	}
	lean := newHost(t, leanConfig(t).WithEncodings("r50k_base"))
	if host.SharesCompilation(a, lean) {
		t.Error("the lean module shares the full module's compilation")
	}
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if n, err := b.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Fatalf("after another Host of the module closed: Count = %d, %v", n, err)
	}
	in, err := b.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	host.Retire(in) // the next call starts an instance
	in.Release()
	if n, err := b.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Fatalf("a new instance after another Host of the module closed: Count = %d, %v", n, err)
	}
	if err := b.Close(ctx); err != nil {
		t.Fatal(err)
	}
	c := newHost(t, cfg)
	if n, err := c.Count(ctx, "r50k_base", "Hello world"); err != nil || n != 2 {
		t.Fatalf("a Host after the others closed: Count = %d, %v", n, err)
	}
}

// TestHost_NewCloseConcurrent opens and closes Hosts of one module
// from several goroutines at once (for the race detector): each counts, and
// none waits for another's Close.
func TestHost_NewCloseConcurrent(t *testing.T) {
	ctx := context.Background()
	cfg := config(t).WithEncodings("r50k_base").WithMaxInstances(1)
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			for range 3 {
				h, err := host.New(ctx, cfg)
				if err != nil {
					t.Error(err)
					return
				}
				if n, err := h.Count(ctx, "r50k_base", "Hello world"); err != nil || n != 2 {
					t.Errorf("Count = %d, %v", n, err)
				}
				if err := h.Close(ctx); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}
