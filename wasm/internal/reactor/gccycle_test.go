//go:build wasip1

package reactor

import (
	"runtime"
	"testing"
)

// sink keeps the test's allocations from being optimised away.
var sink []byte

// A cycle started by an allocation is still marking when the goroutine that
// started it has not waited since (as an export's has not); endGCCycle
// ends it, and costs nothing when no cycle is open.
func TestEndGCCycle(t *testing.T) {
	runtime.GC()
	EndGCCycle() // none open: returns at once
	if writeBarrier.enabled {
		t.Fatal("the write barrier is on right after runtime.GC")
	}
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	before := stats.NumGC
	opened := false
	for i := 0; i < 1<<14 && !opened; i++ {
		sink = make([]byte, 64<<10)
		opened = writeBarrier.enabled
	}
	if !opened {
		t.Skip("no cycle was seen under way after 1 GiB of allocations (assists finished each one)")
	}
	abiVersion() // an export that allocates nothing: endGCCycle alone ends the cycle
	if writeBarrier.enabled {
		t.Fatal("a collection cycle is still under way after an export returned")
	}
	runtime.ReadMemStats(&stats)
	if stats.NumGC <= before {
		t.Errorf("%d cycles completed before, %d after: the cycle the allocations started did not end", before, stats.NumGC)
	}
}
