//go:build wasip1

// Command wasip1 is tokenfit as a WASI reactor: core's API behind a handful
// of //go:wasmexport functions over linear memory. Build it with
//
//	GOOS=wasip1 GOARCH=wasm go build -buildmode=c-shared -tags tokenfit_noembed \
//	    -trimpath -ldflags="-s -w -buildid=" -buildvcs=false -o tokenfit.wasm ./wasm/wasip1
//
// (make wasm does), call _initialize once, then the exports. The module
// carries no vocabulary: the host gives it the tables it needs through
// load_table. Names, signatures, ownership and errors are in wasm/ABI.md;
// wasm/exports.txt lists the exports and a test holds the module to it.
//
// Nothing here decides anything: each export checks that its pointers name
// live buffers, calls core, and recovers any panic into an error answer, so
// the instance keeps answering after bad input.
package main

import (
	"fmt"
	"unsafe"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/wasm/internal/abi"
)

// main does nothing: a reactor runs its exports, not main.
func main() {}

var api = core.NewAPI()

// maxAlloc bounds one buffer. A larger request is refused with an error
// rather than risk the runtime's fatal (unrecoverable) out-of-memory.
const maxAlloc = 1 << 30

// bufs holds every live buffer by the address of its first byte. Go's
// collector does not move objects, so an address stays valid while the
// buffer is referenced here. WebAssembly runs one thread, so no lock.
var bufs = map[uint32][]byte{}

// encodings are the handles given out: handle h is encodings[h-1].
var encodings []*core.Encoding

// lastErr is the error answer of the latest failed call, until last_error
// hands it over.
var lastErr []byte

func addr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// own registers b as a live buffer and returns its address.
func own(b []byte) uint32 {
	if len(b) == 0 {
		b = make([]byte, 1) // every buffer needs an address of its own
		b = b[:0]
	}
	p := addr(b)
	bufs[p] = b
	return p
}

// pack returns a buffer as (address << 32 | length), or 0 for none.
func pack(b []byte) uint64 {
	p := own(b)
	return uint64(p)<<32 | uint64(len(b))
}

// view returns the n bytes at ptr, which must start a live buffer that holds
// them. n == 0 needs no buffer.
func view(ptr, n uint32) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	b, ok := bufs[ptr]
	if !ok || uint64(n) > uint64(len(b)) {
		return nil, fmt.Errorf("%w: %d bytes at %#x are not inside a buffer from alloc", abi.ErrInvalidArgument, n, ptr)
	}
	return b[:n:n], nil
}

// fail records err for last_error and returns its status number.
func fail(err error) int32 {
	lastErr = abi.ErrorJSON(err)
	return abi.Status(err)
}

// abiVersion reports the ABI version (wasm/ABI.md).
//
//go:wasmexport abi_version
func abiVersion() int32 { return abi.Version }

// alloc returns a new zeroed buffer of size bytes that the host owns until it
// calls free, or 0 (see last_error) for a size out of range.
//
//go:wasmexport alloc
func alloc(size uint32) (ptr uint32) {
	defer func() {
		if p := recover(); p != nil {
			fail(abi.Recovered(p))
			ptr = 0
		}
	}()
	if size > maxAlloc {
		fail(fmt.Errorf("%w: alloc(%d): at most %d bytes", abi.ErrInvalidArgument, size, maxAlloc))
		return 0
	}
	b := make([]byte, size)
	return own(b)
}

// free releases a buffer from alloc, call or last_error. Freeing 0 or an
// address that is not a live buffer does nothing.
//
//go:wasmexport free
func free(ptr uint32) { delete(bufs, ptr) }

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
	e, err := core.LoadEncoding(b)
	if err != nil {
		return fail(err)
	}
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
	// and json.RawMessage are copied out by encoding/json) and keeps no
	// reference to it after the call, so the host may reuse the buffer. A
	// copy would cost as much memory again as the request, for good.
	return pack(api.Call(string(op), req))
}

// lastError returns the error answer of the latest failed export, as
// (address << 32 | length) of a new buffer the host frees, and forgets it;
// 0 when there is none.
//
//go:wasmexport last_error
func lastError() uint64 {
	if lastErr == nil {
		return 0
	}
	b := lastErr
	lastErr = nil
	return pack(b)
}
