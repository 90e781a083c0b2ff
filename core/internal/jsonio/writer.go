package jsonio

import (
	"errors"
	"strconv"
)

// Writer builds one JSON text; the generated appendJSON methods of core's
// answer types write through it. A value JSON cannot hold (NaN, ±Inf) is
// recorded in Err, and the text is then not to be used.
//
// Its methods are not inlined: the generated methods call them once or
// twice per field, and each inlined append is a few hundred bytes of
// WebAssembly (marking them saved 43 KB of the full module's gzip).
type Writer struct {
	B   []byte
	Err error
}

// Raw appends s as it is: punctuation and field names the generator has
// already escaped.
//
//go:noinline
func (w *Writer) Raw(s string) { w.B = append(w.B, s...) }

// Byte appends one byte of punctuation.
//
//go:noinline
func (w *Writer) Byte(c byte) { w.B = append(w.B, c) }

// String appends s as a JSON string (no HTML escaping). O(len(s)).
//
//go:noinline
func (w *Writer) String(s string) { w.B = AppendString(w.B, s, false) }

// Bool appends true or false.
//
//go:noinline
func (w *Writer) Bool(v bool) { w.B = strconv.AppendBool(w.B, v) }

// Int appends a signed integer.
//
//go:noinline
func (w *Writer) Int(v int64) { w.B = strconv.AppendInt(w.B, v, 10) }

// Uint appends an unsigned integer.
//
//go:noinline
func (w *Writer) Uint(v uint64) { w.B = strconv.AppendUint(w.B, v, 10) }

// Null appends null.
//
//go:noinline
func (w *Writer) Null() { w.B = append(w.B, "null"...) }

// Float appends f as encoding/json formats a float64; NaN and ±Inf set Err
// with encoding/json's message.
func (w *Writer) Float(f float64) {
	var ok bool
	if w.B, ok = AppendFloat(w.B, f); !ok && w.Err == nil {
		w.Err = errors.New("json: unsupported value: " + strconv.FormatFloat(f, 'g', -1, 64))
	}
}

// RawJSON appends JSON text held as it came (a json.RawMessage) without
// its white space; nil or empty is null. The text must be valid JSON.
// O(len(raw)).
func (w *Writer) RawJSON(raw []byte) {
	if len(raw) == 0 {
		w.Null()
		return
	}
	w.B = Compact(w.B, raw)
}

// Array writes an array of n elements, each written by elem(i).
func (w *Writer) Array(n int, elem func(i int)) {
	w.Byte('[')
	for i := range n {
		if i > 0 {
			w.Byte(',')
		}
		elem(i)
	}
	w.Byte(']')
}

// ObjectStart begins an object whose members are each written with a
// leading comma; ObjectEnd(start) turns the first comma into the brace.
// Members that may be left out thus need no bookkeeping.
//
//go:noinline
func (w *Writer) ObjectStart() int { return len(w.B) }

// ObjectEnd closes the object begun at start.
//
//go:noinline
func (w *Writer) ObjectEnd(start int) {
	if len(w.B) == start {
		w.B = append(w.B, '{', '}')
		return
	}
	w.B[start] = '{'
	w.B = append(w.B, '}')
}

// Compact appends the valid JSON text src to dst without the white space
// between its tokens. O(len(src)).
func Compact(dst, src []byte) []byte {
	for i := 0; i < len(src); {
		switch c := src[i]; {
		case c == '"':
			e, err := stringEnd(src, i)
			if err != nil {
				return append(dst, src[i:]...)
			}
			dst = append(dst, src[i:e]...)
			i = e
		case isSpace(c):
			i++
		default:
			dst = append(dst, c)
			i++
		}
	}
	return dst
}
