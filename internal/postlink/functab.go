package postlink

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"slices"
)

// The Go runtime's function table (runtime/symtab.go, the same since
// go1.20): a pcHeader, then the function names, the compilation units, the
// file names, the pc-value tables (pctab) and the functions (pclntab: an
// index of {entry, offset} pairs, then each _func with its pcdata and
// funcdata offsets). On wasm the header's minLC is 1 and pointers are 8
// bytes. A funcdata offset is from moduledata.gofunc; the linker writes
// the moduledata, which points at the header, into the data too.
const (
	pcHeaderMagic = "\xf1\xff\xff\xff\x00\x00\x01\x08" // magic 0xfffffff1, two pad bytes, minLC 1, ptrSize 8
	pcHeaderSize  = 8 + 8*8
	funcSize      = 44 // _func up to its pcdata offsets
	funcNameOff   = 4  // offsets of _func's fields
	funcPCFile    = 20
	funcPCLine    = 24
	funcCUOffset  = 32 // then startLine
	inlCallSize   = 16 // runtime.inlinedCall

	// moduledata's fields: funcnametab, pctab and ftab (slices: pointer,
	// length, capacity), rodata, gofunc and epclntab.
	mdFuncnametab = 8
	mdPctab       = 80
	mdFtab        = 128
	mdRodata      = 312
	mdGofunc      = 320
	mdEpclntab    = 328
)

// The pc-value tables and funcdata a _func lists, by index (internal/abi,
// the same since go1.21; TestStrip_ABI holds them to the toolchain's).
const (
	pcdataUnsafePoint   = 0
	pcdataInlTreeIndex  = 2
	pcdataArgLiveIndex  = 3
	funcdataInlTree     = 3
	funcdataArgInfo     = 5
	funcdataArgLiveInfo = 6
	noFuncdata          = 0xffffffff

	argInfoEnd    = 0xff // the ends of an argument info's entries (runtime.printArgs)
	argInfoNoSize = 0xfb // this and above: a marker without a size byte
)

// Strip returns module with the parts of Go's function table that the
// module never reads, or reads only for a traceback's details, zeroed,
// which MergeData then leaves out:
//
//   - the file and line tables (every _func's pcfile and pcln, the file
//     names and the compilation units' lists of them, each function's
//     compilation unit and start line): runtime.funcline1 reads them to
//     print a frame's file and line, and prints "?:0" without them;
//     profilers read the start line;
//   - the inlining tables (the InlTreeIndex pc-value tables, the inlining
//     trees, and the names only they named): read to expand a pc into the
//     calls inlined at it, for tracebacks and runtime.Callers; a frame then
//     names the function the code was inlined into;
//   - the argument tables (ArgLiveIndex, FUNCDATA_ArgInfo and ArgLiveInfo):
//     read only to print a frame's arguments, which a traceback then leaves
//     out: "main.f()";
//   - the asynchronous preemption tables (PCDATA_UnsafePoint): wasm has no
//     asynchronous preemption (the runtime's preemptMSupported), so
//     nothing reads them.
//
// Function names, stack sizes, stack maps, stack objects, open-coded
// defers and wrapper information stay: the collector, stack growth, panics
// and a traceback's function names read them. See RATIONALE.md, "Why is
// there a step after the Go linker?".
//
// A module already stripped comes back unchanged. A module with no Go
// function table, or one that does not read as go1.21's to go1.26's, is
// ErrUnsupported.
func Strip(module []byte) ([]byte, error) {
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	code, data := find(secs, sectionCode), find(secs, sectionData)
	if code == nil || data == nil {
		return nil, fmt.Errorf("%w: no code or no data section", ErrUnsupported)
	}
	nfunc, _, err := uleb(module, code.start)
	if err != nil {
		return nil, err
	}
	segs, err := parseData(module[data.start:data.end])
	if err != nil {
		return nil, err
	}
	if len(segs) == 0 {
		return nil, fmt.Errorf("%w: no data", ErrUnsupported)
	}
	base := segs[0].offset
	last := segs[len(segs)-1]
	mem := make([]byte, last.offset+uint32(len(last.data))-base)
	for _, s := range segs {
		copy(mem[s.offset-base:], s.data)
	}
	found := 0
	for p := 0; ; p++ {
		i := bytes.Index(mem[p:], []byte(pcHeaderMagic))
		if i < 0 {
			break
		}
		p += i
		if stripTable(mem, base, p, int(nfunc)) == nil {
			found++
		}
	}
	if found > 1 {
		return nil, fmt.Errorf("%w: %d Go function tables", ErrUnsupported, found)
	}
	if found == 0 {
		return nil, fmt.Errorf("%w: no Go function table (pcHeader) for %d functions", ErrUnsupported, nfunc)
	}
	var out []segment
	for _, s := range segs {
		out = append(out, split(mem[s.offset-base:][:len(s.data)], s.offset)...)
	}
	body := encodeData(out)
	res := append(slices.Clip(module[:data.hdr]), sectionData)
	res = appendUleb(res, uint32(len(body)))
	res = append(res, body...)
	return append(res, module[data.end:]...), nil
}

