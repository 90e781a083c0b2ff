package httpapi

import (
	"slices"
	"testing"

	"github.com/tokenfit/tokenfit/core"
)

// TestRoutes_EveryOperation: each of core's operations is served or has a
// reason not to be, and nothing else is routed.
func TestRoutes_EveryOperation(t *testing.T) {
	if !slices.IsSorted(operations) {
		t.Fatal("operations must be sorted (served searches them)")
	}
	for _, op := range core.OperationNames() {
		_, skipped := unserved[op]
		if served(op) == skipped {
			t.Errorf("%s: served %v, unserved %v: exactly one", op, served(op), skipped)
		}
	}
	for _, op := range operations {
		if !slices.Contains(core.OperationNames(), op) {
			t.Errorf("%s is routed but core has no such operation", op)
		}
	}
}

// TestStatus_CoreCodes: every code core answers with has a status, an
// error of the client's 4xx and core's own failures 5xx.
func TestStatus_CoreCodes(t *testing.T) {
	for code, want := range map[string]int{
		core.CodeInvalidRequest: 400, core.CodeUnknownEncoding: 400, core.CodeInvalidToken: 400,
		core.CodeInvalidTable: 400, core.CodeUnknownOperation: 404, core.CodeEncodingNotLoaded: 500,
		core.CodeInternal: 500, "never heard of": 500,
	} {
		if got := Status(code); got != want {
			t.Errorf("Status(%q) = %d, want %d", code, got, want)
		}
	}
}
