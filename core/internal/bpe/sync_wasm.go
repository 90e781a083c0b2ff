//go:build wasm

package bpe

// WebAssembly runs Go on one thread and switches goroutines only where they
// block, never inside these functions, so plain words and flags are safe.
// In Go's wasm code sync/atomic and sync.Once are calls that cost ~12% of
// counting; these are loads.

type word struct{ v uint64 }

func (w *word) Load() uint64   { return w.v }
func (w *word) Store(v uint64) { w.v = v }

func (w *word) CompareAndSwap(old, new uint64) bool {
	if w.v != old {
		return false
	}
	w.v = new
	return true
}

type regionOnce struct{ done bool }

func (o *regionOnce) filled() bool { return o.done }

func (o *regionOnce) do(v *Vocab, r int) {
	if !o.done {
		v.fill(r)
		o.done = true
	}
}

type tablePtr struct{ t *pieceTable }

func (p *tablePtr) Load() *pieceTable { return p.t }

func (p *tablePtr) CompareAndSwap(old, new *pieceTable) bool {
	if p.t != old {
		return false
	}
	p.t = new
	return true
}
