//go:build wasip1

package reactor

// The buffers every module has: what the host allocates, what the module
// hands over, and the error answer of the latest failure. Nothing in this
// package may import core, fmt, encoding/json or runtime/debug (which
// brings fmt and os): the lean module must stay small.

import (
	"strconv"
	"unsafe"

	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
)

// maxAlloc bounds one buffer. A larger request is refused with an error
// rather than risk the runtime's fatal (unrecoverable) out-of-memory.
const maxAlloc = 1 << 30

// bufs holds every live buffer by the address of its first byte. Go's
// collector does not move objects, so an address stays valid while the
// buffer is referenced here. WebAssembly runs one thread, so no lock.
var bufs = map[uint32][]byte{}

// lastErr is the error answer of the latest failed call, until last_error
// hands it over.
var lastErr []byte

func addr(b []byte) uint32 { return uint32(uintptr(unsafe.Pointer(unsafe.SliceData(b)))) }

// own registers b as a live buffer and returns its address.
func own(b []byte) uint32 {
	if len(b) == 0 {
		b = make([]byte, 0, 1) // every buffer needs an address of its own
	}
	p := addr(b)
	bufs[p] = b
	return p
}

// Pack returns a buffer as (address << 32 | length), or 0 for none.
func Pack(b []byte) uint64 {
	p := own(b)
	return uint64(p)<<32 | uint64(len(b))
}

// View returns the n bytes at ptr, which must start a live buffer that holds
// them. n == 0 needs no buffer.
func View(ptr, n uint32) ([]byte, error) {
	if n == 0 {
		return nil, nil
	}
	b, ok := bufs[ptr]
	if !ok || uint64(n) > uint64(len(b)) {
		return nil, &boundary.Error{Err: boundary.ErrInvalidArgument,
			Detail: strconv.FormatUint(uint64(n), 10) + " bytes at 0x" + strconv.FormatUint(uint64(ptr), 16) + " are not inside a buffer from alloc"}
	}
	return b[:n:n], nil
}

// Text returns the n bytes at ptr as a string that aliases them (valid while
// the buffer is, and only during the call).
func Text(ptr, n uint32) (string, error) {
	b, err := View(ptr, n)
	return unsafe.String(unsafe.SliceData(b), len(b)), err
}

// Fail records err's error answer for last_error, as the module's variant
// answers it, and returns its status. It is called at some forty places,
// each on an error path: inlined there, it cost the lean module 12 KB.
//
//go:noinline
func Fail(err error) int32 {
	answer, status := variant.answer(err)
	lastErr = answer
	return status
}

// abiVersion reports the ABI version (wasm/ABI.md).
//
//go:wasmexport abi_version
func abiVersion() int32 {
	defer EndGCCycle()
	return boundary.Version
}

// alloc returns a new zeroed buffer of size bytes that the host owns until it
// calls free, or 0 (see last_error) for a size out of range.
//
//go:wasmexport alloc
func alloc(size uint32) (ptr uint32) {
	defer EndGCCycle()
	defer func() {
		if p := recover(); p != nil {
			Fail(variant.recovered(p))
			ptr = 0
		}
	}()
	if size > maxAlloc {
		Fail(&boundary.Error{Err: boundary.ErrInvalidArgument,
			Detail: "alloc(" + strconv.FormatUint(uint64(size), 10) + "): at most " + strconv.Itoa(maxAlloc) + " bytes"})
		return 0
	}
	if size >= 1<<20 && len(handles) == 0 {
		// The first table or index, in a young heap: a collection now would
		// scan a heap that is about to hold it anyway (tens of ms in a cold
		// V8). Later big buffers (texts) let the collector keep pace.
		defer PauseGC()()
	}
	return own(make([]byte, size))
}

// free releases a buffer from alloc, call, last_error or another export
// that hands one over. Freeing 0 or an address that is not a live buffer
// does nothing.
//
//go:wasmexport free
func free(ptr uint32) {
	defer EndGCCycle()
	delete(bufs, ptr)
}

// lastError returns the error answer of the latest failed export, as
// (address << 32 | length) of a new buffer the host frees, and forgets it;
// 0 when there is none.
//
//go:wasmexport last_error
func lastError() uint64 {
	defer EndGCCycle()
	if lastErr == nil {
		return 0
	}
	b := lastErr
	lastErr = nil
	return Pack(b)
}

// The heap of an instance is mostly tables and their indexes: pointer-free
// arrays that a collection marks at almost no cost. The default pacing
// (GOGC=100) would still let garbage grow to the size of all that before
// collecting, and a WebAssembly memory never shrinks; a quarter of it is
// enough headroom.
func init() { setGCPercent(25) }

// PauseGC turns the collector off and returns what turns it back on.
// Loading a table allocates its structures once and frees nothing, so a
// collection in the middle of it finds no garbage; under V8's baseline
// compiler those collections were a third of loading o200k_base.
func PauseGC() (resume func()) {
	old := setGCPercent(-1)
	return func() { setGCPercent(old) }
}

// Rescue is deferred by every export that answers a status: a panic becomes
// the internal error's status, with its message in last_error, and the
// instance stays usable. (recover works here because Rescue itself is the
// deferred call.)
func Rescue(status *int32) {
	if p := recover(); p != nil {
		*status = Fail(variant.recovered(p))
	}
}

// RescueBuffer is Rescue for the exports that answer a buffer: 0, with the
// error in last_error.
func RescueBuffer(res *uint64) {
	if p := recover(); p != nil {
		Fail(variant.recovered(p))
		*res = 0
	}
}
