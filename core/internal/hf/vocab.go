package hf

import (
	"sync/atomic"
	"unsafe"
)

// vocabTable maps a token's key (its bytes, or in a SentencePiece-style
// file its text) to its id, by open addressing over flat arrays: every key
// in one byte array, entries by number. Counting looks a key up for every
// piece and, SentencePiece-style, every character; Go's map costs about
// twice as much per look-up in WebAssembly, and its 262,144 string keys
// for Gemma 3 were pointers the collector walked at every cycle. A look-up
// that finds its key reads three places of memory: the slot, the entry
// (its end, its start, its id and what merging it gives, side by side)
// and the key's bytes; with Gemma 3's tables far larger than the caches,
// each is a miss.
type vocabTable struct {
	keys  []byte       // the keys, one after another (only ever appended to)
	ents  []vocabEntry // entry e ≥ 1 has the key keys[ents[e-1].end:ents[e].end]
	slots []uint32     // an entry, or 0 where free; at most half full
	shift uint
	seeds seeds // hash.go
}

type vocabEntry struct {
	end  uint32
	word atomic.Uint32 // the id | what merging the key gives << selfShift (words.go)
}

const (
	selfShift = 30
	idMask    = 1<<selfShift - 1 // ids are below maxVocab = 2^21
)

func newVocabTable(n int) vocabTable {
	t := vocabTable{ents: make([]vocabEntry, 1, n+1), seeds: newSeeds()}
	t.resize(n)
	return t
}

// Len returns the number of keys.
func (t *vocabTable) Len() int { return len(t.ents) - 1 }

// key returns entry e's key, a view of keys: appending never changes the
// bytes it covers.
func (t *vocabTable) key(e uint32) string {
	a, b := t.ents[e-1].end, t.ents[e].end
	if a == b {
		return ""
	}
	return unsafe.String(&t.keys[a], b-a)
}

// id returns entry e's id.
func (t *vocabTable) id(e uint32) uint32 { return t.ents[e].word.Load() & idMask }

// find returns the slot of key: its entry's, or the free one it would take.
func (t *vocabTable) find(key string) int {
	mask := len(t.slots) - 1
	for i := int(t.seeds.str(key) >> t.shift); ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == 0 || string(t.keys[t.ents[e-1].end:t.ents[e].end]) == key {
			return i
		}
	}
}

// entry returns key's entry, or nil.
func (t *vocabTable) entry(key string) *vocabEntry {
	if e := t.slots[t.find(key)]; e != 0 {
		return &t.ents[e]
	}
	return nil
}

// get returns the id of key.
func (t *vocabTable) get(key string) (uint32, bool) {
	e := t.slots[t.find(key)]
	return t.id(e), e != 0
}

// put sets the id of key, replacing an earlier one (and what merging it
// was known to give).
func (t *vocabTable) put(key string, id uint32) {
	i := t.find(key)
	if e := t.slots[i]; e != 0 {
		t.ents[e].word.Store(id)
		return
	}
	t.keys = append(t.keys, key...)
	t.ents = append(t.ents, vocabEntry{end: uint32(len(t.keys))})
	t.ents[len(t.ents)-1].word.Store(id)
	t.slots[i] = uint32(t.Len())
	if 2*t.Len() > len(t.slots) {
		t.resize(t.Len())
	}
}

// resize makes room for n keys and places the entries again.
func (t *vocabTable) resize(n int) {
	bits := uint(4)
	for 1<<bits < 2*n+2 {
		bits++
	}
	t.slots, t.shift = make([]uint32, 1<<bits), 64-bits
	mask := len(t.slots) - 1
	for e := uint32(1); int(e) <= t.Len(); e++ {
		i := int(t.seeds.str(t.key(e)) >> t.shift)
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = e
	}
}
