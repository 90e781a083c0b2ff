package core

import (
	"errors"
	"fmt"
)

// Sentinel errors. Every error core returns wraps one of them, so callers can
// test with errors.Is, and carries a stable code for the JSON boundary.
var (
	ErrUnknownEncoding   = errors.New("tokenfit: unknown encoding")
	ErrEncodingNotLoaded = errors.New("tokenfit: encoding not loaded")
	ErrInvalidTable      = errors.New("tokenfit: invalid encoding table")
	ErrInvalidRequest    = errors.New("tokenfit: invalid request")
	ErrInvalidToken      = errors.New("tokenfit: invalid token")
	ErrUnknownOperation  = errors.New("tokenfit: unknown operation")
	ErrInternal          = errors.New("tokenfit: internal error")
)

// Error codes, as they appear in {"error": {"code": …}} across the boundary.
const (
	CodeUnknownEncoding   = "unknown_encoding"
	CodeEncodingNotLoaded = "encoding_not_loaded"
	CodeInvalidTable      = "invalid_table"
	CodeInvalidRequest    = "invalid_request"
	CodeInvalidToken      = "invalid_token"
	CodeUnknownOperation  = "unknown_operation"
	CodeInternal          = "internal"
)

var codes = []struct {
	err  error
	code string
}{
	{ErrUnknownEncoding, CodeUnknownEncoding},
	{ErrEncodingNotLoaded, CodeEncodingNotLoaded},
	{ErrInvalidTable, CodeInvalidTable},
	{ErrInvalidRequest, CodeInvalidRequest},
	{ErrInvalidToken, CodeInvalidToken},
	{ErrUnknownOperation, CodeUnknownOperation},
}

// Code returns the boundary code of an error: one of the Code constants.
func Code(err error) string {
	for _, c := range codes {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return CodeInternal
}

// FieldError is an invalid request naming the field at fault, as a JSON path
// such as "messages[2].content".
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string {
	return fmt.Sprintf("tokenfit: invalid request: %s: %s", e.Field, e.Reason)
}

func (e *FieldError) Unwrap() error { return ErrInvalidRequest }

func fieldErr(field, format string, args ...any) error {
	return &FieldError{Field: field, Reason: fmt.Sprintf(format, args...)}
}
