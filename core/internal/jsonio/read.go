package jsonio

import (
	"bytes"
	"errors"
	"unicode/utf16"
	"unicode/utf8"
)

// ErrSyntax is what the reader returns for text that is not JSON.
var ErrSyntax = errors.New("invalid JSON")

// Kind names the JSON type of raw for error messages: "an object", "an
// array", "a string", "a boolean", "null", "a number", or "nothing" for
// empty text. O(len(raw)) for leading space, O(1) after it.
func Kind(raw []byte) string {
	raw = trimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case '"':
		return "a string"
	case 't', 'f':
		return "a boolean"
	case 'n':
		return "null"
	}
	return "a number"
}

// IsNull reports whether raw is JSON null or absent (empty or space).
func IsNull(raw []byte) bool {
	t := trimSpace(raw)
	return len(t) == 0 || string(t) == "null"
}

// SkipSpace returns the index of the first byte at or after i that is not
// JSON white space.
func SkipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

// trimSpace cuts JSON white space from both ends of b.
func trimSpace(b []byte) []byte {
	i, j := 0, len(b)
	for i < j && isSpace(b[i]) {
		i++
	}
	for j > i && isSpace(b[j-1]) {
		j--
	}
	return b[i:j]
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// stringEnd returns the index just past the string that starts at b[i].
func stringEnd(b []byte, i int) (int, error) {
	j := i + 1
	for {
		k := bytes.IndexByte(b[j:], '"')
		if k < 0 {
			return 0, ErrSyntax
		}
		j += k
		escapes := 0
		for p := j - 1; p > i && b[p] == '\\'; p-- {
			escapes++
		}
		if escapes%2 == 0 {
			return j + 1, nil
		}
		j++
	}
}

// ValueEnd returns the index just past the value that starts at b[i].
// O(length of the value).
func ValueEnd(b []byte, i int) (int, error) {
	if i >= len(b) {
		return 0, ErrSyntax
	}
	switch b[i] {
	case '"':
		return stringEnd(b, i)
	case '{', '[':
		depth := 0
		for j := i; j < len(b); {
			switch b[j] {
			case '"':
				e, err := stringEnd(b, j)
				if err != nil {
					return 0, err
				}
				j = e
				continue
			case '{', '[':
				depth++
			case '}', ']':
				if depth--; depth == 0 {
					return j + 1, nil
				}
			}
			j++
		}
		return 0, ErrSyntax
	}
	j := i
	for j < len(b) && !isSpace(b[j]) && b[j] != ',' && b[j] != '}' && b[j] != ']' {
		j++
	}
	if j == i {
		return 0, ErrSyntax
	}
	return j, nil
}

// Object calls fn with each key and raw value of the object b holds, in
// order. O(len(b)).
func Object(b []byte, fn func(key string, val []byte) error) error {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '{' {
		return ErrSyntax
	}
	if i = SkipSpace(b, i+1); i < len(b) && b[i] == '}' {
		return nil
	}
	for {
		if i >= len(b) || b[i] != '"' {
			return ErrSyntax
		}
		e, err := stringEnd(b, i)
		if err != nil {
			return err
		}
		key, err := Unquote(b[i:e])
		if err != nil {
			return err
		}
		if i = SkipSpace(b, e); i >= len(b) || b[i] != ':' {
			return ErrSyntax
		}
		i = SkipSpace(b, i+1)
		if e, err = ValueEnd(b, i); err != nil {
			return err
		}
		if err := fn(key, b[i:e]); err != nil {
			return err
		}
		if i = SkipSpace(b, e); i >= len(b) {
			return ErrSyntax
		}
		switch b[i] {
		case '}':
			return nil
		case ',':
			i = SkipSpace(b, i+1)
		default:
			return ErrSyntax
		}
	}
}

// Members calls fn with each distinct key of the object b holds and its
// last value, in the order the keys first appear: the object Python's
// json.loads builds (a dict keeps the place where a key was first set) and
// JavaScript's JSON.parse (but for keys that are array indexes, which it
// puts first), where Object gives a repeated key every time. O(len(b)), and
// O(k) memory for an object of k members.
func Members(b []byte, fn func(key string, val []byte) error) error {
	type member struct {
		key string
		val []byte
		dup bool // a later member has the key
	}
	var ms []member
	if err := Object(b, func(key string, val []byte) error {
		ms = append(ms, member{key: key, val: val})
		return nil
	}); err != nil {
		return err
	}
	if len(ms) > 1 {
		// first[k] is where key k first appears; a later one hands its
		// value back there.
		first := make(map[string]int, len(ms))
		for i := range ms {
			if j, ok := first[ms[i].key]; ok {
				ms[j].val, ms[i].dup = ms[i].val, true
			} else {
				first[ms[i].key] = i
			}
		}
	}
	for _, m := range ms {
		if !m.dup {
			if err := fn(m.key, m.val); err != nil {
				return err
			}
		}
	}
	return nil
}

// Array calls fn with each raw element of the array b holds, in order.
// O(len(b)).
func Array(b []byte, fn func(val []byte) error) error {
	i := SkipSpace(b, 0)
	if i >= len(b) || b[i] != '[' {
		return ErrSyntax
	}
	if i = SkipSpace(b, i+1); i < len(b) && b[i] == ']' {
		return nil
	}
	for {
		e, err := ValueEnd(b, i)
		if err != nil {
			return err
		}
		if err := fn(b[i:e]); err != nil {
			return err
		}
		if i = SkipSpace(b, e); i >= len(b) {
			return ErrSyntax
		}
		switch b[i] {
		case ']':
			return nil
		case ',':
			i = SkipSpace(b, i+1)
		default:
			return ErrSyntax
		}
	}
}

// Unquote decodes a JSON string as encoding/json does: escapes are
// resolved, an invalid byte or a lone UTF-16 surrogate becomes U+FFFD, and
// a raw control character or an unknown escape is ErrSyntax. A string
// without escapes that is valid UTF-8 is taken as it is. O(len(raw)).
func Unquote(raw []byte) (string, error) {
	raw = trimSpace(raw)
	if len(raw) < 2 || raw[0] != '"' || raw[len(raw)-1] != '"' {
		return "", ErrSyntax
	}
	body := raw[1 : len(raw)-1]
	if bytes.IndexByte(body, '\\') < 0 && bytes.IndexByte(body, '"') < 0 && !hasControl(body) && utf8.Valid(body) {
		return string(body), nil
	}
	out := make([]byte, 0, len(body))
	for i := 0; i < len(body); {
		c := body[i]
		switch {
		case c == '\\':
			if i+1 >= len(body) {
				return "", ErrSyntax
			}
			switch e := body[i+1]; e {
			case '"', '\\', '/':
				out = append(out, e)
			case 'b':
				out = append(out, '\b')
			case 'f':
				out = append(out, '\f')
			case 'n':
				out = append(out, '\n')
			case 'r':
				out = append(out, '\r')
			case 't':
				out = append(out, '\t')
			case 'u':
				r, ok := hex4(body, i+2)
				if !ok {
					return "", ErrSyntax
				}
				i += 6
				if utf16.IsSurrogate(r) {
					if r2, ok := hex4(body, i+2); ok && body[i] == '\\' && body[i+1] == 'u' {
						if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
							out = utf8.AppendRune(out, d)
							i += 6
							continue
						}
					}
					r = utf8.RuneError
				}
				out = utf8.AppendRune(out, r)
				continue
			default:
				return "", ErrSyntax
			}
			i += 2
		case c == '"' || c < 0x20:
			return "", ErrSyntax
		case c < utf8.RuneSelf:
			out = append(out, c)
			i++
		default:
			r, n := utf8.DecodeRune(body[i:])
			out = utf8.AppendRune(out, r) // an invalid byte decodes as U+FFFD
			i += n
		}
	}
	return string(out), nil
}

// hex4 reads the four hex digits at b[i:i+4] as a rune.
func hex4(b []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case '0' <= c && c <= '9':
			c -= '0'
		case 'a' <= c && c <= 'f':
			c = c - 'a' + 10
		case 'A' <= c && c <= 'F':
			c = c - 'A' + 10
		default:
			return 0, false
		}
		r = r*16 + rune(c)
	}
	return r, true
}

func hasControl(b []byte) bool {
	for _, c := range b {
		if c < 0x20 {
			return true
		}
	}
	return false
}
