package host_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/internal/exportlist"
	"github.com/tokenfit/tokenfit/internal/tokenvectors"
)

// leanModule returns the bytes of the lean module.
func leanModule(t testing.TB) []byte { return liteModule.get(t) }

// leanConfig is config with the lean module.
func leanConfig(t testing.TB) host.Config {
	t.Helper()
	return config(t).WithLeanModule(leanModule(t))
}

// TestLean_Counts: a Host of the lean module counts every shared vector as
// the official tiktoken does, through the pool and a checked-out Instance.
func TestLean_Counts(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, leanConfig(t).WithMaxInstances(1))
	cases, err := tokenvectors.Load("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		text := c.Text
		for enc, want := range c.Counts {
			if n, err := h.Count(ctx, enc, text); err != nil || n != want {
				t.Errorf("%s: %.40q: %d, %v; tiktoken %d", enc, text, n, err, want)
			}
		}
	}
	if _, err := h.Count(ctx, "p51k_base", "x"); !errors.Is(err, core.ErrUnknownEncoding) {
		t.Errorf("unknown encoding: %v", err)
	}
	in := instance(t, h)
	if n, err := in.Count(ctx, "cl100k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("Instance.Count: %d, %v", n, err)
	}
}

// TestLean_Operations: everything but Count is ErrLeanModule, on the pool
// and on an Instance, and the Host keeps counting after it.
func TestLean_Operations(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, leanConfig(t).WithMaxInstances(1).WithEncodings("o200k_base"))
	_, err1 := h.Call(ctx, "countTokens", []byte(`{"text":"x"}`))
	_, err2 := h.Do(ctx, "version", nil)
	_, err3 := h.CountTokens(ctx, core.CountRequest{Text: "x"})
	_, err4 := h.Encode(ctx, core.CountRequest{Text: "x"})
	_, err5 := h.Call(ctx, "liveNew", nil)
	_, err7 := h.LoadTokenizer(ctx, "t", []byte("{}"))
	in, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	_, err6 := in.Call(ctx, "liveNew", []byte(`{}`))
	in.Release()
	for i, err := range []error{err1, err2, err3, err4, err5, err6, err7} {
		if !errors.Is(err, host.ErrLeanModule) {
			t.Errorf("operation %d: %v, want ErrLeanModule", i+1, err)
		}
	}
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("Count after: %d, %v", n, err)
	}
}

// TestLean_WrongModule: each module given to the other's option is ErrABI,
// with a message that names the right option.
func TestLean_WrongModule(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		name string
		cfg  host.Config
		says string
	}{
		{"lean as full", config(t).WithModule(leanModule(t)), "WithLeanModule"},
		{"full as lean", config(t).WithLeanModule(module(t)), "tokenfit-lite.wasm"},
	} {
		h, err := host.New(ctx, tc.cfg.WithEncodings())
		if err == nil {
			h.Close(ctx)
		}
		if !errors.Is(err, host.ErrABI) || !strings.Contains(err.Error(), tc.says) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}

// TestLean_Exports: the lean module's export list (wasm/exports-lite.txt,
// held to the module by wasm's TestLite_Exports) has every function the
// host uses of it, with the full module's signatures.
func TestLean_Exports(t *testing.T) {
	listed, err := exportlist.ReadFile("../wasm/exports-lite.txt")
	if err != nil {
		t.Fatal(err)
	}
	used := host.LeanExportsForTest()
	if len(used) == 0 {
		t.Fatal("the host uses no export of the lean module")
	}
	for _, e := range used {
		if !slices.Contains(listed, e) {
			t.Errorf("the host uses %q of the lean module; wasm/exports-lite.txt does not list it", e)
		}
	}
}
