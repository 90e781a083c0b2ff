//go:build wasip1

package reactor

import (
	"runtime/debug"
	"testing"
)

// setGCPercent turns the knob debug.SetGCPercent turns.
func TestSetGCPercent(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(40))
	if old := setGCPercent(60); old != 40 {
		t.Errorf("setGCPercent reported %d before, debug.SetGCPercent set 40", old)
	}
	if got := debug.SetGCPercent(40); got != 60 {
		t.Errorf("debug.SetGCPercent reported %d, setGCPercent set 60", got)
	}
	resume := PauseGC()
	if got := debug.SetGCPercent(-1); got != -1 {
		t.Errorf("GC percent %d while paused, want -1 (off)", got)
	}
	resume()
	if got := debug.SetGCPercent(40); got != 40 {
		t.Errorf("GC percent %d after resuming, want 40", got)
	}
}
