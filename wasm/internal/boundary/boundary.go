// Package boundary is the part of tokenfit's WebAssembly contract
// (wasm/ABI.md) that needs neither core, fmt nor encoding/json: the ABI
// version, the boundary's own errors and the JSON error answer written by
// hand, over core/engine's table of codes and status numbers. The lean
// module (wasm/wasip1/lite) is built on it without core;
// package abi builds the full modules' error answers on it with core's
// codes.
package boundary

import (
	"errors"
	"strconv"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/internal/errs"
)

// Version is the ABI version the modules report. It changes when an export's
// name, signature or meaning changes (see wasm/ABI.md).
const Version = 1

// Boundary faults: arguments that cannot even reach core.
var (
	// ErrInvalidArgument reports a pointer and length that are not inside a
	// live buffer, or a buffer size out of range.
	ErrInvalidArgument = errors.New("tokenfit: invalid argument")
	// ErrInvalidHandle reports an encoding or live-counter handle the module
	// never gave out (or has released).
	ErrInvalidHandle = errors.New("tokenfit: invalid encoding handle")
)

// The error codes of the boundary's own faults; the table of every code
// and its status number is core/engine's.
const (
	CodeInvalidArgument = engine.CodeInvalidArgument
	CodeInvalidHandle   = engine.CodeInvalidHandle
)

// Status returns the negative status number of a code (-1, internal, for a
// code without a number of its own).
func Status(code string) int32 { return engine.Status(code) }

// Error is a boundary fault with its detail; its message is the sentinel's
// followed by ": " and the detail.
type Error struct {
	Err    error
	Detail string
}

func (e *Error) Error() string { return e.Err.Error() + ": " + e.Detail }
func (e *Error) Unwrap() error { return e.Err }

// PanicText is the text of a recovered panic value for an internal error's
// message: an error's or a Stringer's text, a string itself, "panic" for
// anything else (the modules link no fmt to print it).
func PanicText(p any) string {
	switch v := p.(type) {
	case error:
		return v.Error()
	case string:
		return v
	case interface{ String() string }:
		return v.String()
	}
	return "panic"
}

// Code returns the code of a boundary fault, "" for any other error.
func Code(err error) string {
	switch {
	case errs.Is(err, ErrInvalidArgument):
		return CodeInvalidArgument
	case errs.Is(err, ErrInvalidHandle):
		return CodeInvalidHandle
	}
	return ""
}

// AppendErrorJSON appends the error answer {"error": {"code": …,
// "message": …, "field": …, "encoding": …}} (field and encoding omitted
// when empty) to dst, as core.ErrorJSON writes it.
func AppendErrorJSON(dst []byte, code, message, field, encoding string) []byte {
	dst = append(dst, `{"error":{"code":`...)
	dst = AppendJSONString(dst, code)
	dst = append(dst, `,"message":`...)
	dst = AppendJSONString(dst, message)
	if field != "" {
		dst = append(dst, `,"field":`...)
		dst = AppendJSONString(dst, field)
	}
	if encoding != "" {
		dst = append(dst, `,"encoding":`...)
		dst = AppendJSONString(dst, encoding)
	}
	return append(dst, "}}"...)
}

// AppendJSONString appends s as a JSON string. Invalid UTF-8 becomes U+FFFD,
// one per bad byte, as encoding/json does.
func AppendJSONString(dst []byte, s string) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20:
				dst = append(dst, `\u00`...)
				dst = append(dst, "0123456789abcdef"[c>>4], "0123456789abcdef"[c&15])
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			dst = append(dst, `\u202`...)
			dst = strconv.AppendInt(dst, int64(r&15), 16)
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}
