package chat

import (
	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/format"
)

// fieldErr is an invalid request at field (core's fieldErr, with the same
// rule): values quoted from the input go through engine.Clip, and so does
// field (it may hold a key of the input).
func fieldErr(field, reason string, args ...any) error {
	return &engine.FieldError{Field: engine.Clip(field), Reason: format.Sprintf(reason, args...)}
}
