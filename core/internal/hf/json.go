package hf

import (
	"bytes"
	"strconv"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// tokenizer.json into plain values (*object, []any, string, float64, bool,
// nil) by core's JSON reader (jsonio), without encoding/json, which the
// WebAssembly modules leave out for size. Objects are *object to keep their
// keys in file order where it matters.

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
	return value(data, 0)
}

// value builds the value raw holds, which Check has found valid.
func value(raw []byte, depth int) (any, error) {
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
			x, err := value(v, depth+1)
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
			x, err := value(v, depth+1)
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
