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
// bytes.
const (
	pcHeaderMagic = "\xf1\xff\xff\xff\x00\x00\x01\x08" // magic 0xfffffff1, two pad bytes, minLC 1, ptrSize 8
	pcHeaderSize  = 8 + 8*8
	funcSize      = 44 // _func up to its pcdata offsets
	funcPCFile    = 20 // offsets of _func's pcfile and pcln fields
	funcPCLine    = 24
)

// StripLines returns module with the file and line tables of Go's function
// table zeroed: every function's pcfile and pcln become 0 (no table), and
// the tables no other field uses, the file names and the compilation units'
// lists of them become zero bytes, which MergeData then leaves out. The runtime reads those tables only to print a file and line
// (runtime.funcline1, for tracebacks, runtime.Stack and runtime.Caller),
// and prints "?:0" for a function without them; stack sizes, stack maps and
// inlining have tables of their own, which are kept. See RATIONALE.md,
// "Why is there a step after the Go linker?".
//
// A module already stripped comes back unchanged. A module with no Go
// function table, or one that does not read as go1.20's to go1.26's, is
// ErrUnsupported.
func StripLines(module []byte) ([]byte, error) {
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
		if stripTable(mem[p:], int(nfunc)) == nil {
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

// stripTable checks that t starts with a function table for nfunc
// functions and, only if all of it reads as one, zeroes its file and line
// tables in place.
func stripTable(t []byte, nfunc int) error {
	if len(t) < pcHeaderSize {
		return ErrUnsupported
	}
	u64 := func(off int) uint64 { return binary.LittleEndian.Uint64(t[off:]) }
	if u64(8) != uint64(nfunc) {
		return fmt.Errorf("%w: %d functions in the table, %d in the code", ErrUnsupported, u64(8), nfunc)
	}
	nameOff, cuOff, fileOff, pcOff, funcOff := u64(32), u64(40), u64(48), u64(56), u64(64)
	if !(pcHeaderSize <= nameOff && nameOff <= cuOff && cuOff <= fileOff && fileOff <= pcOff && pcOff < funcOff &&
		funcOff+8*uint64(nfunc+1) <= uint64(len(t))) {
		return fmt.Errorf("%w: the function table's offsets are out of order", ErrUnsupported)
	}
	pctab, fns := t[pcOff:funcOff], t[funcOff:]
	u32 := func(b []byte, off int) int { return int(binary.LittleEndian.Uint32(b[off:])) }

	// Every function's tables: keep marks the bytes of those that stay,
	// lines lists the file and line tables.
	keep := make([]bool, len(pctab))
	var lines []int
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
		for j := range 1 + npcdata { // pcsp, then the pcdata tables
			at := 16
			if j > 0 {
				at = funcSize + 4*(j-1)
			}
			n, err := tableLen(pctab, u32(f, at))
			if err != nil {
				return err
			}
			for k := u32(f, at); k < u32(f, at)+n; k++ {
				keep[k] = true
			}
		}
		lines = append(lines, u32(f, funcPCFile), u32(f, funcPCLine))
	}
	lens := make([]int, len(lines))
	for i, off := range lines {
		n, err := tableLen(pctab, off)
		if err != nil {
			return err
		}
		lens[i] = n
	}
	// All of it read: now write.
	for i, off := range lines {
		for k := off; k < off+lens[i]; k++ {
			if !keep[k] {
				pctab[k] = 0
			}
		}
	}
	for _, f := range funcs {
		clear(f[funcPCFile : funcPCLine+4])
	}
	clear(t[cuOff:pcOff]) // the compilation units' file lists and the file names: read only for a file table
	return nil
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
// MaxGap zero bytes (the zeros StripLines wrote), into segments without
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
