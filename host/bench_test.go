package host_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/host/internal/benchtext"
)

// Benchmarks: `make bench` runs them and prints the ratios
// (host/internal/benchtable). Sub-benchmarks of one group are compared with
// the group's first.

// BenchmarkStart measures what a process pays before its first count:
// compiling the module (cold: nothing cached; disk: a warm cache directory
// from an earlier process) and starting an instance with o200k_base loaded.
func BenchmarkStart(b *testing.B) {
	ctx := context.Background()
	wasm := module(b)
	dir := b.TempDir()
	warm, err := host.New(ctx, host.NewConfig().WithModule(wasm).WithCompilationCacheDir(dir).WithEncodings("o200k_base"))
	if err != nil {
		b.Fatal(err)
	}
	warm.Close(ctx)
	compile := func(b *testing.B, cache wazero.CompilationCache) {
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cache))
		defer rt.Close(ctx)
		if _, err := rt.CompileModule(ctx, wasm); err != nil {
			b.Fatal(err)
		}
	}
	b.Run("compile-cold", func(b *testing.B) {
		for b.Loop() {
			compile(b, wazero.NewCompilationCache())
		}
	})
	b.Run("compile-disk-cache", func(b *testing.B) {
		for b.Loop() {
			c, err := wazero.NewCompilationCacheWithDir(dir)
			if err != nil {
				b.Fatal(err)
			}
			compile(b, c)
			c.Close(ctx)
		}
	})
	b.Run("instantiate", func(b *testing.B) {
		rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(wazero.NewCompilationCache()))
		defer rt.Close(ctx)
		wasi_snapshot_preview1.MustInstantiate(ctx, rt)
		m, err := rt.CompileModule(ctx, wasm)
		if err != nil {
			b.Fatal(err)
		}
		cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize")
		for b.Loop() {
			mod, err := rt.InstantiateModule(ctx, m, cfg)
			if err != nil {
				b.Fatal(err)
			}
			mod.Close(ctx)
		}
	})
	// New from a warm disk cache: compile, one instance, the o200k_base
	// table loaded, and a first count. Target: ≤ 50 ms.
	b.Run("new-disk-cache+o200k+count", func(b *testing.B) {
		for b.Loop() {
			h, err := host.New(ctx, host.NewConfig().WithModule(wasm).WithCompilationCacheDir(dir).WithEncodings("o200k_base"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil {
				b.Fatal(err)
			}
			h.Close(ctx)
		}
	})
	b.Run("new-cold+o200k+count", func(b *testing.B) {
		for b.Loop() {
			h, err := host.New(ctx, host.NewConfig().WithModule(wasm).WithCompilationCacheDir(b.TempDir()).WithEncodings("o200k_base"))
			if err != nil {
				b.Fatal(err)
			}
			if _, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil {
				b.Fatal(err)
			}
			h.Close(ctx)
		}
	})
}

// BenchmarkCall measures one small call: native, the module's fast path, and
// the JSON path (countTokens, version).
func BenchmarkCall(b *testing.B) {
	ctx := context.Background()
	h := sharedHost(b)
	enc, _ := core.GetEncoding("o200k_base")
	api := core.NewAPI()
	msg := benchtext.Message()
	req := []byte(`{"encoding":"o200k_base","text":` + quote(msg) + `}`)
	b.Run("native-count", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			enc.Count(msg)
		}
	})
	b.Run("wasm-count", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			if _, err := h.Count(ctx, "o200k_base", msg); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("native-json", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			api.Call("countTokens", req)
		}
	})
	b.Run("wasm-json", func(b *testing.B) {
		b.SetBytes(int64(len(msg)))
		for b.Loop() {
			if _, err := h.Call(ctx, "countTokens", req); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wasm-empty-count", func(b *testing.B) {
		for b.Loop() {
			if _, err := h.Count(ctx, "o200k_base", ""); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("wasm-version-json", func(b *testing.B) {
		for b.Loop() {
			if _, err := h.Call(ctx, "version", nil); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkThroughput counts 1 MB of mixed text. Target: the module at
// least a third of native.
func BenchmarkThroughput(b *testing.B) {
	ctx := context.Background()
	h := sharedHost(b)
	enc, _ := core.GetEncoding("o200k_base")
	text := benchtext.Mixed(1 << 20)
	b.Run("native", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			enc.Count(text)
		}
	})
	b.Run("wasm", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := h.Count(ctx, "o200k_base", text); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
