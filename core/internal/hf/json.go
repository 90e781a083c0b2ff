package hf

import (
	"strconv"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON reader: tokenizer.json into plain values (map[string]any,
// []any, string, float64, bool, nil), without encoding/json, which the
// WebAssembly modules leave out for size. It keeps object key order where
// it matters by returning objects as *object.

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

type reader struct {
	s   []byte
	i   int
	err error
}

// parseJSON reads one JSON value from data.
func parseJSON(data []byte) (any, error) {
	r := &reader{s: data}
	v := r.value(0)
	if r.err == nil {
		r.space()
		if r.i != len(r.s) {
			r.fail("text after the JSON value")
		}
	}
	if r.err != nil {
		return nil, r.err
	}
	return v, nil
}

func (r *reader) fail(msg string) {
	if r.err == nil {
		r.err = &Error{Reason: "JSON at byte " + strconv.Itoa(r.i) + ": " + msg}
	}
}

func (r *reader) space() {
	for r.i < len(r.s) {
		switch r.s[r.i] {
		case ' ', '\t', '\n', '\r':
			r.i++
		default:
			return
		}
	}
}

func (r *reader) value(depth int) any {
	if depth > maxDepth {
		r.fail("nested too deeply")
		return nil
	}
	r.space()
	if r.i >= len(r.s) {
		r.fail("unexpected end")
		return nil
	}
	switch c := r.s[r.i]; {
	case c == '{':
		r.i++
		o := &object{}
		r.space()
		if r.i < len(r.s) && r.s[r.i] == '}' {
			r.i++
			return o
		}
		for r.err == nil {
			r.space()
			if r.i >= len(r.s) || r.s[r.i] != '"' {
				r.fail("expected a key")
				return nil
			}
			k := r.str()
			r.space()
			if r.i >= len(r.s) || r.s[r.i] != ':' {
				r.fail("expected ':'")
				return nil
			}
			r.i++
			v := r.value(depth + 1)
			o.keys = append(o.keys, k)
			o.vals = append(o.vals, v)
			if len(o.keys) > maxElems {
				r.fail("an object of more than " + strconv.Itoa(maxElems) + " members")
				return nil
			}
			r.space()
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
				continue
			}
			if r.i < len(r.s) && r.s[r.i] == '}' {
				r.i++
				return o
			}
			r.fail("expected ',' or '}'")
		}
		return nil
	case c == '[':
		r.i++
		var a []any
		r.space()
		if r.i < len(r.s) && r.s[r.i] == ']' {
			r.i++
			return []any{}
		}
		for r.err == nil {
			a = append(a, r.value(depth+1))
			if len(a) > maxElems {
				r.fail("an array of more than " + strconv.Itoa(maxElems) + " elements")
				return nil
			}
			r.space()
			if r.i < len(r.s) && r.s[r.i] == ',' {
				r.i++
				continue
			}
			if r.i < len(r.s) && r.s[r.i] == ']' {
				r.i++
				return a
			}
			r.fail("expected ',' or ']'")
		}
		return nil
	case c == '"':
		return r.str()
	case c == 't':
		return r.word("true", true)
	case c == 'f':
		return r.word("false", false)
	case c == 'n':
		return r.word("null", nil)
	case c == '-' || c >= '0' && c <= '9':
		j := r.i
		for j < len(r.s) && (r.s[j] == '-' || r.s[j] == '+' || r.s[j] == '.' || r.s[j] == 'e' || r.s[j] == 'E' || r.s[j] >= '0' && r.s[j] <= '9') {
			j++
		}
		f, err := strconv.ParseFloat(string(r.s[r.i:j]), 64)
		if err != nil {
			r.fail("bad number")
			return nil
		}
		r.i = j
		return f
	}
	r.fail("unexpected character")
	return nil
}

func (r *reader) word(w string, v any) any {
	if len(r.s)-r.i >= len(w) && string(r.s[r.i:r.i+len(w)]) == w {
		r.i += len(w)
		return v
	}
	r.fail("unexpected word")
	return nil
}

// str reads a string at r.i (a '"').
func (r *reader) str() string {
	r.i++
	start := r.i
	// Fast path: no escapes.
	for r.i < len(r.s) {
		c := r.s[r.i]
		if c == '"' {
			s := string(r.s[start:r.i])
			r.i++
			return s
		}
		if c == '\\' || c < 0x20 {
			break
		}
		r.i++
	}
	buf := append([]byte(nil), r.s[start:r.i]...)
	for r.i < len(r.s) {
		c := r.s[r.i]
		switch {
		case c == '"':
			r.i++
			return string(buf)
		case c < 0x20:
			r.fail("control character in a string")
			return ""
		case c != '\\':
			buf = append(buf, c)
			r.i++
			continue
		}
		if r.i+1 >= len(r.s) {
			break
		}
		e := r.s[r.i+1]
		r.i += 2
		switch e {
		case '"', '\\', '/':
			buf = append(buf, e)
		case 'b':
			buf = append(buf, '\b')
		case 'f':
			buf = append(buf, '\f')
		case 'n':
			buf = append(buf, '\n')
		case 'r':
			buf = append(buf, '\r')
		case 't':
			buf = append(buf, '\t')
		case 'u':
			c1, ok := r.hex4()
			if !ok {
				return ""
			}
			ch := rune(c1)
			if utf16.IsSurrogate(ch) {
				if r.i+6 <= len(r.s) && r.s[r.i] == '\\' && r.s[r.i+1] == 'u' {
					r.i += 2
					c2, ok := r.hex4()
					if !ok {
						return ""
					}
					ch = utf16.DecodeRune(ch, rune(c2))
				} else {
					ch = utf8.RuneError
				}
			}
			buf = utf8.AppendRune(buf, ch)
		default:
			r.fail("bad escape")
			return ""
		}
	}
	r.fail("unterminated string")
	return ""
}

func (r *reader) hex4() (uint16, bool) {
	if r.i+4 > len(r.s) {
		r.fail("short \\u escape")
		return 0, false
	}
	v, err := strconv.ParseUint(string(r.s[r.i:r.i+4]), 16, 16)
	if err != nil {
		r.fail("bad \\u escape")
		return 0, false
	}
	r.i += 4
	return uint16(v), true
}
