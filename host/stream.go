package host

import (
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/tokenfit/tokenfit/core"
)

// Long texts, and texts read from an io.Reader, are written to a stream
// counter in the module a part at a time (wasm/ABI.md, stream_new), so that
// neither the instance nor the host holds them whole; see RATIONALE.md, "Why
// are long texts streamed into the module, and why does a check stop
// writing?".

// ErrRead: the io.Reader a text came from failed (CountReader,
// WithinLimitReader). The error wraps the reader's own as well.
var ErrRead = errors.New("tokenfit: host: reading the text failed")

// streamMin is the longest text copied into an instance in whole to be
// counted; a longer one is written in parts of streamPart bytes to a
// stream counter, so that the instance holds a megabyte or so of it rather
// than all of it, and a limit stops the writing as soon as it is passed.
const (
	streamMin  = 4 << 20
	streamPart = 1 << 20
)

// noLimit is the stream counter's largest limit: a count that passes it
// would not fit stream_end's int32, so it is refused (errTooManyTokens).
const noLimit = math.MaxInt32

// maxEmptyReads is how many reads in a row may return no bytes and no
// error before the reader is taken to be stuck (io.ErrNoProgress, as bufio
// has it).
const maxEmptyReads = 100

// CountReader is Count of the text r yields, read as it comes: with a
// built-in encoding it is written to a stream counter in the module a
// megabyte at a time, so neither the host nor the instance ever holds the
// text whole and it may be of any length (natively,
// io.Copy(e.NewStreamCounter(), r) does the same). The count is Count's of
// the whole text, whatever r's reads, a character split between them
// included; bytes that are not UTF-8 count as U+FFFD, as everywhere. A
// stretch of more than 256 MiB with no place to split between tokens, or a
// count of more than 2,147,483,647 tokens, is invalid_argument (*Error). A
// tokenizer loaded under encoding's name (or a module without stream
// counters) needs the text whole: r is read to its end, at most 1 GiB (the
// module's largest buffer; more is invalid_argument), then counted.
//
// A failing r is an error wrapping ErrRead and r's error. When ctx ends,
// CountReader returns its error at once and the instance stops reading at
// the end of the Read under way (r is not safe to read from elsewhere
// until then). Either way the instance keeps answering. Cost: O(bytes
// read).
func (h *Host) CountReader(ctx context.Context, encoding string, r io.Reader) (int, error) {
	return with(ctx, h, func(in *instance) (int, error) { return in.countReader(ctx, encoding, r) })
}

// CountReader is Host.CountReader on this instance.
func (i *Instance) CountReader(ctx context.Context, encoding string, r io.Reader) (int, error) {
	if i.in == nil {
		return 0, ErrClosed
	}
	if err := i.ready(ctx); err != nil {
		return 0, err
	}
	return i.in.countReader(ctx, encoding, r)
}

// WithinLimitReader is WithinLimit of the text r yields (req.Text must be
// empty). With a built-in encoding, named or a model's, the text is
// written to a stream counter as it is read, and the reading stops as soon
// as the count passes req.Limit: the rest of r is left unread. Any other
// target (a model counted by an estimate, a calibrated one, a tokenizer
// loaded from tokenizer.json, a heuristic) needs the text whole: r is read
// to its end, at most 1 GiB (more is invalid_argument). Errors and ctx are
// as in CountReader.
func (h *Host) WithinLimitReader(ctx context.Context, req core.LimitRequest, r io.Reader) (core.LimitAnswer, error) {
	if req.Text != "" {
		return core.LimitAnswer{}, &Error{Code: core.CodeInvalidRequest, Field: "text",
			Message: "tokenfit: invalid request: text: WithinLimitReader reads the text from its reader: leave LimitRequest.Text empty"}
	}
	return h.withinLimit(ctx, req, r, func() (string, error) { return readText(ctx, r) })
}

// withinLimit answers req (whose Text is empty) for the text r yields,
// streamed when the target counts with a built-in encoding; whole gives the
// whole text for the other targets.
func (h *Host) withinLimit(ctx context.Context, req core.LimitRequest, r io.Reader, whole func() (string, error)) (core.LimitAnswer, error) {
	// The answer for an empty text says what counts (the target's
	// encoding, exact or not), and answers a bad request as the whole one
	// would.
	a, err := CallAs[core.LimitAnswer](ctx, h, "withinLimit", req)
	if err != nil {
		return a, err
	}
	n := -1
	if a.Exact && slices.Contains(core.EncodingNames(), a.Encoding) {
		n, err = with(ctx, h, func(in *instance) (int, error) {
			if !in.streams(a.Encoding) {
				return -1, nil // a module without stream counters
			}
			return in.stream(ctx, a.Encoding, r, int32(min(req.Limit, noLimit)))
		})
		if err != nil {
			return core.LimitAnswer{}, err
		}
	}
	if n < 0 {
		if req.Text, err = whole(); err != nil {
			return core.LimitAnswer{}, err
		}
		return CallAs[core.LimitAnswer](ctx, h, "withinLimit", req)
	}
	a.Tokens, a.Within = n, n <= req.Limit
	return a, nil
}

