package abi

import (
	"testing"

	"github.com/tokenfit/tokenfit/core"
)

// TestCodes_Status: every error the full modules answer gets the status
// number of its code in core/engine's table (which ABI.md mirrors: see
// boundary's TestStatus_ABI).
func TestCodes_Status(t *testing.T) {
	for _, c := range []struct {
		err    error
		status int32
	}{
		{core.ErrInternal, -1},
		{ErrInvalidArgument, -2},
		{ErrInvalidHandle, -3},
		{core.ErrInvalidTable, -4},
		{core.ErrUnknownEncoding, -5},
		{core.ErrEncodingNotLoaded, -6},
		{core.ErrInvalidRequest, -7},
		{core.ErrInvalidToken, -8},
		{core.ErrUnknownOperation, -9},
	} {
		if s := Status(c.err); s != c.status {
			t.Errorf("%v: status %d, want %d", c.err, s, c.status)
		}
	}
}
