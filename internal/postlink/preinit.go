package postlink

import (
	"context"
	"fmt"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// Pre-initialisation (Wizer's idea): a wasip1 reactor's _initialize starts
// Go's runtime and runs every package's init, and leaves behind nothing but
// linear memory and the module's globals: it returns with an empty call
// stack, and no Go state points outside the module. Preinit runs it once,
// at build time, under wazero, and writes the module whose memory and
// globals start as they were after it and whose _initialize only calls the
// module's ReseedExport, which draws the runtime's random state afresh from
// the host (wasm/internal/reactor/reseed.go); that export is then no longer exported.
// See RATIONALE.md, "Why is the module pre-initialised, and how does each
// instance get its own random seed?".
//
// The run is deterministic, so the result is a function of the input: no
// arguments, no environment, a monotonic clock that reads 1 ns (no host's
// reads earlier), wazero's fake wall clock and its fixed random source.

const (
	sectionImport = 2
	sectionFunc   = 3
	sectionGlobal = 6
	sectionMemory = 5
	sectionExport = 7
	sectionCode   = 10
	opI64Const    = 0x42
	opCall        = 0x10
	pageSize      = 1 << 16
)

// ReseedExport is the export Preinit's _initialize calls: a () -> ()
// function that re-seeds the runtime's random state from the host's
// random_get. Preinit refuses a module without it, since every instance of
// the result would otherwise start with the build's generator state.
const ReseedExport = "reseed_runtime"

// globalPrefix names the exports Preinit adds to read the globals back.
const globalPrefix = "postlink.global."

type section struct {
	id         byte
	start, end int // its contents, after the id and size
	hdr        int // where its id is
}

func sections(m []byte) ([]section, error) {
	if len(m) < 8 || string(m[:4]) != "\x00asm" {
		return nil, fmt.Errorf("%w: not a WebAssembly module", ErrUnsupported)
	}
	var out []section
	for p := 8; p < len(m); {
		size, n, err := uleb(m, p+1)
		if err != nil {
			return nil, err
		}
		start := p + 1 + n
		end := start + int(size)
		if end > len(m) || end < start {
			return nil, fmt.Errorf("%w: section %d runs past the end", ErrUnsupported, m[p])
		}
		out = append(out, section{id: m[p], start: start, end: end, hdr: p})
		p = end
	}
	return out, nil
}

func find(secs []section, id byte) *section {
	for i := range secs {
		if secs[i].id == id {
			return &secs[i]
		}
	}
	return nil
}

// global is one entry of the global section: its type, whether it is
// mutable, and its constant initial value.
type global struct {
	typ     byte // 0x7f i32, 0x7e i64
	mutable bool
	value   int64
}

func parseGlobals(b []byte) ([]global, error) {
	count, p, err := uleb(b, 0)
	if err != nil {
		return nil, err
	}
	gs := make([]global, 0, count)
	for range count {
		if p+3 > len(b) {
			return nil, fmt.Errorf("%w: global section truncated", ErrUnsupported)
		}
		g := global{typ: b[p], mutable: b[p+1] == 1}
		op := b[p+2]
		p += 3
		var n int
		switch {
		case g.typ == 0x7f && op == opI32Const:
			var v int32
			v, n, err = sleb32(b, p)
			g.value = int64(v)
		case g.typ == 0x7e && op == opI64Const:
			g.value, n, err = sleb64(b, p)
		default:
			return nil, fmt.Errorf("%w: global %d is not an i32 or i64 constant", ErrUnsupported, len(gs))
		}
		if err != nil {
			return nil, err
		}
		p += n
		if p >= len(b) || b[p] != opEnd {
			return nil, fmt.Errorf("%w: global %d's initialiser is more than a constant", ErrUnsupported, len(gs))
		}
		p++
		gs = append(gs, g)
	}
	if p != len(b) {
		return nil, fmt.Errorf("%w: bytes after the last global", ErrUnsupported)
	}
	return gs, nil
}

func encodeGlobals(gs []global) []byte {
	b := appendUleb(nil, uint32(len(gs)))
	for _, g := range gs {
		var mut byte
		if g.mutable {
			mut = 1
		}
		b = append(b, g.typ, mut)
		if g.typ == 0x7f {
			b = appendSleb(append(b, opI32Const), int64(int32(g.value)))
		} else {
			b = appendSleb(append(b, opI64Const), g.value)
		}
		b = append(b, opEnd)
	}
	return b
}

// importedFuncs counts the functions a module imports, and refuses imports
// of anything else (a Go module imports functions only).
func importedFuncs(b []byte) (int, error) {
	count, p, err := uleb(b, 0)
	if err != nil {
		return 0, err
	}
	for i := range count {
		for range 2 { // module and field names
			n, k, err := uleb(b, p)
			if err != nil {
				return 0, err
			}
			p += k + int(n)
		}
		if p+1 >= len(b) || b[p] != 0 {
			return 0, fmt.Errorf("%w: import %d is not a function", ErrUnsupported, i)
		}
		_, k, err := uleb(b, p+1)
		if err != nil {
			return 0, err
		}
		p += 1 + k
	}
	return int(count), nil
}

// exportedFunc returns the index of the function exported as name, or -1.
func exportedFunc(b []byte, name string) (int, error) {
	count, p, err := uleb(b, 0)
	if err != nil {
		return 0, err
	}
	for range count {
		n, k, err := uleb(b, p)
		if err != nil {
			return 0, err
		}
		p += k
		if p+int(n)+1 > len(b) {
			return 0, fmt.Errorf("%w: export section truncated", ErrUnsupported)
		}
		got := string(b[p : p+int(n)])
		kind := b[p+int(n)]
		p += int(n) + 1
		idx, k, err := uleb(b, p)
		if err != nil {
			return 0, err
		}
		p += k
		if got == name && kind == 0 {
			return int(idx), nil
		}
	}
	return -1, nil
}

// withoutExport returns the export section b without the export named name.
func withoutExport(b []byte, name string) ([]byte, error) {
	count, p, err := uleb(b, 0)
	if err != nil {
		return nil, err
	}
	var kept []byte
	for range count {
		start := p
		n, k, err := uleb(b, p)
		if err != nil {
			return nil, err
		}
		p += k
		if p+int(n)+1 > len(b) {
			return nil, fmt.Errorf("%w: export section truncated", ErrUnsupported)
		}
		got := string(b[p : p+int(n)])
		p += int(n) + 1
		_, k, err = uleb(b, p)
		if err != nil {
			return nil, err
		}
		p += k
		if got != name {
			kept = append(kept, b[start:p]...)
		} else {
			count--
		}
	}
	return append(appendUleb(nil, uint32(count)), kept...), nil
}

// funcType returns the type index of defined function i in the function
// section b.
func funcType(b []byte, i int) (uint32, error) {
	count, p, err := uleb(b, 0)
	if err != nil {
		return 0, err
	}
	if i < 0 || i >= int(count) {
		return 0, fmt.Errorf("%w: no function %d", ErrUnsupported, i)
	}
	for j := 0; ; j++ {
		t, k, err := uleb(b, p)
		if err != nil {
			return 0, err
		}
		if j == i {
			return uint32(t), nil
		}
		p += k
	}
}

// withGlobalExports returns the export section b with an export of every
// global added (named globalPrefix + index), for reading them back.
func withGlobalExports(b []byte, n int) ([]byte, error) {
	count, p, err := uleb(b, 0)
	if err != nil {
		return nil, err
	}
	out := appendUleb(nil, uint32(int(count)+n))
	out = append(out, b[p:]...)
	for i := range n {
		name := fmt.Sprintf("%s%d", globalPrefix, i)
		out = appendUleb(out, uint32(len(name)))
		out = append(out, name...)
		out = append(out, 3) // global
		out = appendUleb(out, uint32(i))
	}
	return out, nil
}

// withCallBody returns the code section b with function body i replaced by
// one that calls function callee (an index into the whole function space)
// and returns.
func withCallBody(b []byte, i int, callee uint32) ([]byte, error) {
	body := append(appendUleb([]byte{0, opCall}, callee), opEnd) // no locals
	body = append(appendUleb(nil, uint32(len(body))), body...)
	count, p, err := uleb(b, 0)
	if err != nil {
		return nil, err
	}
	if i < 0 || i >= int(count) {
		return nil, fmt.Errorf("%w: no function body %d", ErrUnsupported, i)
	}
	out := append([]byte(nil), b[:p]...)
	for j := range int(count) {
		size, k, err := uleb(b, p)
		if err != nil {
			return nil, err
		}
		end := p + k + int(size)
		if end > len(b) {
			return nil, fmt.Errorf("%w: code section truncated", ErrUnsupported)
		}
		if j == i {
			out = append(out, body...)
		} else {
			out = append(out, b[p:end]...)
		}
		p = end
	}
	return out, nil
}

// memoryMin returns the memory section b with its one memory's minimum set
// to pages, keeping its maximum if it has one.
func memoryMin(b []byte, pages uint32) ([]byte, error) {
	if len(b) < 3 || b[0] != 1 || b[1] > 1 {
		return nil, fmt.Errorf("%w: not one 32-bit memory", ErrUnsupported)
	}
	_, n, err := uleb(b, 2)
	if err != nil {
		return nil, err
	}
	out := appendUleb([]byte{1, b[1]}, pages)
	return append(out, b[2+n:]...), nil
}

// rebuild returns m with the sections whose id replace holds replaced by
// their new contents.
func rebuild(m []byte, secs []section, replace map[byte][]byte) []byte {
	out := append(make([]byte, 0, len(m)), m[:8]...)
	for _, s := range secs {
		body, ok := replace[s.id]
		if !ok {
			out = append(out, m[s.hdr:s.end]...)
			continue
		}
		out = append(out, s.id)
		out = appendUleb(out, uint32(len(body)))
		out = append(out, body...)
	}
	return out
}

// Preinit returns the wasip1 reactor module pre-initialised: its data
// segments are its memory after _initialize (runs of non-zero bytes joined
// across gaps of at most maxGap zeros, as MergeData joins them), its memory
// starts at the size _initialize left it, its globals start at the values
// _initialize left them, and _initialize calls ReseedExport, which is no
// longer exported. The module must not
// import anything but functions and must have one memory and constant
// globals, as the Go linker writes them.
func Preinit(ctx context.Context, module []byte, maxGap int) ([]byte, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	for _, id := range []byte{sectionFunc, sectionExport, sectionGlobal, sectionMemory, sectionCode, sectionData} {
		if find(secs, id) == nil {
			return nil, fmt.Errorf("%w: no section %d", ErrUnsupported, id)
		}
	}
	if find(secs, sectionDataCount) != nil {
		return nil, fmt.Errorf("%w: it has a data count section", ErrUnsupported)
	}
	sec := func(id byte) []byte { s := find(secs, id); return module[s.start:s.end] }
	nImports := 0
	if imp := find(secs, sectionImport); imp != nil {
		if nImports, err = importedFuncs(module[imp.start:imp.end]); err != nil {
			return nil, err
		}
	}
	initFn, err := exportedFunc(sec(sectionExport), "_initialize")
	if err != nil {
		return nil, err
	}
	if initFn < nImports {
		return nil, fmt.Errorf("%w: no _initialize defined in the module", ErrUnsupported)
	}
	reseedFn, err := exportedFunc(sec(sectionExport), ReseedExport)
	if err != nil {
		return nil, err
	}
	if reseedFn < nImports {
		return nil, fmt.Errorf("%w: no %s defined in the module", ErrUnsupported, ReseedExport)
	}
	initType, err := funcType(sec(sectionFunc), initFn-nImports)
	if err != nil {
		return nil, err
	}
	if t, err := funcType(sec(sectionFunc), reseedFn-nImports); err != nil {
		return nil, err
	} else if t != initType {
		return nil, fmt.Errorf("%w: %s is not of _initialize's type", ErrUnsupported, ReseedExport)
	}
	globals, err := parseGlobals(sec(sectionGlobal))
	if err != nil {
		return nil, err
	}
	exports, err := withGlobalExports(sec(sectionExport), len(globals))
	if err != nil {
		return nil, err
	}

	// Run _initialize on a copy that exports every global.
	r := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCloseOnContextDone(true))
	defer r.Close(ctx)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, r); err != nil {
		return nil, err
	}
	probe := rebuild(module, secs, map[byte][]byte{sectionExport: exports})
	// The monotonic clock stands at 1 ns throughout (Go's runtime refuses
	// 0): every time the runtime records is then the instance's start, as a
	// host whose monotonic clock starts with the instance (the package's
	// WASI shim) reads it.
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions().
		WithNanotime(func() int64 { return 1 }, 1)
	mod, err := r.InstantiateWithConfig(ctx, probe, cfg)
	if err != nil {
		return nil, fmt.Errorf("postlink: instantiating the module: %w", err)
	}
	if _, err := mod.ExportedFunction("_initialize").Call(ctx); err != nil {
		return nil, fmt.Errorf("postlink: running _initialize: %w", err)
	}
	for i := range globals {
		g := mod.ExportedGlobal(fmt.Sprintf("%s%d", globalPrefix, i))
		if g == nil {
			return nil, fmt.Errorf("postlink: global %d not readable", i)
		}
		if globals[i].typ == 0x7f {
			globals[i].value = int64(int32(uint32(g.Get())))
		} else {
			globals[i].value = int64(g.Get())
		}
	}
	mem, ok := mod.Memory().Read(0, mod.Memory().Size())
	if !ok {
		return nil, fmt.Errorf("postlink: memory not readable")
	}

	var segs []segment
	for p := 0; p < len(mem); {
		for p < len(mem) && mem[p] == 0 {
			p++
		}
		q := p
		for q < len(mem) && mem[q] != 0 {
			q++
		}
		if q > p {
			segs = append(segs, segment{offset: uint32(p), data: mem[p:q]})
		}
		p = q
	}
	memory, err := memoryMin(sec(sectionMemory), uint32(len(mem)/pageSize))
	if err != nil {
		return nil, err
	}
	code, err := withCallBody(sec(sectionCode), initFn-nImports, uint32(reseedFn))
	if err != nil {
		return nil, err
	}
	exported, err := withoutExport(sec(sectionExport), ReseedExport)
	if err != nil {
		return nil, err
	}
	return rebuild(module, secs, map[byte][]byte{
		sectionExport: exported,
		sectionGlobal: encodeGlobals(globals),
		sectionMemory: memory,
		sectionCode:   code,
		sectionData:   encodeData(merge(segs, maxGap)),
	}), nil
}
