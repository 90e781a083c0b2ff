// Package format writes the messages of core's errors and the text of its
// answers: the verbs of fmt that core uses (%s, %v, %d, %q, %g, %w and %%,
// without flags, widths or precisions) over the kinds of value it passes
// (strings, errors, Stringers, integers, floats, booleans). fmt prints any
// value through reflection and brings os with it; leaving it out of the
// WebAssembly modules saves about a tenth of the full module (RATIONALE.md,
// "Why does core format its own messages?"). A value of a kind this package
// does not print comes out as fmt writes a wrong verb, %!v(unsupported), and
// the package's test holds every call site's arguments to the kinds above.
package format

import (
	"strconv"
	"unicode/utf8"
)

// Sprintf formats like fmt.Sprintf for the verbs and kinds above. Not
// inlined: it is called at some sixty places.
//
//go:noinline
func Sprintf(format string, args ...any) string {
	b, _ := appendf(nil, format, args)
	return string(b)
}

// Errorf formats like fmt.Errorf: the error's message is what Sprintf writes
// (%w prints its error as %v does), and it wraps the error of the first %w.
func Errorf(format string, args ...any) error {
	b, wrapped := appendf(nil, format, args)
	if wrapped == nil {
		return &plainError{string(b)}
	}
	return &wrapError{string(b), wrapped}
}

type plainError struct{ msg string }

func (e *plainError) Error() string { return e.msg }

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

// appendf appends format with args to dst, and returns the error of the
// first %w.
func appendf(dst []byte, format string, args []any) (_ []byte, wrapped error) {
	n := 0
	for i := 0; i < len(format); i++ {
		c := format[i]
		if c != '%' || i+1 == len(format) {
			dst = append(dst, c)
			continue
		}
		i++
		verb := format[i]
		if verb == '%' {
			dst = append(dst, '%')
			continue
		}
		if n == len(args) {
			dst = append(dst, "%!"...)
			dst = append(dst, verb)
			dst = append(dst, "(MISSING)"...)
			continue
		}
		arg := args[n]
		n++
		if verb == 'w' {
			if err, ok := arg.(error); ok && wrapped == nil {
				wrapped = err
			}
			verb = 'v'
		}
		dst = appendValue(dst, verb, arg)
	}
	if n < len(args) {
		dst = append(dst, "%!(EXTRA)"...)
	}
	return dst, wrapped
}

// appendValue appends one argument as verb prints it.
func appendValue(dst []byte, verb byte, arg any) []byte {
	if s, ok := Text(arg); ok {
		switch verb {
		case 's', 'v':
			return append(dst, s...)
		case 'q':
			return strconv.AppendQuote(dst, s)
		}
	}
	switch v := arg.(type) {
	case int:
		return appendInt(dst, verb, int64(v))
	case int8:
		return appendInt(dst, verb, int64(v))
	case int16:
		return appendInt(dst, verb, int64(v))
	case int32:
		return appendInt(dst, verb, int64(v))
	case int64:
		return appendInt(dst, verb, v)
	case uint:
		return appendUint(dst, verb, uint64(v))
	case uint8:
		return appendUint(dst, verb, uint64(v))
	case uint16:
		return appendUint(dst, verb, uint64(v))
	case uint32:
		return appendUint(dst, verb, uint64(v))
	case uint64:
		return appendUint(dst, verb, v)
	case float64:
		return appendFloat(dst, verb, v, 64)
	case float32:
		return appendFloat(dst, verb, float64(v), 32)
	case bool:
		if verb == 'v' || verb == 't' {
			return strconv.AppendBool(dst, v)
		}
	}
	return bad(dst, verb)
}

func appendInt(dst []byte, verb byte, v int64) []byte {
	if verb != 'd' && verb != 'v' {
		return bad(dst, verb)
	}
	return strconv.AppendInt(dst, v, 10)
}

func appendUint(dst []byte, verb byte, v uint64) []byte {
	if verb != 'd' && verb != 'v' {
		return bad(dst, verb)
	}
	return strconv.AppendUint(dst, v, 10)
}

// appendFloat writes %v and %g as fmt does: the shortest representation
// that reads back as the same value, in strconv's 'g' form.
func appendFloat(dst []byte, verb byte, v float64, bits int) []byte {
	if verb != 'g' && verb != 'v' {
		return bad(dst, verb)
	}
	return strconv.AppendFloat(dst, v, 'g', -1, bits)
}

// Text returns the text %s and %v print for a string, an error or a
// Stringer (whose String or Error method runs), and false for anything
// else.
func Text(arg any) (string, bool) {
	switch v := arg.(type) {
	case string:
		return v, true
	case error:
		return v.Error(), true
	case interface{ String() string }:
		return v.String(), true
	}
	return "", false
}

// bad writes what fmt writes for a value its verb cannot print.
func bad(dst []byte, verb byte) []byte {
	dst = append(dst, "%!"...)
	dst = utf8.AppendRune(dst, rune(verb))
	return append(dst, "(unsupported)"...)
}
