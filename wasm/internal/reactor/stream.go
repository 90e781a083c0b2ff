//go:build wasip1

package reactor

import (
	"strconv"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
)

// Stream counters, in both variants: a host counts a text too big to copy
// in whole (or checks it against a limit, reading no more of it than the
// limit needs) by writing it in parts (engine.StreamCounter). The count
// equals count's (within_limit's) of the whole text however it is cut, a
// character split between writes included.

// streams are the open stream counters by handle; nextStream is the next
// handle.
var (
	streams    = map[int32]*engine.StreamCounter{}
	nextStream int32
)

// maxHeld bounds the text a stream counter holds: the longest stretch with
// no place to split between tokens, counted as one piece when it ends. The
// buffer that holds it grows by doubling and is copied to be counted, so a
// stretch of 256 MiB takes about a gigabyte of the module's memory (which
// never shrinks), and one of 1 GiB would run it out of memory, which ends
// the instance, where this refuses it with an error.
const maxHeld = 256 << 20

// maxStreams bounds the stream counters open at once. A host opens one per
// operation and ends it in the same operation, so more than a few open
// means one that is never ended.
const maxStreams = 64

// stream returns the stream counter of handle id.
func stream(id int32) (*engine.StreamCounter, error) {
	s := streams[id]
	if s == nil {
		return nil, &boundary.Error{Err: boundary.ErrInvalidHandle, Detail: "no stream counter " + strconv.Itoa(int(id)) + " (ended, or never made)"}
	}
	return s, nil
}

// streamNew opens a stream counter over an empty text with the encoding h
// (a built-in encoding: a tokenizer loaded from tokenizer.json has none)
// that stops counting once its count passes limit (2147483647: never), and
// returns its handle (> 0) or a negative status. The host ends it with
// stream_end.
//
//go:wasmexport stream_new
func streamNew(h, limit int32) (id int32) {
	defer EndGCCycle()
	defer Rescue(&id)
	e, err := Encoding(h)
	if err != nil {
		return Fail(err)
	}
	if limit < 0 {
		return Fail(Invalid("limit", "must not be negative"))
	}
	if len(streams) >= maxStreams {
		return Fail(&boundary.Error{Err: boundary.ErrInvalidArgument, Detail: strconv.Itoa(maxStreams) + " stream counters are open: end one (stream_end) before opening another"})
	}
	s := e.NewStreamCounter()
	s.StopAbove(int(limit))
	nextStream++
	streams[nextStream] = s
	return nextStream
}

// streamWrite adds the n bytes at ptr to the stream's text. It returns 1
// once the count has passed the stream's limit (what is written after is
// ignored: the host may stop), 0 otherwise, or a negative status, which
// ends the stream counter: a stretch of more than 256 MiB with no place to
// split between tokens is refused (invalid_argument; see maxHeld).
//
//go:wasmexport stream_write
func streamWrite(id int32, ptr, n uint32) (c int32) {
	defer EndGCCycle()
	defer Rescue(&c)
	s, err := stream(id)
	if err != nil {
		return Fail(err)
	}
	b, err := View(ptr, n)
	if err != nil {
		delete(streams, id)
		return Fail(err)
	}
	s.Write(b)
	if s.Held() > maxHeld {
		delete(streams, id)
		return Fail(&boundary.Error{Err: boundary.ErrInvalidArgument, Detail: "the text has more than 256 MiB with no place to split it between tokens (one run of whitespace, of letters or of symbols), more than the module counts as one piece"})
	}
	if s.Over() {
		return 1
	}
	return 0
}

// streamEnd ends the stream counter and returns its count: the exact count
// of the text written when it is within the limit, else the count above the
// limit where counting stopped (within_limit's answer for the whole text);
// or a negative status.
//
//go:wasmexport stream_end
func streamEnd(id int32) (c int32) {
	defer EndGCCycle()
	defer Rescue(&c)
	s, err := stream(id)
	if err != nil {
		return Fail(err)
	}
	delete(streams, id)
	return int32(s.Count())
}
