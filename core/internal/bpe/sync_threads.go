//go:build !wasm

package bpe

import (
	"sync"
	"sync/atomic"
)

// Where goroutines run in parallel, the pair cache's words are atomic and a
// region is filled once under a sync.Once. (sync_wasm.go has the
// single-threaded versions.)

type word = atomic.Uint64

type regionOnce struct{ once sync.Once }

func (o *regionOnce) do(v *Vocab, r int) { o.once.Do(func() { v.fill(r) }) }

// pieceCache is a no-op here: see sync_wasm.go.
type pieceCache struct{}

func (pieceCache) get(string, uint64) (int, bool) { return 0, false }
func (pieceCache) put(string, uint64, int)        {}
