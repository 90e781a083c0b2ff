package errs

import (
	"errors"
	"fmt"
	"testing"
)

var (
	errA = errors.New("a")
	errB = errors.New("b")
)

type typed struct{ n int }

func (e *typed) Error() string { return fmt.Sprint("typed ", e.n) }

// isA is an error whose Is method reports errA, as tables.FormatError
// reports tables.ErrFormat.
type isA struct{}

func (isA) Error() string        { return "is a" }
func (isA) Is(target error) bool { return target == errA }

// asTyped is an error whose As method gives a *typed, as errors.As asks it.
type asTyped struct{ to *typed }

func (asTyped) Error() string { return "as typed" }
func (e asTyped) As(target any) bool {
	p, ok := target.(**typed)
	if ok && e.to != nil {
		*p = e.to
	}
	return ok && e.to != nil
}

type wrap struct{ err error }

func (w wrap) Error() string { return "wrap: " + w.err.Error() }
func (w wrap) Unwrap() error { return w.err }

// TestAgainstErrors holds Is and As to package errors on trees of every
// shape tokenfit's errors take.
func TestAgainstErrors(t *testing.T) {
	t1, t2 := &typed{1}, &typed{2}
	for _, err := range []error{
		nil, errA, errB, t1, isA{},
		fmt.Errorf("x: %w", errA), wrap{errB}, wrap{wrap{t1}}, wrap{isA{}},
		errors.Join(errB, t2), errors.Join(errB, wrap{errA}, t1), fmt.Errorf("%w and %w", t2, errA),
		wrap{errors.Join(nil, errors.Join(t1, errB))}, errors.New("other"),
		asTyped{t2}, asTyped{}, wrap{asTyped{t1}}, errors.Join(asTyped{}, t2),
	} {
		for _, target := range []error{errA, errB} {
			if got, want := Is(err, target), errors.Is(err, target); got != want {
				t.Errorf("Is(%v, %v) = %v, errors.Is says %v", err, target, got, want)
			}
		}
		var want *typed
		wantOK := errors.As(err, &want)
		if got, ok := As[*typed](err); ok != wantOK || got != want {
			t.Errorf("As(%v) = %v, %v; errors.As says %v, %v", err, got, ok, want, wantOK)
		}
	}
}
