package postlink

import (
	"bytes"
	"context"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

func sec(id byte, body ...byte) []byte {
	return append(appendUleb([]byte{id}, uint32(len(body))), body...)
}

func name(s string) []byte { return append([]byte{byte(len(s))}, s...) }

// reactor is a module shaped as the Go linker shapes a reactor: an
// imported WASI function, one memory of 1 page, mutable i32 and i64
// globals, one data segment ("hi" at 200), and exports _initialize, get,
// reseed (named reseed, normally ReseedExport) and the memory. _initialize
// stores 42 at address 100, sets the globals to 7 and -5 and grows memory
// by a page; get returns global 0 plus the byte at 100; reseed adds one to
// the byte at 101.
func reactor(reseed string) []byte {
	m := []byte("\x00asm\x01\x00\x00\x00")
	m = append(m, sec(1, 2, 0x60, 0, 0, 0x60, 0, 1, 0x7f)...) // ()→(), ()→i32
	imp := append(append([]byte{1}, name("wasi_snapshot_preview1")...), name("sched_yield")...)
	m = append(m, sec(sectionImport, append(imp, 0, 1)...)...)
	m = append(m, sec(sectionFunc, 3, 0, 1, 0)...)
	m = append(m, sec(sectionMemory, 1, 0, 1)...)
	m = append(m, sec(sectionGlobal, 2, 0x7f, 1, opI32Const, 0, opEnd, 0x7e, 1, opI64Const, 0, opEnd)...)
	exp := []byte{4}
	exp = append(append(exp, name("_initialize")...), 0, 1)
	exp = append(append(exp, name("get")...), 0, 2)
	exp = append(append(exp, name(reseed)...), 0, 3)
	exp = append(append(exp, name("memory")...), 2, 0)
	m = append(m, sec(sectionExport, exp...)...)
	initBody := []byte{0, opI32Const, 0xe4, 0, opI32Const, 42, 0x3a, 0, 0, // i32.store8 42 at 100
		opI32Const, 7, 0x24, 0, opI64Const, 0x7b, 0x24, 1, // globals 7, -5
		opI32Const, 1, 0x40, 0, 0x1a, opEnd} // memory.grow 1; drop
	getBody := []byte{0, 0x23, 0, opI32Const, 0xe4, 0, 0x2d, 0, 0, 0x6a, opEnd}
	reseedBody := []byte{0, opI32Const, 0xe5, 0, opI32Const, 0xe5, 0, 0x2d, 0, 0, opI32Const, 1, 0x6a, 0x3a, 0, 0, opEnd}
	code := append(appendUleb([]byte{3}, uint32(len(initBody))), initBody...)
	code = append(appendUleb(code, uint32(len(getBody))), getBody...)
	code = append(appendUleb(code, uint32(len(reseedBody))), reseedBody...)
	m = append(m, sec(sectionCode, code...)...)
	return append(m, sec(sectionData, 1, 0, opI32Const, 0xc8, 1, opEnd, 2, 'h', 'i')...)
}

func TestPreinit(t *testing.T) {
	ctx := context.Background()
	in := reactor(ReseedExport)
	out, err := Preinit(ctx, in, MaxGap)
	if err != nil {
		t.Fatal(err)
	}
	again, err := Preinit(ctx, in, MaxGap)
	if err != nil || !bytes.Equal(out, again) {
		t.Fatalf("two runs gave different modules (err %v)", err)
	}

	// The globals start where _initialize left them.
	secs, err := sections(out)
	if err != nil {
		t.Fatal(err)
	}
	g := find(secs, sectionGlobal)
	gs, err := parseGlobals(out[g.start:g.end])
	if err != nil || len(gs) != 2 || gs[0].value != 7 || gs[1].value != -5 {
		t.Fatalf("globals %+v (err %v), want 7 and -5", gs, err)
	}

	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	mod, err := r.InstantiateWithConfig(ctx, out, wazero.NewModuleConfig().WithStartFunctions())
	if err != nil {
		t.Fatal(err)
	}
	check := func(when string) {
		t.Helper()
		res, err := mod.ExportedFunction("get").Call(ctx)
		if err != nil || res[0] != 49 {
			t.Fatalf("%s: get = %v (err %v), want 49", when, res, err)
		}
		if size := mod.Memory().Size(); size != 2*pageSize {
			t.Fatalf("%s: memory is %d bytes, want 2 pages", when, size)
		}
		if hi, _ := mod.Memory().Read(200, 2); string(hi) != "hi" {
			t.Fatalf("%s: the data segment is gone: %q", when, hi)
		}
	}
	check("before _initialize")
	if mod.ExportedFunction(ReseedExport) != nil {
		t.Fatalf("%s is still exported", ReseedExport)
	}
	// _initialize only calls the reseed function now: memory does not grow
	// again, and the byte it counts in goes up by one each time.
	for i := byte(1); i <= 2; i++ {
		if _, err := mod.ExportedFunction("_initialize").Call(ctx); err != nil {
			t.Fatal(err)
		}
		check("after _initialize")
		if b, _ := mod.Memory().ReadByte(101); b != i {
			t.Fatalf("after %d calls of _initialize the reseed function ran %d times", i, b)
		}
	}
}

// A reactor without the reseed export is refused: every instance of its
// pre-initialised form would start with the build's random state.
func TestPreinit_NoReseed(t *testing.T) {
	if _, err := Preinit(context.Background(), reactor("reseed_other"), MaxGap); err == nil {
		t.Fatalf("Preinit took a module without %s", ReseedExport)
	}
}

// A module that is not a reactor (the GOOS=js one) is refused.
func TestPreinit_NotAReactor(t *testing.T) {
	m := module([]segment{{0, []byte{1}}, {10, []byte{2}}})
	if _, err := Preinit(context.Background(), m, MaxGap); err == nil {
		t.Fatal("Preinit took a module without _initialize")
	}
}
