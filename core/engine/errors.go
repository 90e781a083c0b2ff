package engine

import "errors"

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
)

// Error codes, as core names them across the boundary.
const (
	CodeUnknownEncoding      = "unknown_encoding"
	CodeEncodingNotLoaded    = "encoding_not_loaded"
	CodeInvalidTable         = "invalid_table"
	CodeInvalidRequest       = "invalid_request"
	CodeInvalidToken         = "invalid_token"
	CodeUnsupportedTokenizer = "unsupported_tokenizer"
	CodeInternal             = "internal"
)

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
	} {
		if errors.Is(err, c.err) {
			return c.code
		}
	}
	return CodeInternal
}

// Error is one of the sentinels with what went wrong, and the request field
// at fault when there is one. Its message is the sentinel's followed by
// Detail, worded as core words the same error (without fmt).
type Error struct {
	Err    error
	Field  string
	Detail string
}

func (e *Error) Error() string { return e.Err.Error() + e.Detail }

func (e *Error) Unwrap() error { return e.Err }
