package core

import (
	"errors"
	"strconv"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

//go:generate go run ../internal/cmd/genjson

// marshal encodes an answer with the generated appendJSON methods
// (json_gen.go: no reflection, so the WebAssembly modules link no
// encoding/json; see RATIONALE.md). The bytes are encoding/json's with
// SetEscapeHTML(false): prompt text keeps its < > & as they are, answers are
// not HTML. Answers are plain data, so this fails only on a value JSON
// cannot hold (NaN), an internal error. O(size of the answer).
func marshal(v any) ([]byte, error) {
	w := jsonio.Writer{B: make([]byte, 0, 256)}
	appendAny(&w, v)
	if w.Err != nil {
		return nil, errors.Join(ErrInternal, errors.New("encoding the answer: "+w.Err.Error()))
	}
	return w.B, nil
}

// marshalOwn is the MarshalJSON of a type whose JSON is written by hand
// below, for Go callers that encode it with encoding/json.
func marshalOwn(v interface{ appendJSON(*jsonio.Writer) }) ([]byte, error) {
	var w jsonio.Writer
	v.appendJSON(&w)
	return w.B, w.Err
}

func errUnsupportedAnswer(any) error {
	return errors.New("an answer of a type internal/cmd/genjson does not know (add it to its roots)")
}

func errNoTier(t Tier) error {
	return errors.Join(ErrInternal, errors.New("no tier "+strconv.Itoa(int(t))))
}

// The types whose JSON is not their fields' (json_gen.go calls these).

// appendJSON writes a tier by its name.
func (t Tier) appendJSON(w *jsonio.Writer) {
	if int(t) >= len(tierNames) {
		w.Null()
		if w.Err == nil {
			w.Err = errNoTier(t)
		}
		return
	}
	w.String(tierNames[t])
}

// appendJSON writes the section back in the shape it came in.
func (s Section) appendJSON(w *jsonio.Writer) {
	switch {
	case s.Tokens != nil:
		w.Raw(`{"tokens":`)
		w.Int(int64(*s.Tokens))
		w.Byte('}')
	case s.isList:
		if s.Texts == nil {
			w.Null()
			return
		}
		w.Array(len(s.Texts), func(i int) { w.String(s.Texts[i]) })
	case len(s.Texts) == 1:
		w.String(s.Texts[0])
	default:
		w.Null()
	}
}
