//go:build wasip1

package reactor

import _ "unsafe" // for go:linkname

// setGCPercent is runtime/debug.SetGCPercent without importing
// runtime/debug: the runtime's own implementation, which it exports to
// runtime/debug under this name. Importing runtime/debug links fmt, os and
// their initialisation (internal/poll, syscall, godebug, reflect) into the
// lean module (75 KB gzip when it was measured); see RATIONALE.md, "Why does the
// wasip1 adapter reach the collector through go:linkname?". A Go release
// that renamed the symbol would fail to link, never misbehave;
// TestSetGCPercent holds it to debug.SetGCPercent.
//
//go:linkname setGCPercent runtime/debug.setGCPercent
func setGCPercent(percent int32) (old int32)
