//go:build wasm

package engine

// In WebAssembly the adapters pause the collector around a load themselves
// (wasm/wasip1's pauseGC, which also sets its pacing for the instance's
// life), so the engine does not: see gcpause.go.

func pauseGC()  {}
func resumeGC() {}
