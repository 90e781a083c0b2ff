package core

import "errors"

// ErrStopped is the error of an operation stopped because its caller no
// longer wanted the answer (API.DoUntil's done was closed).
var ErrStopped = errors.New("tokenfit: stopped: the caller gave up on the answer")

// A stopper is the done channel of an API.DoUntil call, or nil (never
// done). Operations check it between the steps of their longest loops
// (a chat's messages and template parts, chunks): one count, bounded by
// its text, runs to its end.
type stopper <-chan struct{}

// stopSignal is what check panics with, for answer to turn into
// ErrStopped: it unwinds however deep the check is.
type stopSignal struct{}

// check stops the operation when its caller's channel is closed.
func (s stopper) check() {
	if s == nil {
		return
	}
	select {
	case <-s:
		panic(stopSignal{})
	default:
	}
}