// stripTable checks that mem[at:] (memory from address base) starts with a
// function table for nfunc functions, with its moduledata, and, only if
// all of it reads as one, zeroes what Strip drops in place.
func stripTable(mem []byte, base uint32, at, nfunc int) error {
	t := mem[at:]
	if len(t) < pcHeaderSize {
		return ErrUnsupported
	}
	u64 := func(b []byte, off int) uint64 { return binary.LittleEndian.Uint64(b[off:]) }
	if u64(t, 8) != uint64(nfunc) {
		return fmt.Errorf("%w: %d functions in the table, %d in the code", ErrUnsupported, u64(t, 8), nfunc)
	}
	nameOff, cuOff, fileOff, pcOff, funcOff := u64(t, 32), u64(t, 40), u64(t, 48), u64(t, 56), u64(t, 64)
	if !(pcHeaderSize <= nameOff && nameOff <= cuOff && cuOff <= fileOff && fileOff <= pcOff && pcOff < funcOff &&
		funcOff+8*uint64(nfunc+1) <= uint64(len(t))) {
		return fmt.Errorf("%w: the function table's offsets are out of order", ErrUnsupported)
	}
	names, pctab, fns := t[nameOff:cuOff], t[pcOff:funcOff], t[funcOff:]
	gofunc, err := findGofunc(mem, uint64(base), uint64(base)+uint64(at), nameOff, cuOff, pcOff, funcOff)
	if err != nil {
		return err
	}
	u32 := func(b []byte, off int) int { return int(binary.LittleEndian.Uint32(b[off:])) }

	// Read every function: keep marks the pc-value tables' bytes that stay
	// and keepName the names; dropped lists the tables that go, gone the
	// funcdata bytes that go, kept where in mem each funcdata that stays
	// starts.
	keep := make([]bool, len(pctab))
	keepName := make([]bool, len(names))
	var dropped []int
	var gone []span
	kept := map[int]bool{}
	funcs := make([][]byte, nfunc)
	for i := range nfunc {
		entry, off := u32(fns, 8*i), u32(fns, 8*i+4)
		if off+funcSize > len(fns) {
			return fmt.Errorf("%w: function %d lies outside the table", ErrUnsupported, i)
		}
		f := fns[off:]
		npcdata, nfuncdata := u32(f, 28), int(f[43])
		if u32(f, 0) != entry || off+funcSize+4*(npcdata+nfuncdata) > len(fns) {
			return fmt.Errorf("%w: function %d does not read as a _func", ErrUnsupported, i)
		}
		funcs[i] = f
		name := u32(f, funcNameOff)
		end := bytes.IndexByte(names[min(name, len(names)):], 0)
		if end < 0 {
			return fmt.Errorf("%w: function %d's name lies outside the table", ErrUnsupported, i)
		}
		for k := name; k <= name+end; k++ {
			keepName[k] = true
		}
		inlined := -1                // the highest index into the inlining tree
		for j := range 1 + npcdata { // pcsp, then the pcdata tables
			field := 16
			if j > 0 {
				field = funcSize + 4*(j-1)
			}
			switch j - 1 {
			case pcdataInlTreeIndex:
				vals, err := tableValues(pctab, u32(f, field))
				if err != nil {
					return err
				}
				for _, v := range vals {
					inlined = max(inlined, v)
				}
				fallthrough
			case pcdataUnsafePoint, pcdataArgLiveIndex:
				dropped = append(dropped, u32(f, field))
				continue
			}
			n, err := tableLen(pctab, u32(f, field))
			if err != nil {
				return err
			}
			for k := u32(f, field); k < u32(f, field)+n; k++ {
				keep[k] = true
			}
		}
		dropped = append(dropped, u32(f, funcPCFile), u32(f, funcPCLine))
		for j := range nfuncdata {
			d := u32(f, funcSize+4*npcdata+4*j)
			if d == noFuncdata {
				continue
			}
			if gofunc+d >= len(mem) {
				return fmt.Errorf("%w: function %d's funcdata %d lies outside memory", ErrUnsupported, i, j)
			}
			switch j {
			case funcdataInlTree:
				if gofunc+d+inlCallSize*(inlined+1) > len(mem) {
					return fmt.Errorf("%w: function %d's inlining tree lies outside memory", ErrUnsupported, i)
				}
				gone = append(gone, span{gofunc + d, inlCallSize * (inlined + 1)})
			case funcdataArgInfo:
				n, err := argInfoLen(mem[gofunc+d:])
				if err != nil {
					return err
				}
				gone = append(gone, span{gofunc + d, n})
			case funcdataArgLiveInfo:
				// Its length is not in it: the offset goes, its bytes stay.
			default:
				kept[gofunc+d] = true
			}
		}
	}
	lens := make([]int, len(dropped))
	for i, off := range dropped {
		n, err := tableLen(pctab, off)
		if err != nil {
			return err
		}
		lens[i] = n
	}

	// All of it read: now write.
	for i, off := range dropped {
		for k := off; k < off+lens[i]; k++ {
			if !keep[k] {
				pctab[k] = 0
			}
		}
	}
	for _, g := range gone {
		// A funcdata symbol's bytes may be shared with another's of the
		// same content: one that stays keeps them.
		shared := false
		for k := g.at; k < g.at+g.n; k++ {
			shared = shared || kept[k]
		}
		if !shared {
			clear(mem[g.at : g.at+g.n])
		}
	}
	for _, f := range funcs {
		npcdata, nfuncdata := u32(f, 28), int(f[43])
		clear(f[funcPCFile : funcPCLine+4])
		clear(f[funcCUOffset : funcCUOffset+8])
		for _, j := range []int{pcdataUnsafePoint, pcdataInlTreeIndex, pcdataArgLiveIndex} {
			if j < npcdata {
				clear(f[funcSize+4*j:][:4])
			}
		}
		for _, j := range []int{funcdataInlTree, funcdataArgInfo, funcdataArgLiveInfo} {
			if j < nfuncdata {
				binary.LittleEndian.PutUint32(f[funcSize+4*npcdata+4*j:], noFuncdata)
			}
		}
	}
	for k := range names {
		if !keepName[k] {
			names[k] = 0 // a name only an inlining tree gave
		}
	}
	clear(t[cuOff:pcOff]) // the compilation units' file lists and the file names: read only for a file table
	return nil
}

