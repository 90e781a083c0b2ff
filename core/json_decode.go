package core

import (
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
	"github.com/tokenfit/tokenfit/internal/errs"
)

// Requests are decoded by generated decodeJSON methods
// (json_decode_gen.go, internal/cmd/genjson) that do what encoding/json's
// Unmarshal did, without reflection, so that the WebAssembly modules link
// no encoding/json (see RATIONALE.md): the same values, and the same
// errors word for word.

// decodable is a request type with a generated or hand-written decoder.
type decodable interface {
	decodeJSON(d *decoder, raw []byte) error
}

// decodeJSON decodes one JSON value into v. Unknown fields are ignored (a
// chat request carries many that cost no tokens); keys match exactly, else
// ignoring case. Syntax and type errors become FieldErrors wrapping
// ErrInvalidRequest, naming the field, and so does data after the value.
// It decodes in place: strings are sliced out of data, never the whole
// request copied (a copy of a 100 MB request grew the WebAssembly module's
// memory by 200 MB for good). O(len(data)).
func decodeJSON(data []byte, v decodable) error {
	if err := jsonio.Check(data); err != nil {
		se, _ := errs.As[*jsonio.SyntaxError](err)
		return fieldErr("(body)", "invalid JSON at byte %d: %s", se.Offset, se.Msg)
	}
	var d decoder
	raw := data[jsonio.SkipSpace(data, 0):]
	if err := v.decodeJSON(&d, raw); err != nil {
		return requestErr(err)
	}
	return d.saved
}

// requestErr passes the errors of hand-written decoders through, and names
// the body in any other.
func requestErr(err error) error {
	if fe, ok := errs.As[*FieldError](err); ok {
		return fe
	}
	if errs.Is(err, ErrInvalidRequest) {
		return err
	}
	return fieldErr("(body)", "%s", err.Error())
}

// decoder is the state of one decodeJSON: the path of field names to the
// value being decoded, as encoding/json reports it (struct fields by JSON
// name, embedded structs by Go name, no array indexes or map keys), and the
// first value of a wrong JSON type, which like encoding/json's is reported
// only when nothing worse comes after it.
type decoder struct {
	path  []string
	saved error
}

// enter appends to the path the names of the field a value is decoded
// into. Not inlined: the generated decoders call it once per field, and an
// inlined append is a few hundred bytes of WebAssembly at each.
//
//go:noinline
func (d *decoder) enter(names ...string) { d.path = append(d.path, names...) }

// typeErr records a value of the wrong JSON type for a Go type typeName.
func (d *decoder) typeErr(raw []byte, typeName string) {
	d.typeErrValue(jsonType(raw), typeName)
}

func (d *decoder) typeErrValue(value, typeName string) {
	if d.saved != nil {
		return
	}
	field := strings.Join(d.path, ".")
	if field == "" {
		field = "(body)"
	}
	d.saved = fieldErr(field, "expected %s, got JSON %s", typeName, value)
}

// jsonType names a value's JSON type as encoding/json's type errors do.
func jsonType(raw []byte) string {
	switch raw[0] {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "bool"
	case 'n':
		return "null"
	}
	return "number"
}

// own runs fn as a nested json.Unmarshal inside an UnmarshalJSON method
// ran: a wrong type inside it is its error, returned at once.
func (d *decoder) own(fn func() error) error {
	outer := d.saved
	d.saved = nil
	err := fn()
	if err == nil {
		err = d.saved
	}
	d.saved = outer
	return err
}

// is reports whether raw opens with c; null is false, another type is
// recorded as an error. Not inlined: the generated decoders call it for
// every object, array and map.
//
//go:noinline
func (d *decoder) is(raw []byte, c byte, typeName string) bool {
	switch raw[0] {
	case c:
		return true
	case 'n':
		return false
	}
	d.typeErr(raw, typeName)
	return false
}

func (d *decoder) str(raw []byte, typeName string) (string, bool) {
	if !d.is(raw, '"', typeName) {
		return "", false
	}
	s, err := jsonio.Unquote(raw)
	return s, err == nil
}

func (d *decoder) boolean(raw []byte, typeName string) (bool, bool) {
	switch raw[0] {
	case 't':
		return true, true
	case 'f':
		return false, true
	case 'n':
		return false, false
	}
	d.typeErr(raw, typeName)
	return false, false
}

