package core

import (
	"errors"

	"github.com/tokenfit/tokenfit/core/internal/format"
	"github.com/tokenfit/tokenfit/internal/errs"

	"github.com/tokenfit/tokenfit/core/engine"
)

// Sentinel errors. Every error core returns wraps one of them, so callers can
// test with errors.Is, and carries a stable code for the JSON boundary. The
// counting ones are engine's own values.
var (
	ErrUnknownEncoding   = engine.ErrUnknownEncoding
	ErrEncodingNotLoaded = engine.ErrEncodingNotLoaded
	ErrInvalidTable      = engine.ErrInvalidTable
	ErrInvalidRequest    = engine.ErrInvalidRequest
	ErrInvalidToken      = engine.ErrInvalidToken
	ErrTooLarge          = engine.ErrTooLarge
	ErrUnknownOperation  = errors.New("tokenfit: unknown operation")
	ErrInternal          = engine.ErrInternal
)

// Error codes, as they appear in {"error": {"code": …}} across the boundary
// (core/engine's table, the one source). CodeInvalidArgument and
// CodeInvalidHandle are the WebAssembly boundary's own, which core never
// returns.
const (
	CodeUnknownEncoding   = engine.CodeUnknownEncoding
	CodeEncodingNotLoaded = engine.CodeEncodingNotLoaded
	CodeInvalidTable      = engine.CodeInvalidTable
	CodeInvalidRequest    = engine.CodeInvalidRequest
	CodeInvalidToken      = engine.CodeInvalidToken
	CodeUnknownOperation  = engine.CodeUnknownOperation
	CodeInternal          = engine.CodeInternal
	CodeInvalidArgument   = engine.CodeInvalidArgument
	CodeInvalidHandle     = engine.CodeInvalidHandle
	CodeTooLarge          = engine.CodeTooLarge
)

// Code returns the boundary code of an error: one of the Code constants.
// The counting errors are engine's, and so are their codes.
func Code(err error) string {
	if errs.Is(err, ErrUnknownOperation) {
		return CodeUnknownOperation
	}
	return engine.Code(err)
}

// FieldError is an invalid request naming the field at fault, as a JSON path
// such as "messages[2].content" (core/engine's, where the request side,
// core/internal/chat, finds it too).
type FieldError = engine.FieldError

// fieldErr is an invalid request at field. Values quoted from the input go
// through engine.Clip, and so does field (it may hold a key of the input).
func fieldErr(field, reason string, args ...any) error {
	return &FieldError{Field: engine.Clip(field), Reason: format.Sprintf(reason, args...)}
}
