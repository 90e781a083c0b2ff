package engine

import (
	"errors"

	"github.com/tokenfit/tokenfit/internal/errs"
)

// Sentinel errors. They carry the same messages and codes as core's sentinels
// of the same names, so an answer reads the same from either module.
var (
	ErrUnknownEncoding   = errors.New("tokenfit: unknown encoding")
	ErrEncodingNotLoaded = errors.New("tokenfit: encoding not loaded")
	ErrInvalidTable      = errors.New("tokenfit: invalid encoding table")
	ErrInvalidRequest    = errors.New("tokenfit: invalid request")
	ErrInvalidToken      = errors.New("tokenfit: invalid token")
	// ErrUnsupportedTokenizer: a valid tokenizer.json that uses something
	// tokenfit does not reproduce exactly; the message names it.
	ErrUnsupportedTokenizer = errors.New("tokenfit: unsupported tokenizer")
	// ErrTooLarge: a request whose work or answer would outgrow the budget
	// its own size allows (core's rendering and answer budgets, API.md);
	// it is refused before that work is done. The message says which
	// budget and by how much.
	ErrTooLarge = errors.New("tokenfit: request too large")
	// ErrInternal: a bug in tokenfit, never the input's fault.
	ErrInternal = errors.New("tokenfit: internal error")
)

// FieldError is an invalid request naming the field at fault, as a JSON path
// such as "messages[2].content". Core and core/internal/chat return it (as
// core.FieldError); errors.Is(err, ErrInvalidRequest) holds for it.
type FieldError struct {
	Field  string
	Reason string
}

func (e *FieldError) Error() string {
	return "tokenfit: invalid request: " + e.Field + ": " + e.Reason
}

func (e *FieldError) Unwrap() error { return ErrInvalidRequest }

// The error codes of {"error": {"code": …}}, from every module and host.
// This table is the one source: core's codes, the WebAssembly boundary's
// (wasm/internal/boundary, with the status numbers below) and the Go
// host's are these constants, and the tests hold wasm/ABI.md to them.
const (
	CodeInternal             = "internal"
	CodeInvalidArgument      = "invalid_argument" // the boundary's: a pointer, length or size out of range
	CodeInvalidHandle        = "invalid_handle"   // the boundary's: an encoding or live-counter handle never given out
	CodeInvalidTable         = "invalid_table"
	CodeUnknownEncoding      = "unknown_encoding"
	CodeEncodingNotLoaded    = "encoding_not_loaded"
	CodeInvalidRequest       = "invalid_request"
	CodeInvalidToken         = "invalid_token"
	CodeUnknownOperation     = "unknown_operation" // core's JSON API
	CodeUnsupportedTokenizer = "unsupported_tokenizer"
	CodeTooLarge             = "too_large"
)

// codes are the codes in the order of their status numbers: the fast paths
// of the modules return -(i+1) in place of a result for codes[i]
// (wasm/ABI.md, "Errors"). Numbers are never reused: a new code goes at the
// end.
var codes = [...]string{
	CodeInternal,
	CodeInvalidArgument,
	CodeInvalidHandle,
	CodeInvalidTable,
	CodeUnknownEncoding,
	CodeEncodingNotLoaded,
	CodeInvalidRequest,
	CodeInvalidToken,
	CodeUnknownOperation,
	CodeUnsupportedTokenizer,
	CodeTooLarge,
}

// Codes lists every error code, in the order of their status numbers
// (Codes()[i] has status -(i+1)).
func Codes() []string { return codes[:len(codes):len(codes)] }

// Status returns the negative status number of a code (-1, internal, for a
// code it does not know).
func Status(code string) int32 {
	for i, c := range codes {
		if c == code {
			return -int32(i + 1)
		}
	}
	return -1
}

// StatusCode returns the code of a negative status number, "" for none.
func StatusCode(status int32) string {
	if status < 0 && int(-status) <= len(codes) {
		return codes[-status-1]
	}
	return ""
}

// Code returns the boundary code of an error from this package, "internal"
// for any other.
func Code(err error) string {
	for _, c := range []struct {
		err  error
		code string
	}{
		{ErrUnknownEncoding, CodeUnknownEncoding},
		{ErrEncodingNotLoaded, CodeEncodingNotLoaded},
		{ErrInvalidTable, CodeInvalidTable},
		{ErrInvalidRequest, CodeInvalidRequest},
		{ErrInvalidToken, CodeInvalidToken},
		{ErrUnsupportedTokenizer, CodeUnsupportedTokenizer},
		{ErrTooLarge, CodeTooLarge},
	} {
		if errs.Is(err, c.err) {
			return c.code
		}
	}
	return CodeInternal
}

// Error is one of the sentinels with what went wrong, the request field at
// fault when there is one, and the encoding that is missing when that is
// the fault (ErrEncodingNotLoaded: hosts load it and try again). Its
// message is the sentinel's followed by Detail, worded as core words the
// same error (without fmt).
type Error struct {
	Err      error
	Field    string
	Encoding string
	Detail   string
}

func (e *Error) Error() string { return e.Err.Error() + e.Detail }

func (e *Error) Unwrap() error { return e.Err }
