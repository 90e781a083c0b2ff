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
	return value(data, 0, false)
}

// value builds the value raw holds, which Check has found valid; model is
// whether it is the root's model, whose vocab and merges stay raw.
func value(raw []byte, depth int, model bool) (any, error) {
	if depth > maxDepth {
		return nil, &Error{Reason: "JSON nested more than " + strconv.Itoa(maxDepth) + " deep"}
	}
	raw = raw[jsonio.SkipSpace(raw, 0):]
	switch c := raw[0]; {
	case c == '{':
		o := &object{}
		err := jsonio.Object(raw, func(k string, v []byte) error {
			if len(o.keys) == maxElems {
				return &Error{Reason: "JSON object of more than " + strconv.Itoa(maxElems) + " members"}
			}
			var x any
			var err error
			if model && (k == "vocab" || k == "merges") {
				x = rawJSON(v)
			} else {
				x, err = value(v, depth+1, depth == 0 && k == "model")
			}
			o.keys = append(o.keys, k)
			o.vals = append(o.vals, x)
			return err
		})
		return o, err
	case c == '[':
		a := []any{}
		err := jsonio.Array(raw, func(v []byte) error {
			if len(a) == maxElems {
				return &Error{Reason: "JSON array of more than " + strconv.Itoa(maxElems) + " elements"}
			}
			x, err := value(v, depth+1, false)
			a = append(a, x)
			return err
		})
		return a, err
	case c == '"':
		return jsonio.Unquote(raw)
	case c == 't':
		return true, nil
	case c == 'f':
		return false, nil
	case c == 'n':
		return nil, nil
	}
	f, err := strconv.ParseFloat(string(bytes.TrimSpace(raw)), 64)
	if err != nil {
		return nil, &Error{Reason: "JSON number " + strconv.Quote(string(raw)) + " out of range"}
	}
	return f, nil
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
	body := b[i+1 : end-1]
	if bytes.IndexByte(body, '\\') < 0 && utf8.Valid(body) {
		if len(body) == 0 {
			return "", end, nil
		}
		return unsafe.String(&body[0], len(body)), end, nil
	}
	s, err := jsonio.Unquote(b[i:end])
	return s, end, err
}
