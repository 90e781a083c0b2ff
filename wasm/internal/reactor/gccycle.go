//go:build wasip1

package reactor

import _ "unsafe" // for go:linkname

// EndGCCycle is deferred first by every export, so it runs last: when a
// collection cycle is under way it waits for its mark phase to finish, so
// the export returns with none open. In a reactor the collector's mark
// workers are goroutines, and goroutines other than the export's run only
// while an export waits; a cycle an export starts (any allocation can) is
// otherwise advanced by allocations' assists alone, which on a heap of
// pointer-free tables owe almost nothing, so it stays open across the
// exports that follow, with the write barrier on and nothing freed, while
// the heap grows inside it. Waiting lets the scheduler run the idle mark
// workers until the cycle ends. With no cycle under way, the usual case
// and the count fast path's, it costs one load and a branch.
// TestExportsEndGCCycle holds every export to it; RATIONALE.md, "Why does
// every export of the wasip1 adapter end the collector's cycle?", has the
// measurements.
func EndGCCycle() {
	if writeBarrier.enabled {
		// setGCPercent(-1) returns once the running mark phase is over
		// (the runtime's gcWaitOnMark); the old setting goes back on.
		setGCPercent(setGCPercent(-1))
	}
}

// writeBarrier is the runtime's write barrier flag, on exactly while a
// cycle marks (runtime.setGCPhase: the mark and mark termination phases).
// The runtime keeps its layout for the packages that read it through
// go:linkname (go.dev/issue/67401), so no -checklinkname=0 is needed for
// it.
//
//go:linkname writeBarrier runtime.writeBarrier
var writeBarrier struct {
	enabled bool
	pad     [3]byte
	alignme uint64
}
