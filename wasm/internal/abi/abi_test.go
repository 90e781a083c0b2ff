package abi

import (
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/wasm/internal/boundary"
)

// TestCodes_AreCores holds boundary's copy of the codes (which the lean
// module uses without core) to core's, and their status numbers to ABI.md's.
func TestCodes_AreCores(t *testing.T) {
	for _, c := range []struct {
		boundary, core string
		status         int32
	}{
		{boundary.CodeInternal, core.CodeInternal, -1},
		{boundary.CodeInvalidTable, core.CodeInvalidTable, -4},
		{boundary.CodeUnknownEncoding, core.CodeUnknownEncoding, -5},
		{boundary.CodeEncodingNotLoaded, core.CodeEncodingNotLoaded, -6},
		{boundary.CodeInvalidRequest, core.CodeInvalidRequest, -7},
		{boundary.CodeInvalidToken, core.CodeInvalidToken, -8},
		{boundary.CodeUnknownOperation, core.CodeUnknownOperation, -9},
	} {
		if c.boundary != c.core {
			t.Errorf("boundary code %q, core's %q", c.boundary, c.core)
		}
		if s := boundary.Status(c.core); s != c.status {
			t.Errorf("%s: status %d, want %d", c.core, s, c.status)
		}
	}
	if Status(ErrInvalidArgument) != -2 || Status(ErrInvalidHandle) != -3 {
		t.Error("boundary faults' statuses")
	}
}
