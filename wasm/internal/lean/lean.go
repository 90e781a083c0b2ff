//go:build wasip1

// Package lean is the lean wasip1 module's own part (wasm/wasip1/lite):
// counting only, over core/engine, with every operation a direct export
// (no JSON in or out), besides the exports every module has (package
// reactor). It leaves out core's JSON API, the model registry, fmt and
// encoding/json, which is what makes the module small (see wasm/ABI.md,
// "The lean reactor"). wasm/exports-lite.txt lists its exports.
package lean

import (
	"errors"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/internal/errs"
	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
	"github.com/tokenfit/tokenfit/wasm/internal/reactor"
)

func init() { reactor.Use(answer, recovered) }

// encodingHandle returns the handle of a loaded encoding named by the n
// bytes at ptr, or a negative status (encoding_not_loaded,
// unknown_encoding).
//
//go:wasmexport encoding_handle
func encodingHandle(ptr, n uint32) (h int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&h)
	s, err := reactor.Text(ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	e, err := engine.Get(s)
	if err != nil {
		return reactor.Fail(err)
	}
	return reactor.Handle(e)
}

// count returns the number of tokens in the n bytes at ptr with the
// encoding h, or a negative status. The text is read in place.
//
//go:wasmexport count
func count(h int32, ptr, n uint32) (c int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&c)
	e, s, err := reactor.EncodingText(h, ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	return int32(e.Count(s))
}

// lives are the live counters by handle; nextLive is the next handle.
var (
	lives    = map[int32]*engine.LiveCounter{}
	nextLive int32
)

var errInternal = errors.New("tokenfit: internal error")

// answer is last_error's answer for err, and err's status.
func answer(err error) ([]byte, int32) {
	code, field, encoding := boundary.Code(err), "", ""
	if code == "" {
		code = engine.Code(err)
	}
	if ee, ok := errs.As[*engine.Error](err); ok {
		field, encoding = ee.Field, ee.Encoding
	}
	return boundary.AppendErrorJSON(nil, code, err.Error(), field, encoding), boundary.Status(code)
}

func recovered(p any) error {
	return &engine.Error{Err: errInternal, Detail: ": " + boundary.PanicText(p)}
}

// encode returns the token ids of the n bytes of text at ptr as a new buffer
// of little-endian uint32s, packed as (address << 32 | length in bytes); 0
// on error (see last_error).
//
//go:wasmexport encode
func encode(h int32, ptr, n uint32) (res uint64) {
	defer reactor.EndGCCycle()
	defer reactor.RescueBuffer(&res)
	e, s, err := reactor.EncodingText(h, ptr, n)
	if err != nil {
		reactor.Fail(err)
		return 0
	}
	ids := e.AppendEncode(nil, s)
	if len(ids) == 0 {
		return reactor.Pack(nil)
	}
	// WebAssembly is little-endian: the uint32s are their own encoding.
	return reactor.Pack(unsafe.Slice((*byte)(unsafe.Pointer(unsafe.SliceData(ids))), 4*len(ids)))
}

// decode returns the text of the token ids at ptr (n bytes of little-endian
// uint32s) as a new buffer of UTF-8, packed; 0 on error (see last_error).
// Bytes that are not valid UTF-8 (ids cut inside a character) become U+FFFD,
// one per maximal subpart (engine.LossyUTF8), as the full module's JSON
// answer and tiktoken's decode have them.
//
//go:wasmexport decode
func decode(h int32, ptr, n uint32) (res uint64) {
	defer reactor.EndGCCycle()
	defer reactor.RescueBuffer(&res)
	text, err := decodeIDs(h, ptr, n)
	if err != nil {
		reactor.Fail(err)
		return 0
	}
	if !utf8.Valid(text) {
		text = []byte(engine.LossyUTF8(string(text)))
	}
	return reactor.Pack(text)
}

// decodeValid reports whether the text of the token ids at ptr is whole
// UTF-8 (1) or the ids end or start inside a character (0): the full
// module's decode answer "valid", for streaming decoders. A negative result
// is a status.
//
//go:wasmexport decode_valid
func decodeValid(h int32, ptr, n uint32) (c int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&c)
	text, err := decodeIDs(h, ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	if utf8.Valid(text) {
		return 1
	}
	return 0
}

// decodeIDs returns the bytes of the token ids at ptr.
func decodeIDs(h int32, ptr, n uint32) ([]byte, error) {
	e, err := reactor.Encoding(h)
	if err != nil {
		return nil, err
	}
	if n%4 != 0 {
		return nil, &boundary.Error{Err: boundary.ErrInvalidArgument, Detail: "decode: " + strconv.Itoa(int(n)) + " bytes are not a list of uint32 ids"}
	}
	b, err := reactor.View(ptr, n)
	if err != nil {
		return nil, err
	}
	ids := make([]int, n/4)
	for i := range ids {
		ids[i] = int(uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24)
	}
	return e.AppendDecode(nil, ids)
}

