package host

import (
	"encoding/json"
	"fmt"

	"github.com/tokenfit/tokenfit/core"
)

// Error is an error answer from the module: {"error": {"code", "message",
// "field", "encoding"}}. It wraps core's sentinel error for its code, so
// errors.Is(err, core.ErrUnknownEncoding) holds as it does natively.
type Error struct {
	Code     string // a core.Code… constant (core/engine's table)
	Message  string // core's message, such as "tokenfit: unknown encoding …"
	Field    string // the JSON field at fault, if any
	Encoding string // for encoding_not_loaded, the encoding to load
}

// Error returns the message.
func (e *Error) Error() string { return e.Message }

// Unwrap returns core's sentinel error for the code (nil for the boundary's
// own codes).
func (e *Error) Unwrap() error { return sentinels[e.Code] }

var sentinels = map[string]error{
	core.CodeUnknownEncoding:   core.ErrUnknownEncoding,
	core.CodeEncodingNotLoaded: core.ErrEncodingNotLoaded,
	core.CodeInvalidTable:      core.ErrInvalidTable,
	core.CodeInvalidRequest:    core.ErrInvalidRequest,
	core.CodeInvalidToken:      core.ErrInvalidToken,
	core.CodeUnknownOperation:  core.ErrUnknownOperation,
	core.CodeInternal:          core.ErrInternal,
	core.CodeTooLarge:          core.ErrTooLarge,
}

// parseError decodes an error answer.
func parseError(b []byte) error {
	var a core.ErrorAnswer
	if err := json.Unmarshal(b, &a); err != nil || a.Error.Code == "" {
		return &Error{Code: core.CodeInternal, Message: fmt.Sprintf("tokenfit: host: not an error answer: %.200q", b)}
	}
	return &Error{Code: a.Error.Code, Message: a.Error.Message, Field: a.Error.Field, Encoding: a.Error.Encoding}
}
