package httpapi

import (
	"errors"
	"io"
	"sync/atomic"
)

// inflight counts the requests and the body bytes a handler holds, against
// its limits: a request past them is refused with 503 and Retry-After
// rather than queued, so that memory stays bounded however many clients
// send at once. Bytes are taken as they arrive, so a slow client holds
// only what it has sent.
type inflight struct {
	maxRequests, maxBytes int64
	requests, bytes       atomic.Int64
}

// enter takes a request's place, or reports false when all are taken.
func (f *inflight) enter() bool {
	if f.requests.Add(1) > f.maxRequests {
		f.requests.Add(-1)
		return false
	}
	return true
}

func (f *inflight) leave() { f.requests.Add(-1) }

// take takes n bytes, or reports false when they would pass the limit.
func (f *inflight) take(n int64) bool {
	if f.bytes.Add(n) > f.maxBytes {
		f.bytes.Add(-n)
		return false
	}
	return true
}

func (f *inflight) give(n int64) { f.bytes.Add(-n) }

// errBusy is a body read that would pass the bytes in flight.
var errBusy = errors.New("tokenfit: the server holds as many request bytes as it takes")

// body reads a request body, taking each chunk's bytes from f before it is
// kept; held is what it has taken, for the request to give back.
type body struct {
	r    io.Reader
	f    *inflight
	held int64
}

func (b *body) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if n > 0 {
		if !b.f.take(int64(n)) {
			return 0, errBusy
		}
		b.held += int64(n)
	}
	return n, err
}
