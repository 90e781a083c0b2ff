//go:build wasip1

package main

import (
	"strconv"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
)

// The exports both variants share: loading encodings, their handles and the
// count fast path, over core/engine (core's Encoding is engine's). Each
// variant has its own fail and recovered: the full one answers errors as
// core does, the lean one without core.

// handles are the handles given out: handle h is handles[h-1], a built-in
// encoding or (the full variant) the name of a loaded tokenizer.
var handles []handleOf

type handleOf struct {
	e         *engine.Encoding
	tokenizer string
}

func invalidHandle(h int32) error {
	return &boundary.Error{Err: boundary.ErrInvalidHandle, Detail: strconv.Itoa(int(h))}
}

// invalid is the invalid_request error of a field.
func invalid(field, reason string) error {
	return &engine.Error{Err: engine.ErrInvalidRequest, Field: field, Detail: ": " + field + ": " + reason}
}

// enc returns the encoding of handle h.
func enc(h int32) (*engine.Encoding, error) {
	if h <= 0 || int(h) > len(handles) || handles[h-1].e == nil {
		return nil, invalidHandle(h)
	}
	return handles[h-1].e, nil
}

// encText returns the encoding of h and the n bytes of text at ptr.
func encText(h int32, ptr, n uint32) (*engine.Encoding, string, error) {
	e, err := enc(h)
	if err != nil {
		return nil, "", err
	}
	s, err := str(ptr, n)
	return e, s, err
}

// handle returns the handle of e, giving it one the first time.
func handle(e *engine.Encoding) int32 {
	for i, x := range handles {
		if x.e == e {
			return int32(i + 1)
		}
	}
	handles = append(handles, handleOf{e: e})
	return int32(len(handles))
}

// loadTable loads an encoding from a vocabulary table (a .tkt file) and
// returns its handle (> 0), or a negative status. Loading an encoding that
// is already loaded returns its handle. The table buffer stays the host's.
//
//go:wasmexport load_table
func loadTable(ptr, n uint32) (h int32) {
	defer endGCCycle()
	defer rescue(&h)
	b, err := view(ptr, n)
	if err != nil {
		return fail(err)
	}
	defer pauseGC()()
	e, err := engine.Load(b)
	if err != nil {
		return fail(err)
	}
	return handle(e)
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
	defer endGCCycle()
	defer rescue(&h)
	b, err := view(ptr, n)
	if err != nil {
		return fail(err)
	}
	defer pauseGC()()
	e, err := engine.LoadPacked(b)
	if err != nil {
		return fail(err)
	}
	return handle(e)
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
	defer endGCCycle()
	defer rescue(&h)
	b, err := view(tptr, tn)
	if err != nil {
		return fail(err)
	}
	idx, err := view(iptr, in)
	if err != nil {
		return fail(err)
	}
	defer pauseGC()()
	e, err := engine.LoadIndexed(b, idx)
	if err != nil {
		return fail(err)
	}
	delete(bufs, tptr) // the table and the index are the encoding's now
	delete(bufs, iptr)
	return handle(e)
}

// encodingHandle returns the handle of a loaded encoding named by the n
// bytes at ptr (in the full variant, or of a tokenizer loaded under that
// name), or a negative status (encoding_not_loaded, unknown_encoding).
//
//go:wasmexport encoding_handle
func encodingHandle(ptr, n uint32) (h int32) {
	defer endGCCycle()
	defer rescue(&h)
	s, err := str(ptr, n)
	if err != nil {
		return fail(err)
	}
	h, err = handleNamed(s)
	if err != nil {
		return fail(err)
	}
	return h
}

// count returns the number of tokens in the n bytes at ptr with the encoding
// (or tokenizer) h, or a negative status. The text is read in place.
//
//go:wasmexport count
func count(h int32, ptr, n uint32) (c int32) {
	defer endGCCycle()
	defer rescue(&c)
	t, err := counter(h)
	if err != nil {
		return fail(err)
	}
	s, err := str(ptr, n)
	if err != nil {
		return fail(err)
	}
	return int32(t.Count(s))
}
