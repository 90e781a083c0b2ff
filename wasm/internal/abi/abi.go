// Package abi holds what the two full WebAssembly adapters (wasm/internal/full and
// wasm/js) share: the error answers and status numbers of core's errors and
// of the boundary's own faults. It translates; the domain stays in core. The
// version, the status table and the boundary faults themselves are in
// package boundary, which the lean module uses without core. The contract
// is wasm/ABI.md.
package abi

import (
	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
)

// Version is the ABI version the modules report (see wasm/ABI.md).
const Version = boundary.Version

// Boundary faults: arguments that cannot even reach core.
var (
	ErrInvalidArgument = boundary.ErrInvalidArgument
	ErrInvalidHandle   = boundary.ErrInvalidHandle
)

// Codes of the boundary faults, as in {"error": {"code": …}}.
const (
	CodeInvalidArgument = boundary.CodeInvalidArgument
	CodeInvalidHandle   = boundary.CodeInvalidHandle
)

// Code returns the boundary code of err: core's codes, plus
// invalid_argument and invalid_handle.
func Code(err error) string {
	if c := boundary.Code(err); c != "" {
		return c
	}
	return core.Code(err)
}

// Status returns the negative status number of err (-1, internal, for a
// code without a number of its own).
func Status(err error) int32 { return boundary.Status(Code(err)) }

// ErrorJSON encodes err as {"error": {"code", "message", "field"}}, like
// core.ErrorJSON, with the boundary's own codes.
func ErrorJSON(err error) []byte {
	c := Code(err)
	if c != CodeInvalidArgument && c != CodeInvalidHandle {
		return core.ErrorJSON(err)
	}
	return core.ErrorAnswer{Error: core.ErrorBody{Code: c, Message: err.Error()}}.JSON()
}

// Recovered turns a recovered panic value into an error wrapping
// core.ErrInternal.
func Recovered(p any) error {
	return &boundary.Error{Err: core.ErrInternal, Detail: boundary.PanicText(p)}
}
