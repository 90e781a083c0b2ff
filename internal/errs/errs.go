// Package errs is errors.Is and errors.As without package reflect: core
// and the adapters use it so that the modules do not link
// internal/reflectlite, which package errors brings for those two
// functions (14 KB of the lean module's gzip, 8 KB of the full ones';
// RATIONALE.md, "Why a lean module, and why core/engine?").
package errs

// Is reports whether err, or any error in the tree it wraps (Unwrap() error
// or Unwrap() []error, as errors.Is walks it), is target or has an Is
// method that reports target. target must be of a comparable type, as
// every sentinel error made by errors.New is: errors.Is checks that with
// reflect, which is what this package leaves out.
func Is(err, target error) bool {
	for err != nil {
		if err == target {
			return true
		}
		if x, ok := err.(interface{ Is(error) bool }); ok && x.Is(target) {
			return true
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if Is(e, target) {
					return true
				}
			}
			return false
		default:
			return false
		}
	}
	return false
}

// As returns the first error in err's tree (in errors.As's order) whose
// type is T, or that an As(any) bool method sets a T from, as errors.As
// asks it.
func As[T error](err error) (T, bool) {
	for err != nil {
		if t, ok := err.(T); ok {
			return t, true
		}
		if x, ok := err.(interface{ As(any) bool }); ok {
			var t T
			if x.As(&t) {
				return t, true
			}
		}
		switch u := err.(type) {
		case interface{ Unwrap() error }:
			err = u.Unwrap()
		case interface{ Unwrap() []error }:
			for _, e := range u.Unwrap() {
				if t, ok := As[T](e); ok {
					return t, true
				}
			}
			return *new(T), false
		default:
			return *new(T), false
		}
	}
	return *new(T), false
}
