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

type regionOnce struct{ once sync.Once }

func (o *regionOnce) do(v *Vocab, r int) { o.once.Do(func() { v.fill(r) }) }

type tablePtr = atomic.Pointer[pieceTable]
