package hf

import "unsafe"

// vocabTable maps a token's key (its bytes, or in a SentencePiece-style
// file its text) to its id, by open addressing over flat arrays: every key
// in one byte array, entries by number. Counting looks a key up for every
// piece and, SentencePiece-style, every character; Go's map costs about
// twice as much per look-up in WebAssembly, and its 262,144 string keys
// for Gemma 3 were pointers the collector walked at every cycle.
type vocabTable struct {
	keys  []byte   // the keys, one after another (only ever appended to)
	ends  []uint32 // entry e ≥ 1 has the key keys[ends[e-1]:ends[e]]
	ids   []uint32 // ids[e]: entry e's id
	slots []uint32 // an entry, or 0 where free; at most half full
	shift uint
}

func newVocabTable(n int) vocabTable {
	t := vocabTable{ends: make([]uint32, 1, n+1), ids: make([]uint32, 1, n+1)}
	t.resize(n)
	return t
}

// Len returns the number of keys.
func (t *vocabTable) Len() int { return len(t.ends) - 1 }

// key returns entry e's key, a view of keys: appending never changes the
// bytes it covers.
func (t *vocabTable) key(e uint32) string {
	a, b := t.ends[e-1], t.ends[e]
	if a == b {
		return ""
	}
	return unsafe.String(&t.keys[a], b-a)
}

func hashKey(s string) uint64 {
	h := uint64(14695981039346656037) // FNV-1a
	for i := 0; i < len(s); i++ {
		h = (h ^ uint64(s[i])) * 1099511628211
	}
	return h * 0x9E3779B97F4A7C15
}

// find returns the slot of key: its entry's, or the free one it would take.
func (t *vocabTable) find(key string) int {
	mask := len(t.slots) - 1
	for i := int(hashKey(key) >> t.shift); ; i = (i + 1) & mask {
		e := t.slots[i]
		if e == 0 || string(t.keys[t.ends[e-1]:t.ends[e]]) == key {
			return i
		}
	}
}

// get returns the id of key.
func (t *vocabTable) get(key string) (uint32, bool) {
	e := t.slots[t.find(key)]
	return t.ids[e], e != 0
}

// put sets the id of key, replacing an earlier one.
func (t *vocabTable) put(key string, id uint32) {
	i := t.find(key)
	if e := t.slots[i]; e != 0 {
		t.ids[e] = id
		return
	}
	t.keys = append(t.keys, key...)
	t.ends = append(t.ends, uint32(len(t.keys)))
	t.ids = append(t.ids, id)
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
		i := int(hashKey(t.key(e)) >> t.shift)
		for t.slots[i] != 0 {
			i = (i + 1) & mask
		}
		t.slots[i] = e
	}
}
