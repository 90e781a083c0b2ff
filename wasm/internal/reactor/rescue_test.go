//go:build wasip1

package reactor

import (
	"strings"
	"testing"
)

// An export that panics answers the internal error's status, with the
// panic's message in last_error, and the next call is answered as usual.
func TestRescue(t *testing.T) {
	status := func() (s int32) {
		defer Rescue(&s)
		var m map[string]int
		m["x"] = 1 // a panic: assignment to a nil map
		return 1
	}()
	if status >= 0 {
		t.Fatalf("status %d after a panic, want a negative status", status)
	}
	if !strings.Contains(string(lastErr), `"internal"`) || !strings.Contains(string(lastErr), "nil map") {
		t.Errorf("last_error %s", lastErr)
	}
	res := func() (r uint64) {
		r = 7
		defer RescueBuffer(&r)
		panic("boom")
	}()
	if res != 0 || !strings.Contains(string(lastErr), "boom") {
		t.Errorf("a buffer export answered %d after a panic; last_error %s", res, lastErr)
	}
	if h := loadTable(0, 0); h >= 0 {
		t.Errorf("load_table of no table answered %d", h)
	}
}
