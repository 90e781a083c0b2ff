// Package abi holds what the two WebAssembly adapters (wasm/wasip1 and
// wasm/js) share: the ABI version, the numeric error codes of the fast
// paths and the error answers for faults at the boundary itself. It
// translates; the domain stays in core. The contract is wasm/ABI.md.
package abi

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/tokenfit/tokenfit/core"
)

// Version is the ABI version the modules report. It changes when an export's
// name, signature or meaning changes (see wasm/ABI.md).
const Version = 1

// Boundary faults: arguments that cannot even reach core.
var (
	// ErrInvalidArgument reports a pointer and length that are not inside a
	// live buffer, or a buffer size out of range.
	ErrInvalidArgument = errors.New("tokenfit: invalid argument")
	// ErrInvalidHandle reports an encoding handle the module never gave out.
	ErrInvalidHandle = errors.New("tokenfit: invalid encoding handle")
)

// Codes of the boundary faults, as in {"error": {"code": …}}.
const (
	CodeInvalidArgument = "invalid_argument"
	CodeInvalidHandle   = "invalid_handle"
)

// Status numbers returned by the fast paths (count, load_table, …) in place
// of a result. Every error has one; its message is in the error answer.
// The list is wasm/ABI.md's; numbers are never reused.
var statuses = []struct {
	code   string
	status int32
}{
	{core.CodeInternal, -1},
	{CodeInvalidArgument, -2},
	{CodeInvalidHandle, -3},
	{core.CodeInvalidTable, -4},
	{core.CodeUnknownEncoding, -5},
	{core.CodeEncodingNotLoaded, -6},
	{core.CodeInvalidRequest, -7},
	{core.CodeInvalidToken, -8},
	{core.CodeUnknownOperation, -9},
}

// Code returns the boundary code of err: core's codes, plus
// invalid_argument and invalid_handle.
func Code(err error) string {
	switch {
	case errors.Is(err, ErrInvalidArgument):
		return CodeInvalidArgument
	case errors.Is(err, ErrInvalidHandle):
		return CodeInvalidHandle
	}
	return core.Code(err)
}

// Status returns the negative status number of err (-1, internal, for a
// code without a number of its own).
func Status(err error) int32 {
	c := Code(err)
	for _, s := range statuses {
		if s.code == c {
			return s.status
		}
	}
	return -1
}

// ErrorJSON encodes err as {"error": {"code", "message", "field"}}, like
// core.ErrorJSON, with the boundary's own codes.
func ErrorJSON(err error) []byte {
	c := Code(err)
	if c != CodeInvalidArgument && c != CodeInvalidHandle {
		return core.ErrorJSON(err)
	}
	b, _ := json.Marshal(core.ErrorAnswer{Error: core.ErrorBody{Code: c, Message: err.Error()}})
	return b
}

// Recovered turns a recovered panic value into an error wrapping
// core.ErrInternal.
func Recovered(p any) error {
	return fmt.Errorf("%w: %v", core.ErrInternal, p)
}
