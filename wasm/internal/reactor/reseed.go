//go:build wasip1

package reactor

import _ "unsafe" // for go:linkname

// reseedRuntime draws the Go runtime's random state afresh from the host's
// random_get, as the runtime's own start does: its global generator
// (runtime.randinit) and, from it, the running M's generator
// (runtime.mrandinit), which every map seed, hash/maphash seed and map
// iteration order drawn from now on comes from. The shipped modules are
// pre-initialised (internal/postlink.Preinit): their memory starts as
// _initialize left it at build time, generator state included, and their
// _initialize calls this export instead, so that no two instances share a
// generator. See RATIONALE.md, "Why is the module pre-initialised, and how
// does each instance get its own random seed?".
//
// Two things keep the build's values on purpose: the runtime's hash key
// (runtime.alginit's hashkey), which every map built during init placed its
// entries by and which must not change under them, and the seeds of those
// maps, whose keys are fixed (look-ups only); bufs, the one map that grows
// with calls, is made again here, which draws its seed again.
//
//go:wasmexport reseed_runtime
func reseedRuntime() {
	defer EndGCCycle()
	reseedGlobal()
	mrandinit(getm())
	// A map draws its seed when it is made, from the generator just
	// re-seeded (clear draws one only for a map that holds something).
	fresh := make(map[uint32][]byte, len(bufs))
	for p, b := range bufs {
		fresh[p] = b
	}
	bufs = fresh
}

// reseedGlobal runs runtime.randinit again: it draws 32 bytes from
// random_get into the global generator. randinit refuses to run twice; it
// reads the flag its first run set last. The runtime's layout of
// globalRand (runtime/rand.go) is mirrored here, and TestReseedRuntime
// fails if a Go release moves it; a layout that no longer holds the flag
// where it is looked for stops the instance here, before anything is
// written.
func reseedGlobal() {
	if !globalRand.init {
		panic("reseed_runtime: runtime.globalRand is not laid out as globalRandLayout says")
	}
	globalRand.init = false
	randinit()
}

// globalRandLayout is runtime.globalRand's type (Go 1.22 to 1.26): a
// mutex (one uintptr on wasm), the seed, a chacha8rand.State (32 + 4
// uint64s, then 3 uint32s) and the flag.
type globalRandLayout struct {
	lock  uintptr
	seed  [32]byte
	state struct {
		buf     [32]uint64
		seed    [4]uint64
		i, n, c uint32
	}
	init bool
}

// The runtime's own variable and functions. The runtime does not export
// them to other packages (no go:linkname on their side), so Go's linker
// refuses these references unless the build passes -checklinkname=0, as
// make wasm and host/internal/modbuild do (WASM_FLAGS); a build without it
// fails to link, naming the symbol.

//go:linkname globalRand runtime.globalRand
var globalRand globalRandLayout

//go:linkname randinit runtime.randinit
func randinit()

//go:linkname mrandinit runtime.mrandinit
func mrandinit(mp uintptr)

//go:linkname getm runtime.getm
func getm() uintptr