// number returns a number's text; another type is recorded as an error.
func (d *decoder) number(raw []byte, typeName string) (string, bool) {
	switch c := raw[0]; {
	case c == 'n':
		return "", false
	case c == '-' || '0' <= c && c <= '9':
		return string(raw), true
	}
	d.typeErr(raw, typeName)
	return "", false
}

func (d *decoder) int(raw []byte, typeName string, bits int) (int64, bool) {
	s, ok := d.number(raw, typeName)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		d.typeErrValue("number "+s, typeName)
		return 0, false
	}
	return n, true
}

func (d *decoder) uint(raw []byte, typeName string, bits int) (uint64, bool) {
	s, ok := d.number(raw, typeName)
	if !ok {
		return 0, false
	}
	n, err := strconv.ParseUint(s, 10, bits)
	if err != nil {
		d.typeErrValue("number "+s, typeName)
		return 0, false
	}
	return n, true
}

func (d *decoder) float(raw []byte, typeName string) (float64, bool) {
	s, ok := d.number(raw, typeName)
	if !ok {
		return 0, false
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		d.typeErrValue("number "+s, typeName)
		return 0, false
	}
	return f, true
}

// fieldIndex finds the field a key names: exactly, else ignoring case (the
// first such field), as encoding/json matches; -1 for none. O(fields).
func fieldIndex(key string, names []string) int {
	for i, n := range names {
		if n == key {
			return i
		}
	}
	for i, n := range names {
		if strings.EqualFold(n, key) {
			return i
		}
	}
	return -1
}

// Decoders written by hand: types whose UnmarshalJSON decoded a copy with
// defaults (or with pointers) through a nested json.Unmarshal. Their errors
// name the copy's type, core.plain, as they always have.

// plain is DecodeRequest without its methods, and decodeRequestIn the
// shape DecodeRequest's decoder reads: ids as pointers, so that a null id
// is seen (JSON.stringify writes an undefined array element as null, which
// would otherwise decode as token 0).
type plain DecodeRequest

type decodeRequestIn struct {
	plain
	IDs []*int `json:"ids"`
}

func (r *DecodeRequest) decodeJSON(d *decoder, raw []byte) error {
	var in decodeRequestIn
	err := d.own(func() error {
		return in.decodeFields(d, raw, `struct { core.plain; IDs []*int "json:\"ids\"" }`)
	})
	if err != nil {
		return err
	}
	*r = DecodeRequest(in.plain)
	r.IDs = nil
	if in.IDs != nil {
		r.IDs = make([]int, len(in.IDs))
	}
	for i, id := range in.IDs {
		if id == nil {
			return fieldErr("ids["+strconv.Itoa(i)+"]", "must be a token id, not null")
		}
		r.IDs[i] = *id
	}
	return nil
}

func (t *Thresholds) decodeJSON(d *decoder, raw []byte) error {
	p := DefaultThresholds()
	if err := d.own(func() error { return p.decodeFields(d, raw, "core.plain") }); err != nil {
		return err
	}
	*t = p
	return nil
}

func (c *SessionConfig) decodeJSON(d *decoder, raw []byte) error {
	p := DefaultSessionConfig()
	if err := d.own(func() error { return p.decodeFields(d, raw, "core.plain") }); err != nil {
		return err
	}
	*c = p
	return nil
}

func (s *Session) decodeJSON(d *decoder, raw []byte) error {
	p := NewSession()
	if err := d.own(func() error { return p.decodeFields(d, raw, "core.plain") }); err != nil {
		return err
	}
	*s = p
	return nil
}

// decodeJSON reads a tier's name; any other JSON, null included, is an
// error.
func (t *Tier) decodeJSON(d *decoder, raw []byte) error {
	if raw[0] != '"' {
		d.typeErr(raw, "core.Tier")
		return nil
	}
	s, err := jsonio.Unquote(raw)
	if err != nil {
		return err
	}
	return t.UnmarshalText([]byte(s))
}

// decodeWith is the UnmarshalJSON of a type with a decodeJSON method, for
// Go callers that decode it with encoding/json.
func decodeWith(b []byte, v decodable) error {
	var d decoder
	if err := v.decodeJSON(&d, b[jsonio.SkipSpace(b, 0):]); err != nil {
		return err
	}
	return d.saved
}