// withinLimit counts the n bytes of text at ptr until the count passes
// limit: it returns the exact count when the text has at most limit tokens,
// a count above limit as soon as it has more, or a negative status.
//
//go:wasmexport within_limit
func withinLimit(h int32, ptr, n uint32, limit int32) (c int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&c)
	if limit < 0 {
		return reactor.Fail(reactor.Invalid("limit", "must not be negative"))
	}
	e, s, err := reactor.EncodingText(h, ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	count, _ := e.WithinLimit(s, int(limit))
	return int32(count)
}

// truncate finds the longest start of the n bytes of text at ptr (its end
// when fromEnd is not 0) that holds at most max tokens, cut at a token
// boundary and never inside a character. It returns (bytes kept << 32 |
// their tokens): the kept part is the first (or last) that many bytes of the
// text, which the host still holds. A negative result is a status.
//
//go:wasmexport truncate
func truncate(h int32, ptr, n uint32, max int32, fromEnd int32) (res int64) {
	defer reactor.EndGCCycle()
	defer func() {
		if p := recover(); p != nil {
			res = int64(reactor.Fail(recovered(p)))
		}
	}()
	if max < 0 {
		return int64(reactor.Fail(reactor.Invalid("maxTokens", "must not be negative")))
	}
	e, s, err := reactor.EncodingText(h, ptr, n)
	if err != nil {
		return int64(reactor.Fail(err))
	}
	side := engine.KeepStart
	if fromEnd != 0 {
		side = engine.KeepEnd
	}
	kept, tokens := e.Truncate(s, int(max), side)
	return int64(len(kept))<<32 | int64(tokens)
}

// live returns the live counter of handle id.
func live(id int32) (*engine.LiveCounter, error) {
	l := lives[id]
	if l == nil {
		return nil, &boundary.Error{Err: boundary.ErrInvalidHandle, Detail: "no live counter " + strconv.Itoa(int(id)) + " (freed, or never made)"}
	}
	return l, nil
}

// liveWithText returns the live counter id and the n bytes of text at ptr.
func liveWithText(id int32, ptr, n uint32) (*engine.LiveCounter, string, error) {
	l, err := live(id)
	if err != nil {
		return nil, "", err
	}
	s, err := reactor.Text(ptr, n)
	return l, s, err
}

// liveNew makes a live counter over an empty text with the encoding h, and
// returns its handle (> 0) or a negative status. The host frees it with
// live_free.
//
//go:wasmexport live_new
func liveNew(h int32) (id int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&id)
	e, err := reactor.Encoding(h)
	if err != nil {
		return reactor.Fail(err)
	}
	if len(lives) >= engine.MaxLiveCounters {
		return reactor.Fail(engine.TooManyLiveCounters())
	}
	nextLive++
	lives[nextLive] = e.NewLiveCounter(engine.UTF16)
	return nextLive
}

// liveEdit deletes del UTF-16 code units at offset at of the counter's text,
// inserts the n bytes of UTF-8 at ptr there, and returns the new count, or a
// negative status (an offset outside the text or inside a surrogate pair is
// invalid_request, and changes nothing). Cost: in proportion to the edit.
//
//go:wasmexport live_edit
func liveEdit(id, at, del int32, ptr, n uint32) (c int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&c)
	l, s, err := liveWithText(id, ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	count, err := l.Edit(int(at), int(del), s)
	if err != nil {
		return reactor.Fail(err)
	}
	return int32(count)
}

// liveReset replaces the counter's whole text with the n bytes at ptr and
// returns its count, or a negative status. Cost: O(n).
//
//go:wasmexport live_reset
func liveReset(id int32, ptr, n uint32) (c int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&c)
	l, s, err := liveWithText(id, ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	// Reset keeps the text: a copy, as the buffer is the host's.
	return int32(l.Reset(string([]byte(s))))
}

// liveText returns the counter's text as a new buffer, packed; 0 on error.
//
//go:wasmexport live_text
func liveText(id int32) (res uint64) {
	defer reactor.EndGCCycle()
	defer reactor.RescueBuffer(&res)
	l, err := live(id)
	if err != nil {
		reactor.Fail(err)
		return 0
	}
	return reactor.Pack([]byte(l.Text()))
}

// liveFree releases a live counter. An unknown handle is ignored.
//
//go:wasmexport live_free
func liveFree(id int32) {
	defer reactor.EndGCCycle()
	delete(lives, id)
}