// streams reports whether the instance counts with encoding through a
// stream counter: a built-in encoding, in a module that has them.
func (in *instance) streams(encoding string) bool {
	return in.streamNew != nil && slices.Contains(core.EncodingNames(), encoding)
}

// countReader counts the text r yields: streamed when it can be, else read
// whole (at most maxInput bytes) and counted.
func (in *instance) countReader(ctx context.Context, encoding string, r io.Reader) (int, error) {
	if in.streams(encoding) {
		return in.stream(ctx, encoding, r, noLimit)
	}
	if _, err := in.handle(ctx, encoding); err != nil {
		return 0, err // an unknown name fails before r is read
	}
	text, err := readText(ctx, r)
	if err != nil {
		return 0, err
	}
	return in.count(ctx, encoding, text)
}

// stream counts the text r yields with a built-in encoding by writing it,
// a part at a time, to a stream counter that stops once the count passes
// limit: the exact count when the text has at most limit tokens, else the
// count above limit where the module stopped, within_limit's answer for
// the whole text. Each part is read straight into the instance's input
// buffer; it may end inside a character (the stream counter joins it).
// When r fails or ctx ends, the stream counter is ended, so the instance
// keeps answering (it holds at most 64).
func (in *instance) stream(ctx context.Context, encoding string, r io.Reader, limit int32) (int, error) {
	h, err := in.handle(ctx, encoding)
	if err != nil {
		return 0, err
	}
	if err := in.reserve(ctx, &in.text, streamPart); err != nil {
		return 0, err
	}
	id, err := in.invoke(ctx, in.streamNew, uint64(uint32(h)), uint64(uint32(limit)))
	if err != nil {
		return 0, err
	}
	if int32(id) < 0 {
		return 0, in.status(ctx, int32(id))
	}
	// end ends the stream counter after a failure on the host's side: the
	// module still answers, even if ctx has ended.
	end := func(err error) (int, error) {
		in.invoke(context.WithoutCancel(ctx), in.streamEnd, id)
		return 0, err
	}
	for {
		if err := ctx.Err(); err != nil {
			return end(err)
		}
		// The memory grows only during calls: the view holds until the
		// next one.
		buf, ok := in.mod.Memory().Read(in.text.ptr, streamPart)
		if !ok {
			in.broken = true
			return 0, fmt.Errorf("%w: buffer at %#x+%d is outside memory", ErrModule, in.text.ptr, streamPart)
		}
		n, rerr := fill(r, buf)
		if rerr != nil && rerr != io.EOF {
			return end(fmt.Errorf("%w: %w", ErrRead, rerr))
		}
		if n > 0 {
			st, err := in.invoke(ctx, in.streamWrite, id, uint64(in.text.ptr), uint64(n))
			if err != nil {
				return 0, err
			}
			if int32(st) < 0 {
				return 0, in.status(ctx, int32(st)) // which ended the stream counter
			}
			if st == 1 && limit == noLimit {
				return end(errTooManyTokens())
			}
			if st == 1 {
				break // over the limit: the rest changes nothing
			}
		}
		if rerr == io.EOF {
			break
		}
	}
	n, err := in.invoke(ctx, in.streamEnd, id)
	if err != nil {
		return 0, err
	}
	if int32(n) < 0 {
		return 0, in.status(ctx, int32(n))
	}
	return int(int32(n)), nil
}

func errTooManyTokens() error {
	return &Error{Code: core.CodeInvalidArgument, Message: fmt.Sprintf("tokenfit: invalid argument: the text has more than %d tokens, the most a count reports", noLimit)}
}

// fill reads from r into p until p is full (nil error), r ends (io.EOF,
// whatever it read) or fails. Unlike io.ReadFull it gives up on a reader
// that keeps returning nothing (io.ErrNoProgress) and refuses a count that
// is not within p.
func fill(r io.Reader, p []byte) (int, error) {
	n, empty := 0, 0
	for n < len(p) {
		k, err := r.Read(p[n:])
		if k < 0 || k > len(p)-n {
			return n, fmt.Errorf("the reader returned %d bytes for a buffer of %d", k, len(p)-n)
		}
		n += k
		if err != nil {
			return n, err
		}
		if k > 0 {
			empty = 0
		} else if empty++; empty == maxEmptyReads {
			return n, io.ErrNoProgress
		}
	}
	return n, nil
}

// readText reads r to its end for a count that needs the text whole: at
// most maxInput bytes, the module's largest buffer.
func readText(ctx context.Context, r io.Reader) (string, error) {
	var b strings.Builder
	buf := make([]byte, min(streamPart, maxInput+1))
	for {
		if err := ctx.Err(); err != nil {
			return "", err
		}
		n, err := fill(r, buf)
		b.Write(buf[:n])
		if b.Len() > maxInput {
			return "", &Error{Code: core.CodeInvalidArgument, Message: fmt.Sprintf("tokenfit: invalid argument: the text is over the %d bytes (1 GiB) the module takes whole; only a built-in encoding counts a text of any length", maxInput)}
		}
		if err == io.EOF {
			return b.String(), nil
		}
		if err != nil {
			return "", fmt.Errorf("%w: %w", ErrRead, err)
		}
	}
}
