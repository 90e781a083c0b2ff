package host_test

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// stateful operations are left out of FuzzHost: their answers depend on
// which pooled instance served the calls before.
var stateful = []string{"liveNew", "liveEdit", "liveGet", "liveFree", "registerModels", "loadCatalog"}

var (
	fuzzAPIOnce sync.Once
	fuzzAPI     *core.API
)

// FuzzHost sends any request to any operation through the host and to core
// natively: the answers are the same bytes, never an internal error, and
// the fast path counts the request's bytes as core does.
func FuzzHost(f *testing.F) {
	ops := slices.DeleteFunc(core.OperationNames(), func(op string) bool { return slices.Contains(stateful, op) })
	for _, b := range hostile.Bases {
		if i := slices.Index(ops, b.Op); i >= 0 {
			f.Add(uint8(i), []byte(b.Request))
		}
	}
	f.Add(uint8(0), []byte("\xff\xfe{"))
	f.Fuzz(func(t *testing.T, op uint8, body []byte) {
		h := sharedHost(t)
		fuzzAPIOnce.Do(func() {
			fuzzAPI = core.NewAPI()
			for _, e := range core.EncodingNames() {
				core.GetEncoding(e) // "encodings" reports what is loaded
			}
		})
		ctx := context.Background()
		name := ops[int(op)%len(ops)]
		got, err := h.Call(ctx, name, body)
		if err != nil {
			t.Fatalf("%s(%q): %v", name, body, err)
		}
		if want := fuzzAPI.Call(name, body); string(got) != string(want) {
			t.Fatalf("%s(%q):\n wasm   %s\n native %s", name, body, got, want)
		}
		if code, _ := hostile.IsError(got); code == core.CodeInternal {
			t.Fatalf("%s(%q): %s", name, body, got)
		}
		enc := core.EncodingNames()[int(op)%len(core.EncodingNames())]
		e, _ := core.GetEncoding(enc)
		if n, err := h.Count(ctx, enc, string(body)); err != nil || n != e.Count(string(body)) {
			t.Fatalf("Count(%s, %q) = %d, %v; want %d", enc, body, n, err, e.Count(string(body)))
		}
	})
}

var (
	abiOnce     sync.Once
	abiRuntime  wazero.Runtime
	abiCompiled wazero.CompiledModule
	abiErr      error
)

// abiModule compiles the module once per process: a fuzzing worker is a
// process whose code is instrumented for coverage, where wazero's decoding
// and validating of the module, paid even on a cache hit, takes seconds.
func abiModule(t testing.TB) (wazero.Runtime, wazero.CompiledModule) {
	wasm := module(t)
	abiOnce.Do(func() {
		ctx := context.Background()
		abiRuntime = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(testCache()))
		wasi_snapshot_preview1.MustInstantiate(ctx, abiRuntime)
		abiCompiled, abiErr = abiRuntime.CompileModule(ctx, wasm)
	})
	if abiErr != nil {
		t.Fatal(abiErr)
	}
	return abiRuntime, abiCompiled
}

// FuzzModuleABI calls the exports of a fresh instance with arguments drawn
// from the input (sizes, offsets near live buffers, garbage): no call may
// trap, and the instance counts right afterwards.
func FuzzModuleABI(f *testing.F) {
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6, 7, 8, 9})
	f.Add([]byte("\x03\xff\xff\xff\xff\x00\x00\x00\x10call"))
	table := core.EncodingTable("r50k_base")
	f.Fuzz(func(t *testing.T, prog []byte) {
		ctx := context.Background()
		rt, compiled := abiModule(t)
		mod, err := rt.InstantiateModule(ctx, compiled, wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize"))
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		m := &rawModule{t, ctx, mod}
		tp, tn := m.bytes(table)
		h := m.call("load_table", tp, tn)
		m.call("free", tp)
		text, textLen := m.bytes([]byte("Hello world"))
		var live []uint64 // buffers the program allocated
		seed := uint64(len(prog))
		if len(prog) >= 8 {
			seed = binary.LittleEndian.Uint64(prog)
		}
		r := rand.New(rand.NewPCG(seed, 9))
		arg := func(b byte) uint64 {
			switch b % 8 {
			case 0:
				return uint64(r.Uint32())
			case 1:
				return uint64(b)
			case 2:
				return text + uint64(b%7) - 3
			case 3:
				return uint64(uint32(-int32(b % 9)))
			case 4:
				if len(live) > 0 {
					return live[int(b)%len(live)]
				}
			case 5:
				return h + uint64(b%3) - 1
			case 6:
				return uint64(r.IntN(1 << 16))
			}
			return 0
		}
		exports := []struct {
			name string
			args int
		}{{"count", 3}, {"load_table", 2}, {"encoding_handle", 2}, {"call", 4}, {"free", 1}, {"last_error", 0}, {"alloc", 1}, {"abi_version", 0}}
		for i := 0; i < len(prog); i++ {
			e := exports[int(prog[i])%len(exports)]
			args := make([]uint64, e.args)
			for j := range args {
				if i+1+j < len(prog) {
					args[j] = arg(prog[i+1+j])
				}
			}
			i += e.args
			if e.name == "alloc" {
				args[0] %= 1 << 20
			}
			if e.name == "free" && args[0] == text {
				continue
			}
			res, err := mod.ExportedFunction(e.name).Call(ctx, args...)
			if err != nil {
				t.Fatalf("%s%v trapped: %v", e.name, args, err)
			}
			switch {
			case e.name == "alloc" && res[0] != 0:
				live = append(live, res[0])
			case (e.name == "call" || e.name == "last_error") && res[0] != 0:
				m.take(res[0])
			}
		}
		if n := int32(m.call("count", h, text, textLen)); n != 2 {
			t.Fatalf("count after the program = %d, want 2", n)
		}
	})
}
