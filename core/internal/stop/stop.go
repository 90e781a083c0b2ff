// Package stop is how an operation of core's JSON API ends early when its
// caller no longer wants the answer (core.API.DoUntil): core and
// core/internal/chat check a Chan between the steps of their longest loops,
// and core's API turns the Signal a check panics with into core.ErrStopped.
package stop

// A Chan is the done channel of an API.DoUntil call, or nil (never done).
// Operations check it between the steps of their longest loops (a chat's
// messages and template parts, chunks): one count, bounded by its text,
// runs to its end.
type Chan <-chan struct{}

// Signal is what Check panics with, for core's API to turn into
// ErrStopped: it unwinds however deep the check is.
type Signal struct{}

// Check stops the operation when its caller's channel is closed.
func (s Chan) Check() {
	if s == nil {
		return
	}
	select {
	case <-s:
		panic(Signal{})
	default:
	}
}
