//go:build wasip1 && !tokenfit_lite

// The full variant: core's whole JSON API through call, and the count fast
// path. wasm/exports.txt lists its exports.

package main

import (
	"fmt"
	"unsafe"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/wasm/internal/abi"
)

// api is made on the first call: building the model registry costs a JSON
// decode that a host which only counts (the count fast path) never needs,
// and it would otherwise run inside _initialize.
var api *core.API

func theAPI() *core.API {
	if api == nil {
		api = core.NewAPI()
	}
	return api
}

// encodings are the handles given out: handle h is encodings[h-1].
var encodings []*core.Encoding

// fail records err for last_error and returns its status number.
func fail(err error) int32 {
	lastErr = abi.ErrorJSON(err)
	return abi.Status(err)
}

func recovered(p any) error { return abi.Recovered(p) }

// loadTable loads an encoding from a vocabulary table (a .tkt file) and
// returns its handle (> 0), or a negative status. Loading an encoding that
// is already loaded returns its handle. The table buffer stays the host's.
//
//go:wasmexport load_table
func loadTable(ptr, n uint32) (h int32) {
	defer func() {
		if p := recover(); p != nil {
			h = fail(abi.Recovered(p))
		}
	}()
	b, err := view(ptr, n)
	if err != nil {
		return fail(err)
	}
	defer pauseGC()()
	e, err := core.LoadEncoding(b)
	if err != nil {
		return fail(err)
	}
	return handle(e)
}

// loadIndexed is load_table with the table's prebuilt index (tokenfit's
// .tkx files; core/engine.Index): the encoding's look-up structures are
// used as they are rather than built, which in a cold instance saves most
// of a table load. The index must have been made for this table; both are
// trusted as the module is (the table's checksum is not recomputed). The
// index buffer is taken over: the module keeps it, and the host must not
// write to it again (freeing it is harmless). The table buffer stays the
// host's.
//
//go:wasmexport load_indexed
func loadIndexed(tptr, tn, iptr, in uint32) (h int32) {
	defer func() {
		if p := recover(); p != nil {
			h = fail(abi.Recovered(p))
		}
	}()
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
	delete(bufs, iptr) // the index is the encoding's now
	return handle(e)
}

// encodingHandle returns the handle of a loaded encoding named by the n
// bytes at ptr, or a negative status (encoding_not_loaded, unknown_encoding).
//
//go:wasmexport encoding_handle
func encodingHandle(ptr, n uint32) (h int32) {
	defer func() {
		if p := recover(); p != nil {
			h = fail(abi.Recovered(p))
		}
	}()
	b, err := view(ptr, n)
	if err != nil {
		return fail(err)
	}
	e, err := core.GetEncoding(string(b))
	if err != nil {
		return fail(err)
	}
	return handle(e)
}

func handle(e *core.Encoding) int32 {
	for i, x := range encodings {
		if x == e {
			return int32(i + 1)
		}
	}
	encodings = append(encodings, e)
	return int32(len(encodings))
}

// count returns the number of tokens in the n bytes at ptr with the encoding
// h, or a negative status. The text is read in place, not copied; it stays
// the host's.
//
//go:wasmexport count
func count(h int32, ptr, n uint32) (c int32) {
	defer func() {
		if p := recover(); p != nil {
			c = fail(abi.Recovered(p))
		}
	}()
	if h <= 0 || int(h) > len(encodings) {
		return fail(fmt.Errorf("%w %d", abi.ErrInvalidHandle, h))
	}
	b, err := view(ptr, n)
	if err != nil {
		return fail(err)
	}
	return int32(encodings[h-1].Count(unsafe.String(unsafe.SliceData(b), len(b))))
}

// call runs one operation of core's JSON API: the operation name is the
// opLen bytes at opPtr, the request the reqLen bytes at reqPtr. It returns a
// new buffer holding the JSON answer (an error answer included) as
// (address << 32 | length); the host reads it, then frees it. 0 means no
// answer could be made (see last_error).
//
//go:wasmexport call
func call(opPtr, opLen, reqPtr, reqLen uint32) (res uint64) {
	defer func() {
		if p := recover(); p != nil {
			res = pack(abi.ErrorJSON(abi.Recovered(p)))
		}
	}()
	op, err := view(opPtr, opLen)
	if err != nil {
		return pack(abi.ErrorJSON(err))
	}
	req, err := view(reqPtr, reqLen)
	if err != nil {
		return pack(abi.ErrorJSON(err))
	}
	// No copy: core decodes the request into values of its own (strings
	// and json.RawMessage are copied out) and keeps no reference to it
	// after the call, so the host may reuse the buffer. A copy would cost as
	// much memory again as the request, for good.
	return pack(theAPI().Call(string(op), req))
}
