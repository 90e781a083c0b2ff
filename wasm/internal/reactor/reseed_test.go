//go:build wasip1

package reactor

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
)

// reseed_runtime finds runtime.globalRand where globalRandLayout says it is
// (a Go release that moved it fails here first), draws the global generator
// afresh, and seeds the running M's generator, the one maps and
// hash/maphash draw from, with its first four numbers, as the runtime's own
// start does.
func TestReseedRuntime(t *testing.T) {
	if !globalRand.init {
		t.Fatal("runtime.globalRand.init reads false: the runtime's layout is not globalRandLayout")
	}
	before := globalRand.state
	reseedGlobal()
	if !globalRand.init || globalRand.seed != [32]byte{} {
		t.Fatalf("after randinit: init %v, seed %x (randinit sets the one and clears the other)", globalRand.init, globalRand.seed)
	}
	fresh := globalRand.state
	if fresh == before || fresh.i != 0 || fresh.c != 0 {
		t.Fatalf("randinit did not start the global generator afresh (i %d, c %d)", fresh.i, fresh.c)
	}
	mrandinit(getm())

	// mrandinit seeds the M with the global generator's next four numbers,
	// then takes one for its cheap generator; the runtime's next number is
	// the second of a ChaCha8 with that seed.
	var seed [32]byte
	for i := range 4 {
		binary.LittleEndian.PutUint64(seed[8*i:], fresh.buf[i])
	}
	want := rand.NewChaCha8(seed)
	want.Uint64()
	if got, w := rand.Uint64(), want.Uint64(); got != w {
		t.Fatalf("the runtime drew %#x after reseeding, %#x from the reseeded global generator", got, w)
	}

	reseedRuntime()
	m := map[int]int{}
	for i := range 1000 {
		m[i] = i
	}
	if len(m) != 1000 || m[999] != 999 {
		t.Fatalf("a map built after reseeding holds %d entries", len(m))
	}
}
