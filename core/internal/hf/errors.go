package hf

import "errors"

// ErrFormat reports a tokenizer.json that is not valid: not JSON, a field of
// the wrong type, a merge naming a token the vocabulary lacks, too big.
var ErrFormat = errors.New("hf: not a valid tokenizer.json")

// ErrUnsupported reports a valid tokenizer.json that uses something this
// package does not reproduce exactly (a model type, a normalizer, a
// pre-tokenizer regex): tokenfit refuses it rather than count differently.
var ErrUnsupported = errors.New("hf: unsupported tokenizer")

// Error says what is wrong; it matches ErrUnsupported when Unsupported is
// set, else ErrFormat.
type Error struct {
	Reason      string
	Unsupported bool
}

func (e *Error) Error() string {
	if e.Unsupported {
		return ErrUnsupported.Error() + ": " + e.Reason
	}
	return ErrFormat.Error() + ": " + e.Reason
}

// Is matches the sentinel the error stands for.
func (e *Error) Is(target error) bool {
	if e.Unsupported {
		return target == ErrUnsupported
	}
	return target == ErrFormat
}

func bad(reason string) error         { return &Error{Reason: reason} }
func unsupported(reason string) error { return &Error{Reason: reason, Unsupported: true} }
