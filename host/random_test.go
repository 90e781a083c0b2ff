package host_test

import (
	"bytes"
	"context"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/host"
)

// randomModule is a hand-assembled module whose export "run" fills memory
// [0, 16) with WASI's random_get, as the Go runtime does to seed its map
// hashes when an instance starts.
var randomModule = []byte{
	0x00, 0x61, 0x73, 0x6d, 0x01, 0x00, 0x00, 0x00,
	// types: (i32, i32) -> i32, () -> i32
	0x01, 0x0b, 0x02, 0x60, 0x02, 0x7f, 0x7f, 0x01, 0x7f, 0x60, 0x00, 0x01, 0x7f,
	// import wasi_snapshot_preview1.random_get
	0x02, 0x25, 0x01,
	0x16, 'w', 'a', 's', 'i', '_', 's', 'n', 'a', 'p', 's', 'h', 'o', 't', '_', 'p', 'r', 'e', 'v', 'i', 'e', 'w', '1',
	0x0a, 'r', 'a', 'n', 'd', 'o', 'm', '_', 'g', 'e', 't', 0x00, 0x00,
	// one function of type 1; one page of memory
	0x03, 0x02, 0x01, 0x01,
	0x05, 0x03, 0x01, 0x00, 0x01,
	// exports: memory, run
	0x07, 0x10, 0x02, 0x06, 'm', 'e', 'm', 'o', 'r', 'y', 0x02, 0x00, 0x03, 'r', 'u', 'n', 0x00, 0x01,
	// run: random_get(0, 16)
	0x0a, 0x0a, 0x01, 0x08, 0x00, 0x41, 0x00, 0x41, 0x10, 0x10, 0x00, 0x0b,
}

// Two instances started the way the host starts its instances see
// different random bytes: wazero's default source is the same fixed
// sequence in every instance.
func TestModuleConfig_RandomSource(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	compiled, err := rt.CompileModule(ctx, randomModule)
	if err != nil {
		t.Fatal(err)
	}
	draw := func(cfg wazero.ModuleConfig) []byte {
		mod, err := rt.InstantiateModule(ctx, compiled, cfg.WithStartFunctions())
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		res, err := mod.ExportedFunction("run").Call(ctx)
		if err != nil || res[0] != 0 {
			t.Fatalf("random_get: %v, errno %v", err, res)
		}
		b, _ := mod.Memory().Read(0, 16)
		return bytes.Clone(b)
	}
	// The check bites: wazero's default gives equal bytes.
	if a, b := draw(wazero.NewModuleConfig().WithName("")), draw(wazero.NewModuleConfig().WithName("")); !bytes.Equal(a, b) {
		t.Fatalf("wazero's default source is no longer deterministic (%x, %x): the test no longer tells", a, b)
	}
	a, b := draw(host.ModuleConfigForTest()), draw(host.ModuleConfigForTest())
	if bytes.Equal(a, b) {
		t.Fatalf("two instances drew the same random bytes %x: the host's random source is deterministic", a)
	}
}

// The full module is pre-initialised: memory starts as _initialize left it
// at build time, the runtime's generators included, and _initialize
// re-seeds them from random_get (wasm/internal/reactor/reseed.go). Two instances
// started as the host starts them end _initialize with different memories;
// two given the same random bytes end it with equal ones, so what differs
// is what the runtime drew from random_get, which every map seed,
// hash/maphash seed and map iteration order after the start comes from.
// (wasm/internal/reactor's TestReseedRuntime checks that the running M's generator is
// the one drawn afresh. The lean module is not pre-initialised: its
// _initialize is the runtime's own start.)
func TestModule_RandomStatePerInstance(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	compiled, err := rt.CompileModule(ctx, module(t))
	if err != nil {
		t.Fatal(err)
	}
	start := func(cfg wazero.ModuleConfig) []byte {
		mod, err := rt.InstantiateModule(ctx, compiled, cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer mod.Close(ctx)
		b, _ := mod.Memory().Read(0, mod.Memory().Size())
		return bytes.Clone(b)
	}
	fixed := func() wazero.ModuleConfig {
		return host.ModuleConfigForTest().WithRandSource(strings.NewReader(strings.Repeat("tokenfit", 64)))
	}
	if a, b := start(fixed()), start(fixed()); !bytes.Equal(a, b) {
		t.Fatalf("two instances given the same random bytes differ in %d bytes of memory: something else varies", differing(a, b))
	}
	a, b := start(host.ModuleConfigForTest()), start(host.ModuleConfigForTest())
	n := differing(a, b)
	if n == 0 {
		t.Fatal("two instances started by the host have the same memory: they share the runtime's random state")
	}
	t.Logf("%d bytes of memory differ between two instances", n)
}

func differing(a, b []byte) int {
	n := max(len(a), len(b)) - min(len(a), len(b))
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			n++
		}
	}
	return n
}