// findGofunc returns the offset in mem (memory from address base) of
// moduledata.gofunc for the function table at address table, whose header
// gives its parts' offsets: the one moduledata whose pointers and lengths
// are that table's.
func findGofunc(mem []byte, base, table, nameOff, cuOff, pcOff, funcOff uint64) (int, error) {
	var key [8]byte
	binary.LittleEndian.PutUint64(key[:], table)
	u64 := func(at, off int) uint64 { return binary.LittleEndian.Uint64(mem[at+off:]) }
	md := -1
	for p := 0; ; p += 8 {
		i := bytes.Index(mem[p:], key[:])
		if i < 0 {
			break
		}
		p += i
		if p+mdEpclntab+8 > len(mem) || u64(p, mdFuncnametab) != table+nameOff || u64(p, mdFuncnametab+8) != cuOff-nameOff ||
			u64(p, mdPctab) != table+pcOff || u64(p, mdPctab+8) != funcOff-pcOff || u64(p, mdFtab) != table+funcOff {
			continue
		}
		if md >= 0 {
			return 0, fmt.Errorf("%w: two moduledata for one function table", ErrUnsupported)
		}
		md = p
	}
	if md < 0 {
		return 0, fmt.Errorf("%w: no moduledata for the function table", ErrUnsupported)
	}
	gofunc, rodata, end := u64(md, mdGofunc), u64(md, mdRodata), u64(md, mdEpclntab)
	if !(rodata <= gofunc && base <= gofunc && gofunc < end && end <= base+uint64(len(mem))) {
		return 0, fmt.Errorf("%w: moduledata's gofunc is not within its read-only data", ErrUnsupported)
	}
	return int(gofunc - base), nil
}

