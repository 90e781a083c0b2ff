//go:build !wasm

package engine

import (
	"sync"
	_ "unsafe" // for go:linkname
)

// Building an encoding allocates its look-up structures at once (for
// o200k_base some 14 MB, most of it address space that counting touches a
// region at a time) and frees nothing, so a collection during the build
// finds nothing to free. In a fresh process the heap passes the collector's
// first goals while it grows, and two collections ran inside Get, each
// starting the collector's workers on fresh pages (RATIONALE.md, "Why does
// start-up build so little?"). So the collector is off while an encoding is
// built. The first allocation after it may start a collection, which then
// has something to weigh.
//
// Loads are serialised by the registry's lock, but the pause counts its
// holders anyway, so that whatever pauses it (a load, or one added later)
// can overlap: the first turns the collector off, the last puts back the
// setting the first found. A setting changed by another goroutine while
// the collector is off (debug.SetGCPercent) is kept, not overwritten.
// (In WebAssembly the adapters pause it themselves: gcpause_wasm.go.)
var gcPause struct {
	sync.Mutex
	holders int
	old     int32 // the setting before the first holder
}

// pauseGC turns the collector off until the matching resumeGC. If a
// collection is under way it first waits for it to end.
func pauseGC() {
	gcPause.Lock()
	defer gcPause.Unlock()
	if gcPause.holders == 0 {
		gcPause.old = setGCPercent(-1)
	}
	gcPause.holders++
}

// resumeGC ends a pauseGC; the last one puts the setting back.
func resumeGC() {
	gcPause.Lock()
	defer gcPause.Unlock()
	gcPause.holders--
	if gcPause.holders == 0 {
		if now := setGCPercent(gcPause.old); now != -1 {
			setGCPercent(now) // set by someone else meanwhile: theirs stands
		}
	}
}

// setGCPercent is runtime/debug.SetGCPercent without importing
// runtime/debug, which would link fmt and os into every program built on
// this package: the runtime's own implementation, which it exports to
// runtime/debug under this name (as wasm/internal/reactor's gcpercent.go, which says
// more). TestPauseGC holds it to debug.SetGCPercent.
//
//go:linkname setGCPercent runtime/debug.setGCPercent
func setGCPercent(percent int32) (old int32)
