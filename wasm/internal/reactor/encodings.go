//go:build wasip1

package reactor

import (
	"strconv"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
)

// The exports every module has: loading encodings and their handles, over
// core/engine (core's Encoding is engine's). encoding_handle and count,
// the fast path, are each module's own (packages lean and full): the full
// module also counts by a loaded tokenizer's handle.

// handles are the handles given out: handle h is handles[h-1], a built-in
// encoding, or nil for one the variant reserved (Reserve: a loaded
// tokenizer's, in the full module).
var handles []*engine.Encoding

func invalidHandle(h int32) error {
	return &boundary.Error{Err: boundary.ErrInvalidHandle, Detail: strconv.Itoa(int(h))}
}

// Invalid is the invalid_request error of a field.
func Invalid(field, reason string) error {
	return &engine.Error{Err: engine.ErrInvalidRequest, Field: field, Detail: ": " + field + ": " + reason}
}

// Encoding returns the encoding of handle h.
func Encoding(h int32) (*engine.Encoding, error) {
	if h <= 0 || int(h) > len(handles) || handles[h-1] == nil {
		return nil, invalidHandle(h)
	}
	return handles[h-1], nil
}

// EncodingText returns the encoding of h and the n bytes of text at ptr.
func EncodingText(h int32, ptr, n uint32) (*engine.Encoding, string, error) {
	e, err := Encoding(h)
	if err != nil {
		return nil, "", err
	}
	s, err := Text(ptr, n)
	return e, s, err
}

// Handle returns the handle of e, giving it one the first time.
func Handle(e *engine.Encoding) int32 {
	for i, x := range handles {
		if x == e {
			return int32(i + 1)
		}
	}
	handles = append(handles, e)
	return int32(len(handles))
}

// loadTable loads an encoding from a vocabulary table (a .tkt file) and
// returns its handle (> 0), or a negative status. Loading an encoding that
// is already loaded returns its handle. The table buffer stays the host's.
//
//go:wasmexport load_table
func loadTable(ptr, n uint32) (h int32) {
	defer EndGCCycle()
	defer Rescue(&h)
	b, err := View(ptr, n)
	if err != nil {
		return Fail(err)
	}
	defer PauseGC()()
	e, err := engine.Load(b)
	if err != nil {
		return Fail(err)
	}
	return Handle(e)
}

// loadPacked is load_table for a table in its transport form (a .tkp
// file, what pages download): the module expands it into a buffer of its
// own (Go's loops, compiled, where a host's JavaScript loop runs in V8's
// interpreter before it is optimised), checks it as load_table does and
// keeps that buffer, so the table's bytes are written once. The .tkp
// buffer stays the host's.
//
//go:wasmexport load_packed
func loadPacked(ptr, n uint32) (h int32) {
	defer EndGCCycle()
	defer Rescue(&h)
	b, err := View(ptr, n)
	if err != nil {
		return Fail(err)
	}
	defer PauseGC()()
	e, err := engine.LoadPacked(b)
	if err != nil {
		return Fail(err)
	}
	return Handle(e)
}

// loadIndexed is load_table with the table's prebuilt index (tokenfit's
// .tkx files; core/engine.Index): the encoding's look-up structures are
// used as they are rather than built, which in a cold instance saves most
// of a table load. The index must have been made for this table; both are
// checked against the digests the module carries. Both buffers are taken
// over once loaded: the module keeps them (the table's bytes are not
// copied: 1.5 MB of fresh memory for o200k_base), and the host must not
// write to them again (freeing them is harmless).
//
//go:wasmexport load_indexed
func loadIndexed(tptr, tn, iptr, in uint32) (h int32) {
	defer EndGCCycle()
	defer Rescue(&h)
	b, err := View(tptr, tn)
	if err != nil {
		return Fail(err)
	}
	idx, err := View(iptr, in)
	if err != nil {
		return Fail(err)
	}
	defer PauseGC()()
	e, err := engine.LoadIndexed(b, idx)
	if err != nil {
		return Fail(err)
	}
	delete(bufs, tptr) // the table and the index are the encoding's now
	delete(bufs, iptr)
	return Handle(e)
}

// Reserve returns a new handle for the module's own use (a loaded
// tokenizer's, in the full module): the exports that need an encoding
// refuse it (invalid_handle).
func Reserve() int32 {
	handles = append(handles, nil)
	return int32(len(handles))
}