// span is n bytes of memory at offset at.
type span struct{ at, n int }

// argInfoLen is the length of the argument info at b: runtime.printArgs's
// entries up to argInfoEnd, each an offset and a size but for markers.
func argInfoLen(b []byte) (int, error) {
	for p := 0; p < len(b); p++ {
		switch c := b[p]; {
		case c == argInfoEnd:
			return p + 1, nil
		case c < argInfoNoSize:
			p++ // its size
		}
	}
	return 0, fmt.Errorf("%w: an argument info runs past the end", ErrUnsupported)
}

// tableValues returns the values of the pc-value table at pctab[off:], in
// order; offset 0 is no table.
func tableValues(pctab []byte, off int) ([]int, error) {
	n, err := tableLen(pctab, off)
	if err != nil || n == 0 {
		return nil, err
	}
	var vals []int
	v := int64(-1)
	for p := off; p < off+n-1; {
		d, k, _ := uleb(pctab, p) // tableLen read them
		if d&1 != 0 {
			v -= int64(d>>1) + 1
		} else {
			v += int64(d >> 1)
		}
		vals = append(vals, int(v))
		_, m, _ := uleb(pctab, p+k)
		p += k + m
	}
	return vals, nil
}

// tableLen is the length of the pc-value table at pctab[off:]: pairs of
// varints (a value delta, then a pc delta), ended by a value delta of 0
// after the first pair. Offset 0 is no table.
func tableLen(pctab []byte, off int) (int, error) {
	if off == 0 {
		return 0, nil
	}
	for p, first := off, true; ; first = false {
		if p >= len(pctab) {
			return 0, fmt.Errorf("%w: a pc-value table runs past the end", ErrUnsupported)
		}
		if pctab[p] == 0 && !first {
			return p + 1 - off, nil
		}
		for range 2 {
			_, n, err := uleb(pctab, p)
			if err != nil {
				return 0, err
			}
			p += n
		}
	}
}

// split cuts data, which starts at offset, at every run of more than
// MaxGap zero bytes (the zeros Strip wrote), into segments without
// those zeros; data without such a run comes back as the one segment.
func split(data []byte, offset uint32) []segment {
	var out []segment
	start, zeros := 0, 0 // the segment under way, and the zeros that end data[start:i]
	for i, c := range data {
		if c == 0 {
			zeros++
			continue
		}
		if zeros > MaxGap {
			if i-zeros > start {
				out = append(out, segment{offset + uint32(start), data[start : i-zeros]})
			}
			start = i
		}
		zeros = 0
	}
	end := len(data)
	if zeros > MaxGap {
		end -= zeros
	}
	if end > start {
		out = append(out, segment{offset + uint32(start), data[start:end]})
	}
	return out
}
