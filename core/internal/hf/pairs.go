package hf

// pairTable holds the merges: (left token << 32 | right token) → (rank <<
// 32 | the token they make), by open addressing in two flat arrays. Merging
// looks a pair up for every neighbour it ranks; Go's map costs several times
// more per look-up in WebAssembly, and its buckets are memory the
// collector must walk, where these arrays hold no pointers.
type pairTable struct {
	keys  []uint64 // emptyPair where free
	vals  []uint64
	shift uint
	n     int
	seeds seeds // hash.go
}

const emptyPair = ^uint64(0) // no pair: ids are below 2^21

// newPairTable makes a table for up to n pairs, at most half full.
func newPairTable(n int) pairTable {
	bits := uint(4)
	for 1<<bits < 2*n {
		bits++
	}
	t := pairTable{keys: make([]uint64, 1<<bits), vals: make([]uint64, 1<<bits), shift: 64 - bits, seeds: newSeeds()}
	for i := range t.keys {
		t.keys[i] = emptyPair
	}
	return t
}

// slot is where key is, or would go. It hashes as hash.go's seeds do, by
// mum(key ^ s0, s1), written small enough that get is inlined where the
// merger ranks each neighbour: called, it cost counting a few percent.
func (t *pairTable) slot(key uint64) int {
	i := int(mum(key^t.seeds.s0, t.seeds.s1) >> t.shift)
	for t.keys[i] != key && t.keys[i] != emptyPair {
		i = (i + 1) & (len(t.keys) - 1)
	}
	return i
}

// put sets the value of key, replacing an earlier one (a pair listed twice
// keeps its last rank, as tokenizers.js does). The table must have room.
func (t *pairTable) put(key, val uint64) {
	i := t.slot(key)
	if t.keys[i] == emptyPair {
		t.keys[i] = key
		t.n++
	}
	t.vals[i] = val
}

func (t *pairTable) get(key uint64) (uint64, bool) {
	i := t.slot(key)
	return t.vals[i], t.keys[i] != emptyPair
}
