//go:build wasm

package engine

// In WebAssembly the adapters pause the collector around a load themselves
// (wasm/internal/reactor's PauseGC, which also sets its pacing for the instance's
// life), so the engine does not: see gcpause.go.

func pauseGC()  {}
func resumeGC() {}
