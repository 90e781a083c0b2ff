//go:build !wasm

package engine

import (
	"os"
	"os/exec"
	"runtime"
	"runtime/debug"
	"sync"
	"testing"
)

// TestPauseGC: the pause turns the knob debug.SetGCPercent turns, holders
// may overlap from several goroutines, the last one puts back the setting
// the first found, and a setting made meanwhile by someone else stands.
func TestPauseGC(t *testing.T) {
	defer debug.SetGCPercent(debug.SetGCPercent(37))
	var wg sync.WaitGroup
	for range 16 {
		wg.Go(func() {
			for range 200 {
				pauseGC()
				if got := debug.SetGCPercent(-1); got != -1 {
					t.Errorf("paused, the setting reads %d", got)
				}
				resumeGC()
			}
		})
	}
	wg.Wait()
	if got := debug.SetGCPercent(37); got != 37 {
		t.Errorf("after the pauses the setting is %d, want 37", got)
	}
	pauseGC()
	debug.SetGCPercent(55) // someone else's, while paused
	resumeGC()
	if got := debug.SetGCPercent(37); got != 55 {
		t.Errorf("a setting made during the pause became %d, want 55", got)
	}
}

// TestGet_NoCollection: building o200k_base in a fresh process runs no
// collection, even with the collector at its most eager, and leaves the
// setting as it found it. (A child process: this one has loaded it.)
func TestGet_NoCollection(t *testing.T) {
	if Table("o200k_base") == nil {
		t.Skip("built without tables")
	}
	if os.Getenv("TOKENFIT_GC_CHILD") != "" {
		debug.SetGCPercent(1)
		runtime.GC() // none under way when the count starts
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		if _, err := Get("o200k_base"); err != nil {
			t.Fatal(err)
		}
		runtime.ReadMemStats(&after)
		if n := after.NumGC - before.NumGC; n != 0 {
			t.Errorf("%d collections while o200k_base was built", n)
		}
		if got := debug.SetGCPercent(100); got != 1 {
			t.Errorf("after the build the setting is %d, want 1", got)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestGet_NoCollection$", "-test.count=1")
	cmd.Env = append(os.Environ(), "TOKENFIT_GC_CHILD=1")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("child: %v\n%s", err, out)
	}
}
