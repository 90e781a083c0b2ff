// Package postlink rewrites a WebAssembly module as the Go linker writes it
// into the same program in fewer bytes (whose tracebacks name no file, line,
// inlined call or argument): the step make wasm and
// host/internal/modbuild run after go build, so that both give the same
// bytes from the same sources.
//
// Go's linker writes linear memory's initial contents as one active data
// segment per run of non-zero bytes: about 47,700 segments for the full
// module, each with an offset expression and a length (5-9 bytes that
// compress badly, since every offset differs). Memory starts zeroed, so two
// segments separated by a few zero bytes initialise the same memory as one
// segment holding those zeros too. MergeData joins every such pair.
// Strip, before it, zeroes the parts of Go's function table that the
// runtime never reads on wasm or reads only for a traceback's file, lines,
// inlined calls and arguments. See RATIONALE.md, "Why is there a step after
// the Go linker?".
//
// Preinit pre-initialises a wasip1 reactor: its data segments are then its
// memory after _initialize, and its _initialize only re-seeds the runtime's
// random state. Apply, the step itself, pre-initialises the full reactor
// and merges the data of the others.
package postlink

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
)

// MaxGap is the longest run of zero bytes MergeData writes out to join two
// segments: past it, a segment header costs less than the zeros, compressed
// or not (measured in docs/perf/module-size.md).
const MaxGap = 64

// ErrUnsupported reports a module whose data is not in the form the Go
// linker writes: active segments for memory 0 at constant, increasing,
// non-overlapping offsets, and no data count section (which would let code
// name segments by index).
var ErrUnsupported = errors.New("postlink: data section not as the Go linker writes it")

const (
	sectionData      = 11
	sectionDataCount = 12
	opI32Const       = 0x41
	opEnd            = 0x0b
)

type segment struct {
	offset uint32
	data   []byte
}

// MergeData returns module with its data segments joined wherever at most
// maxGap zero bytes separate one from the next. The rest of the module is
// copied unchanged, so the result is a function of the input alone.
func MergeData(module []byte, maxGap int) ([]byte, error) {
	if len(module) < 8 || string(module[:4]) != "\x00asm" {
		return nil, fmt.Errorf("%w: not a WebAssembly module", ErrUnsupported)
	}
	out := append(make([]byte, 0, len(module)), module[:8]...)
	for p := 8; p < len(module); {
		id := module[p]
		size, n, err := uleb(module, p+1)
		if err != nil {
			return nil, err
		}
		start := p + 1 + n
		end := start + int(size)
		if end > len(module) || end < start {
			return nil, fmt.Errorf("%w: section %d runs past the end", ErrUnsupported, id)
		}
		switch id {
		case sectionDataCount:
			return nil, fmt.Errorf("%w: it has a data count section", ErrUnsupported)
		case sectionData:
			segs, err := parseData(module[start:end])
			if err != nil {
				return nil, err
			}
			body := encodeData(merge(segs, maxGap))
			out = append(out, id)
			out = appendUleb(out, uint32(len(body)))
			out = append(out, body...)
		default:
			out = append(out, module[p:end]...)
		}
		p = end
	}
	return out, nil
}

func parseData(b []byte) ([]segment, error) {
	count, p, err := uleb(b, 0)
	if err != nil {
		return nil, err
	}
	segs := make([]segment, 0, count)
	for range count {
		// flags 0 (active, memory 0), then i32.const offset; end
		if p+2 > len(b) || b[p] != 0 || b[p+1] != opI32Const {
			return nil, fmt.Errorf("%w: segment %d is not active at a constant offset", ErrUnsupported, len(segs))
		}
		off, n, err := sleb32(b, p+2)
		if err != nil {
			return nil, err
		}
		p += 2 + n
		if p >= len(b) || b[p] != opEnd {
			return nil, fmt.Errorf("%w: segment %d has an offset expression of more than one constant", ErrUnsupported, len(segs))
		}
		size, n, err := uleb(b, p+1)
		if err != nil {
			return nil, err
		}
		p += 1 + n
		if p+int(size) > len(b) {
			return nil, fmt.Errorf("%w: segment %d runs past the section", ErrUnsupported, len(segs))
		}
		segs = append(segs, segment{offset: uint32(off), data: b[p : p+int(size)]})
		p += int(size)
	}
	if p != len(b) {
		return nil, fmt.Errorf("%w: %d bytes after the last segment", ErrUnsupported, len(b)-p)
	}
	// The linker writes the writable data before the read-only data that
	// lies below it. Segments that do not overlap initialise memory the
	// same in any order, so sort them by address.
	slices.SortStableFunc(segs, func(a, b segment) int { return cmp.Compare(a.offset, b.offset) })
	var next uint64 // the first address the previous segment leaves free
	for _, s := range segs {
		if uint64(s.offset) < next {
			return nil, fmt.Errorf("%w: segments overlap at address %d", ErrUnsupported, s.offset)
		}
		next = uint64(s.offset) + uint64(len(s.data))
	}
	return segs, nil
}

// merge joins runs of segments whose gaps are at most maxGap bytes. The
// segments are in increasing order and do not overlap (parseData checks).
func merge(segs []segment, maxGap int) []segment {
	var out []segment
	owned := false // whether out's last segment's data is a buffer of merge's
	for _, s := range segs {
		if n := len(out); n > 0 {
			last := &out[n-1]
			gap := int64(s.offset) - int64(last.offset) - int64(len(last.data))
			if gap <= int64(maxGap) {
				if !owned {
					last.data = append([]byte(nil), last.data...)
					owned = true
				}
				last.data = append(last.data, make([]byte, gap)...)
				last.data = append(last.data, s.data...)
				continue
			}
		}
		out = append(out, s)
		owned = false
	}
	return out
}

func encodeData(segs []segment) []byte {
	b := appendUleb(nil, uint32(len(segs)))
	for _, s := range segs {
		b = append(b, 0, opI32Const)
		b = appendSleb(b, int64(int32(s.offset)))
		b = append(b, opEnd)
		b = appendUleb(b, uint32(len(s.data)))
		b = append(b, s.data...)
	}
	return b
}

// Apply is the post-link step of every tokenfit module: Strip, then
// a module that exports ReseedExport (the full and lean wasip1 reactors:
// a page saves and restores a memory image of either, which needs an
// _initialize that only re-seeds) is pre-initialised (Preinit, which
// merges its data as MergeData does) and any other (the GOOS=js module,
// whose state after start lives in JavaScript too) has its data merged
// (MergeData). Both with MaxGap.
func Apply(ctx context.Context, module []byte) ([]byte, error) {
	module, err := Strip(module)
	if err != nil {
		return nil, err
	}
	secs, err := sections(module)
	if err != nil {
		return nil, err
	}
	if exp := find(secs, sectionExport); exp != nil {
		if f, err := exportedFunc(module[exp.start:exp.end], ReseedExport); err != nil {
			return nil, err
		} else if f >= 0 {
			return Preinit(ctx, module, MaxGap)
		}
	}
	return MergeData(module, MaxGap)
}
