//go:build !wasm

package bpe

import (
	"sync"
	"sync/atomic"
)

// Where goroutines run in parallel, the caches' words are atomic and a
// region is filled once under a sync.Once. (sync_wasm.go has the
// single-threaded versions.)

type word = atomic.Uint64

// regionOnce is a sync.Once whose done check inlines: sync.Once.Do with a
// closure cost a call per look-up.
type regionOnce struct {
	done atomic.Bool
	mu   sync.Mutex
}

// filled reports whether the region is filled.
func (o *regionOnce) filled() bool { return o.done.Load() }

func (o *regionOnce) do(v *Vocab, r int) {
	if !o.done.Load() {
		o.slow(v, r)
	}
}

func (o *regionOnce) slow(v *Vocab, r int) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if !o.done.Load() {
		v.fill(r)
		o.done.Store(true)
	}
}

type tablePtr = atomic.Pointer[pieceTable]
