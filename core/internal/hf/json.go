package hf

import (
	"bytes"
	"strconv"
	"unicode/utf8"
	"unsafe"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// tokenizer.json into plain values (*object, []any, string, float64, bool,
// nil) by core's JSON reader (jsonio), without encoding/json, which the
// WebAssembly modules leave out for size. Objects are *object to keep their
// keys in file order where it matters. model.vocab and model.merges, most
// of the file, are kept as rawJSON and walked by the loader (eachMember,
// eachElement): a value per entry of Gemma 3's 262,145 tokens and 514,906
// merges was most of its load time.

// rawJSON is a JSON value the reader did not build, which Check has found
// valid, starting at its first byte.
type rawJSON []byte

// rawArray is a JSON array the reader did not build, and its number of
// elements, counted while its end was found (model.merges: the loader
// sizes its table by it before reading them).
type rawArray struct {
	raw rawJSON
	n   int
}

// object is a JSON object with its keys in file order.
type object struct {
	keys []string
	vals []any
}

// get returns the value of key, or nil.
func (o *object) get(key string) any {
	if o == nil {
		return nil
	}
	for i, k := range o.keys {
		if k == key {
			return o.vals[i]
		}
	}
	return nil
}

// maxDepth bounds nesting, so that a hostile file cannot exhaust the stack;
// maxElems bounds an array or object, so that one cannot make the reader
// hold more than the loader would take.
const (
	maxDepth = 64
	maxElems = maxMerges
)

// parseJSON reads one JSON value from data. Cost: O(n·d) for n bytes
// nested d deep (a tokenizer.json is 4 deep).
func parseJSON(data []byte) (any, error) {
	if err := jsonio.Check(data); err != nil {
		return nil, &Error{Reason: "JSON: " + err.Error()}
	}
	v, _, err := value(data, 0, 0, false)
	return v, err
}

// value builds the value that starts at data[i] (or after white space
// there), which Check has found valid, and returns it with the index just
// past it; model is whether it is the root's model, whose vocab and merges
// stay raw. A container is read as its members come, not found whole
// first: jsonio.Object finds the end of each member's value before reading
// it, which walked the root's model (most of the file) once more.
func value(data []byte, i, depth int, model bool) (any, int, error) {
	if depth > maxDepth {
		return nil, 0, &Error{Reason: "JSON nested more than " + strconv.Itoa(maxDepth) + " deep"}
	}
	i = jsonio.SkipSpace(data, i)
	switch c := data[i]; {
	case c == '{':
		o := &object{}
		if i = jsonio.SkipSpace(data, i+1); data[i] == '}' {
			return o, i + 1, nil
		}
		for {
			e, err := jsonio.ValueEnd(data, i)
			if err != nil {
				return nil, 0, err
			}
			k, err := jsonio.Unquote(data[i:e])
			if err != nil {
				return nil, 0, err
			}
			i = jsonio.SkipSpace(data, jsonio.SkipSpace(data, e)+1) // past the :
			if len(o.keys) == maxElems {
				return o, 0, &Error{Reason: "JSON object of more than " + strconv.Itoa(maxElems) + " members"}
			}
			var x any
			switch {
			case model && k == "merges" && data[i] == '[':
				var n int
				e, n, err = arrayEnd(data, i)
				x = rawArray{rawJSON(data[i:e]), n}
			case model && (k == "vocab" || k == "merges"):
				e, err = jsonio.ValueEnd(data, i)
				x = rawJSON(data[i:e])
			default:
				x, e, err = value(data, i, depth+1, depth == 0 && k == "model")
			}
			o.keys = append(o.keys, k)
			o.vals = append(o.vals, x)
			if err != nil {
				return o, 0, err
			}
			if i = jsonio.SkipSpace(data, e); data[i] == '}' {
				return o, i + 1, nil
			}
			i = jsonio.SkipSpace(data, i+1) // past the ,
		}
	case c == '[':
		a := []any{}
		if i = jsonio.SkipSpace(data, i+1); data[i] == ']' {
			return a, i + 1, nil
		}
		for {
			if len(a) == maxElems {
				return a, 0, &Error{Reason: "JSON array of more than " + strconv.Itoa(maxElems) + " elements"}
			}
			x, e, err := value(data, i, depth+1, false)
			a = append(a, x)
			if err != nil {
				return a, 0, err
			}
			if i = jsonio.SkipSpace(data, e); data[i] == ']' {
				return a, i + 1, nil
			}
			i = jsonio.SkipSpace(data, i+1) // past the ,
		}
	}
	e, err := jsonio.ValueEnd(data, i)
	if err != nil {
		return nil, 0, err
	}
	switch c := data[i]; {
	case c == '"':
		s, err := jsonio.Unquote(data[i:e])
		return s, e, err
	case c == 't':
		return true, e, nil
	case c == 'f':
		return false, e, nil
	case c == 'n':
		return nil, e, nil
	}
	raw := data[i:e]
	if depth == 0 {
		raw = data[i:] // the file's white space after it too, as its error has always quoted it
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil {
		return nil, 0, &Error{Reason: "JSON number " + strconv.Quote(string(raw)) + " out of range"}
	}
	return f, e, nil
}

// eachMember calls fn with each key and raw value of the object o holds,
// in order. A key is a view of o unless it has escapes or is not UTF-8
// (then Unquote's copy): fn copies what it keeps. Cost: O(len(o)), no
// allocation for keys without escapes.
func eachMember(o rawJSON, fn func(key string, val []byte) error) error {
	i := 1 // past the {
	for {
		i = jsonio.SkipSpace(o, i)
		switch o[i] {
		case '}':
			return nil
		case ',':
			i = jsonio.SkipSpace(o, i+1)
		}
		key, e, err := str(o, i)
		if err != nil {
			return err
		}
		i = jsonio.SkipSpace(o, jsonio.SkipSpace(o, e)+1) // past the :
		if e, err = jsonio.ValueEnd(o, i); err != nil {
			return err
		}
		if err := fn(key, o[i:e]); err != nil {
			return err
		}
		i = e
	}
}

// arrayEnd returns the index just past the array that starts at data[i],
// and its number of elements. Cost: O(length of the array).
func arrayEnd(data []byte, i int) (end, n int, err error) {
	for i = jsonio.SkipSpace(data, i+1); data[i] != ']'; n++ {
		if i, err = jsonio.ValueEnd(data, i); err != nil {
			return 0, 0, err
		}
		if i = jsonio.SkipSpace(data, i); data[i] == ',' {
			i = jsonio.SkipSpace(data, i+1)
		}
	}
	return i + 1, n, nil
}

// eachElement calls fn with each raw element of the array a holds, in
// order. Cost: O(len(a)).
func eachElement(a rawJSON, fn func(val []byte) error) error {
	i := 1 // past the [
	for {
		i = jsonio.SkipSpace(a, i)
		switch a[i] {
		case ']':
			return nil
		case ',':
			i = jsonio.SkipSpace(a, i+1)
		}
		e, err := jsonio.ValueEnd(a, i)
		if err != nil {
			return err
		}
		if err := fn(a[i:e]); err != nil {
			return err
		}
		i = e
	}
}

// str reads the string that starts at b[i], returning it and the index
// just past it: a view of b when it has no escapes and is UTF-8, else
// Unquote's copy.
func str(b []byte, i int) (string, int, error) {
	end, err := jsonio.ValueEnd(b, i)
	if err != nil || b[i] != '"' {
		return "", 0, jsonio.ErrSyntax
	}
	s, err := strValue(b[i:end])
	return s, end, err
}

// strValue reads the string raw holds, from its opening quote to its
// closing one, as str does.
func strValue(raw []byte) (string, error) {
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		if len(body) == 0 {
			return "", nil
		}
		return unsafe.String(&body[0], len(body)), nil
	}
	return jsonio.Unquote(raw)
}
