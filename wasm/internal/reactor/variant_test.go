//go:build wasip1

package reactor

import (
	"errors"

	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
)

// The tests' variant: a panic is an internal error, answered with
// boundary's JSON, as the lean module answers it.
func init() {
	errInternal := errors.New("tokenfit: internal error")
	Use(
		func(err error) ([]byte, int32) {
			code := boundary.Code(err)
			if code == "" {
				code = "internal"
			}
			return boundary.AppendErrorJSON(nil, code, err.Error(), "", ""), boundary.Status(code)
		},
		func(p any) error { return &boundary.Error{Err: errInternal, Detail: boundary.PanicText(p)} },
	)
}
