package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// decodeJSON decodes one JSON value into v. Unknown fields are ignored (a
// chat request carries many that cost no tokens); syntax and type errors
// become FieldErrors wrapping ErrInvalidRequest, naming the field, and so
// does data after the value. It decodes in place: a json.Decoder would copy
// the whole request into a buffer of its own first, which for a 100 MB
// request in the WebAssembly module grew its memory by 200 MB more, for
// good. No request type holds an interface, so numbers need no UseNumber.
func decodeJSON(data []byte, v any) error {
	if err := json.Unmarshal(data, v); err != nil {
		return jsonErr(err)
	}
	return nil
}

func jsonErr(err error) error {
	var fe *FieldError
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &fe):
		return fe
	case errors.As(err, &se):
		return fieldErr("(body)", "invalid JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "(body)"
		}
		return fieldErr(field, "expected %s, got JSON %s", te.Type, te.Value)
	case errors.Is(err, ErrInvalidRequest):
		return err
	}
	return fieldErr("(body)", "%v", err)
}

// marshal encodes an answer. Answers are plain data, so this cannot fail for
// them; a failure is an internal error. Prompt text keeps its < > & as they
// are: answers are not HTML.
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, fmt.Errorf("%w: encoding the answer: %v", ErrInternal, err)
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}
