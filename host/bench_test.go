package host_test

import (
	"context"
	"encoding/json"
	"os"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// Benchmarks: `make bench` runs them and prints the ratios
// (host/internal/benchtable). Sub-benchmarks of one group are compared with
// the group's first.

// BenchmarkStart measures what a process pays before its first count.
// compile-cold compiles with nothing cached; compile-disk-cache loads the
// code an earlier process compiled (a fresh runtime and cache each time, as
// in a new process); compile-memory-cache is a second Host in one process.
// instantiate starts an instance (_initialize, the Go runtime), and
// instantiate+load-o200k gives it o200k_base's table. new-disk-cache is
// host.New with no table: compile from the disk cache and start an instance
// (target ≤ 50 ms); new-while-another-is-open is the same while another
// Host of the module is open, whose compilation it shares;
// new-disk-cache+o200k+count adds the table and a first count,
// new-disk-cache+all-tables every table; the -lean ones are the same
// with the lean module (Config.WithLeanModule). second-process-default-config
// is a whole process (this test binary run again) whose host.New(ctx,
// host.NewConfig()) finds the module an earlier process compiled in the
// default cache directory, then counts (target < 300 ms).
func BenchmarkStart(b *testing.B) {
	ctx := context.Background()
	wasm := module(b)
	dir := b.TempDir()
	cfg := host.NewConfig().WithModule(wasm).WithCompilationCacheDir(dir).WithMaxInstances(1)
	warm, err := host.New(ctx, cfg.WithEncodings())
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
	b.Run("compile-memory-cache", func(b *testing.B) {
		c := wazero.NewCompilationCache()
		compile(b, c)
		for b.Loop() {
			compile(b, c)
		}
	})
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(wazero.NewCompilationCache()))
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	m, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		b.Fatal(err)
	}
	mc := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").WithSysNanotime().WithSysWalltime()
	instantiate := func(b *testing.B, table []byte) {
		mod, err := rt.InstantiateModule(ctx, m, mc)
		if err != nil {
			b.Fatal(err)
		}
		defer mod.Close(ctx)
		if table == nil {
			return
		}
		p, err := mod.ExportedFunction("alloc").Call(ctx, uint64(len(table)))
		if err != nil || !mod.Memory().Write(uint32(p[0]), table) {
			b.Fatal("alloc", err)
		}
		if h, err := mod.ExportedFunction("load_table").Call(ctx, p[0], uint64(len(table))); err != nil || int32(h[0]) <= 0 {
			b.Fatal("load_table", err)
		}
	}
	b.Run("instantiate", func(b *testing.B) {
		for b.Loop() {
			instantiate(b, nil)
		}
	})
	b.Run("instantiate+load-o200k", func(b *testing.B) {
		table := core.EncodingTable("o200k_base")
		for b.Loop() {
			instantiate(b, table)
		}
	})
	newHost := func(b *testing.B, cfg host.Config, count bool) {
		h, err := host.New(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if count {
			if _, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil {
				b.Fatal(err)
			}
		}
		h.Close(ctx)
	}
	b.Run("new-disk-cache", func(b *testing.B) {
		for b.Loop() {
			newHost(b, cfg.WithEncodings(), false)
		}
	})
	b.Run("new-while-another-is-open", func(b *testing.B) {
		open, err := host.New(ctx, cfg.WithEncodings())
		if err != nil {
			b.Fatal(err)
		}
		defer open.Close(ctx)
		for b.Loop() {
			newHost(b, cfg.WithEncodings(), false)
		}
	})
	b.Run("new-disk-cache+o200k+count", func(b *testing.B) {
		for b.Loop() {
			newHost(b, cfg.WithEncodings("o200k_base"), true)
		}
	})
	b.Run("new-disk-cache+all-tables", func(b *testing.B) {
		for b.Loop() {
			newHost(b, cfg, false)
		}
	})
	lean := cfg.WithLeanModule(leanModule(b))
	newHost(b, lean.WithEncodings(), false) // compiles it into the cache
	b.Run("new-disk-cache-lean", func(b *testing.B) {
		for b.Loop() {
			newHost(b, lean.WithEncodings(), false)
		}
	})
	b.Run("new-disk-cache-lean+o200k+count", func(b *testing.B) {
		for b.Loop() {
			newHost(b, lean.WithEncodings("o200k_base"), true)
		}
	})
	b.Run("second-process-default-config", func(b *testing.B) {
		home := b.TempDir()
		defaultCacheChild(b, home, false) // the first process compiles
		for b.Loop() {
			defaultCacheChild(b, home, false)
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
	text := corpus(b)
	msg := text[:200]
	for len(msg) < len(text) && !utf8.RuneStart(text[len(msg)]) {
		msg = text[:len(msg)+1]
	}
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
// least a third of native. native, wasm and wasm-lean each run for the
// whole benchtime, one after the other, so on a shared machine whose speed
// drifts over seconds their ratio moves with the drift. alternating counts
// the text twice natively and twice in the module, pair after pair, and
// times each side's second count (its caches warm again after the other
// side's, as in the runs above); it reports the median of the pairs'
// native/wasm time ratios as wasm/native, the figure issue 15's goal is
// read from.
func BenchmarkThroughput(b *testing.B) {
	ctx := context.Background()
	h := sharedHost(b)
	enc, _ := core.GetEncoding("o200k_base")
	text := corpus(b)
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
	b.Run("alternating", func(b *testing.B) {
		var ratios []float64
		wasm := func() {
			if _, err := h.Count(ctx, "o200k_base", text); err != nil {
				b.Fatal(err)
			}
		}
		for b.Loop() {
			enc.Count(text)
			start := time.Now()
			enc.Count(text)
			native := time.Since(start)
			wasm()
			start = time.Now()
			wasm()
			ratios = append(ratios, float64(native)/float64(time.Since(start)))
		}
		slices.Sort(ratios)
		b.ReportMetric(ratios[len(ratios)/2], "wasm/native")
	})
	lean := newHost(b, leanConfig(b).WithMaxInstances(1).WithEncodings("o200k_base"))
	b.Run("wasm-lean", func(b *testing.B) {
		b.SetBytes(int64(len(text)))
		for b.Loop() {
			if _, err := lean.Count(ctx, "o200k_base", text); err != nil {
				b.Fatal(err)
			}
		}
	})
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

// corpus is the text every host's benchmarks count (make build/bench/corpus.txt:
// core/bench_test.go's benchCorpus), named by TOKENFIT_CORPUS.
func corpus(b *testing.B) string {
	path := os.Getenv("TOKENFIT_CORPUS")
	if path == "" {
		b.Skip("set TOKENFIT_CORPUS to the benchmark corpus (make bench-host writes and names it)")
	}
	data, err := os.ReadFile(path)
	if err != nil {
		b.Fatal(err)
	}
	return string(data)
}

// BenchmarkStopSmall and BenchmarkStopLarge measure what a context costs a
// call, on 200 bytes and on 1 MB: the default Host with a context that
// cannot end (the baseline) and with one that has a deadline (the call runs
// on a goroutine of its own, so that the caller can leave at the deadline),
// then a Host WithCloseOnContextDone, whose code checks for the end of the
// context at every loop head (and, for a context that can end, wazero
// watches it with a goroutine per call).
func BenchmarkStopSmall(b *testing.B) {
	text := corpus(b)
	msg := text[:200]
	for len(msg) < len(text) && !utf8.RuneStart(text[len(msg)]) {
		msg = text[:len(msg)+1]
	}
	benchStop(b, msg)
}

func BenchmarkStopLarge(b *testing.B) { benchStop(b, corpus(b)) }

func benchStop(b *testing.B, text string) {
	ctx := context.Background()
	var hosts []*host.Host
	for _, stop := range []bool{false, true} {
		h := newHost(b, config(b).WithCloseOnContextDone(stop).WithMaxInstances(1).WithEncodings("o200k_base"))
		hosts = append(hosts, h)
	}
	deadline, cancel := context.WithTimeout(ctx, time.Hour)
	defer cancel()
	for _, tc := range []struct {
		name string
		h    *host.Host
		ctx  context.Context
	}{
		{"default-background", hosts[0], ctx},
		{"default-deadline", hosts[0], deadline},
		{"stop-background", hosts[1], ctx},
		{"stop-deadline", hosts[1], deadline},
	} {
		b.Run(tc.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			for b.Loop() {
				if _, err := tc.h.Count(tc.ctx, "o200k_base", text); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
