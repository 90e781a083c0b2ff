package hf

import (
	"encoding/binary"
	"math/bits"
	"math/rand/v2"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// The tables of a tokenizer.json against keys written to collide. Work is
// measured as probes: a key's probe count in a linearly probed table is its
// distance from its hash's slot, plus one, which is what finding it and
// having placed it cost. Crafted keys must cost at most twice what random
// keys of the same lengths cost, in the same kind of table.

// unseededHash is the hash vocab.go used before its tables were seeded, the
// attacker's model here: h = len·k, then per 8-byte block h = rotl((h ^
// block)·k, 29), then the last 1 to 8 bytes w, (h ^ w)·k.
func unseededHash(s string) uint64 { return xorSeededHash(s, 0) }

// xorSeededHash is unseededHash with seed xored into its start.
func xorSeededHash(s string, seed uint64) uint64 {
	const k = 0x9E3779B97F4A7C15
	h := uint64(len(s))*k ^ seed
	for ; len(s) > 8; s = s[8:] {
		h = bits.RotateLeft64((h^binary.LittleEndian.Uint64([]byte(s[:8])))*k, 29)
	}
	var w uint64
	switch n := len(s); {
	case n >= 4:
		w = uint64(binary.LittleEndian.Uint32([]byte(s[:4])))<<32 | uint64(binary.LittleEndian.Uint32([]byte(s[n-4:])))
	case n > 0:
		w = uint64(s[0])<<16 | uint64(s[n/2])<<8 | uint64(s[n-1])
	}
	return (h ^ w) * k
}

// inverse returns the multiplicative inverse of odd k modulo 2^64.
func inverse(k uint64) uint64 {
	x := k // Newton's iteration: each step doubles the bits that are right
	for range 6 {
		x *= 2 - k*x
	}
	return x
}

// collidingKeys returns n distinct 16-byte keys whose unseededHash is 0, 1,
// … n-1: all in the first slot of every table of up to 2^40 slots. A key is
// 8 random bytes and the 8 that solve (rotl((16k ^ first)·k, 29) ^ w)·k = j
// for its j.
func collidingKeys(n int, rng *rand.Rand) []string {
	k := uint64(0x9E3779B97F4A7C15)
	kinv := inverse(k)
	keys := make([]string, n)
	for j := range keys {
		var b [16]byte
		binary.LittleEndian.PutUint64(b[:8], rng.Uint64())
		h1 := bits.RotateLeft64((16*k^binary.LittleEndian.Uint64(b[:8]))*k, 29)
		w := h1 ^ uint64(j)*kinv
		binary.LittleEndian.PutUint32(b[8:12], uint32(w>>32))
		binary.LittleEndian.PutUint32(b[12:16], uint32(w))
		keys[j] = string(b[:])
		if unseededHash(keys[j]) != uint64(j) {
			panic("collidingKeys: wrong solution")
		}
	}
	return keys
}

// randomKeys returns random keys of the lengths of like.
func randomKeys(like []string, rng *rand.Rand) []string {
	keys := make([]string, len(like))
	for i, s := range like {
		b := make([]byte, len(s))
		for j := range b {
			b[j] = byte(rng.Uint32())
		}
		keys[i] = string(b)
	}
	return keys
}

// vocabProbes is the probes of finding every key of t.
func vocabProbes(t *vocabTable) int {
	mask := len(t.slots) - 1
	n := 0
	for i, e := range t.slots {
		if e != 0 {
			n += (i-int(t.seeds.str(t.key(e))>>t.shift))&mask + 1
		}
	}
	return n
}

// pairProbes is the probes of finding every key of t.
func pairProbes(t *pairTable) int {
	mask := len(t.keys) - 1
	n := 0
	for i, k := range t.keys {
		if k != emptyPair {
			n += (i-int(mum(k^t.seeds.s0, t.seeds.s1)>>t.shift))&mask + 1
		}
	}
	return n
}

// byteLevelFile is a tokenizer.json whose vocabulary is the 256 bytes and
// keys (as bytes, written in the byte-level alphabet), without merges.
func byteLevelFile(keys []string) []byte {
	var b strings.Builder
	b.WriteString(`{"pre_tokenizer":{"type":"ByteLevel","add_prefix_space":false,"use_regex":true},"model":{"type":"BPE","vocab":{`)
	for i := range 256 {
		b.WriteString(quote(string(byteChar[i])) + ":" + strconv.Itoa(i) + ",")
	}
	for i, k := range keys {
		b.WriteByte('"')
		for j := 0; j < len(k); j++ {
			if c := byteChar[k[j]]; c == '"' || c == '\\' {
				b.WriteString(`\` + string(c))
			} else {
				b.WriteRune(c)
			}
		}
		b.WriteString(`":` + strconv.Itoa(256+i) + ",")
	}
	s := strings.TrimSuffix(b.String(), ",")
	return []byte(s + `},"merges":[]}}`)
}

// hostileKeys is the size of the crafted vocabularies: the 160,000
// in make test-long (TOKENFIT_HUGE=1), where the unseeded hash took 82 s to
// load them.
func hostileKeys() int {
	if os.Getenv("TOKENFIT_HUGE") == "1" {
		return 160_000
	}
	return 16_000
}

// TestHash_CraftedVocabulary: a tokenizer.json whose vocabulary keys all
// hash to one slot under the unseeded hash loads with at most twice the
// probes of one with random keys of the same lengths. With the unseeded
// hash it took n²/2: 16,000 keys 7,000 times the probes of random ones.
func TestHash_CraftedVocabulary(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	crafted := collidingKeys(hostileKeys(), rng)
	random := randomKeys(crafted, rng)
	probes := func(keys []string) int {
		m, err := Load("crafted", byteLevelFile(keys))
		if err != nil {
			t.Fatal(err)
		}
		if id, _ := m.vocab.get(keys[len(keys)/2]); m.vocab.Len() != 256+len(keys) || id != uint32(256+len(keys)/2) {
			t.Fatalf("%d keys, want %d; key %d has id %d", m.vocab.Len(), 256+len(keys), len(keys)/2, id)
		}
		return vocabProbes(&m.vocab)
	}
	c, r := probes(crafted), probes(random)
	t.Logf("%d keys: crafted %d probes, random %d (%.2f×)", len(crafted), c, r, float64(c)/float64(r))
	if c > 2*r {
		t.Errorf("crafted keys cost %d probes, random ones %d: more than twice", c, r)
	}
}

// TestHash_CraftedMerges: pairs (left << 32 | right, ids below 2^21) that the
// unseeded multiplicative hash of pairs.go put in one slot cost the merges
// table at most twice the probes of random pairs.
func TestHash_CraftedMerges(t *testing.T) {
	const k = 0x9E3779B97F4A7C15
	n := hostileKeys()
	tbl := newPairTable(n)
	top := 64 - tbl.shift // the slot is the hash's top bits
	// For each left id, the right ids whose products land below 2^(64-top):
	// found among all right ids by their products, sorted.
	type prod struct{ v, r uint64 }
	prods := make([]prod, 1<<21)
	for r := range prods {
		prods[r] = prod{uint64(r) * k, uint64(r)}
	}
	slices.SortFunc(prods, func(a, b prod) int { return cmpU64(a.v, b.v) })
	var crafted []uint64
	for l := uint64(1); len(crafted) < n; l++ {
		lo := -(l << 32 * k) // (l<<32 | r)·k = (l<<32)·k + r·k: want r·k in [lo, lo + 2^(64-top))
		i, _ := slices.BinarySearchFunc(prods, lo, func(p prod, v uint64) int { return cmpU64(p.v, v) })
		for ; i < len(prods) && prods[i].v-lo < 1<<(64-top) && len(crafted) < n; i++ {
			crafted = append(crafted, l<<32|prods[i].r)
		}
	}
	for _, x := range crafted {
		if x*k>>(64-top) != 0 {
			t.Fatal("a crafted pair is not in slot 0 under the unseeded hash")
		}
	}
	rng := rand.New(rand.NewPCG(3, 4))
	seen := map[uint64]bool{}
	var random []uint64
	for len(random) < n {
		x := uint64(rng.IntN(1<<21))<<32 | uint64(rng.IntN(1<<21))
		if !seen[x] {
			seen[x] = true
			random = append(random, x)
		}
	}
	probes := func(keys []uint64) int {
		t := newPairTable(len(keys))
		for i, x := range keys {
			t.put(x, uint64(i))
		}
		return pairProbes(&t)
	}
	c, r := probes(crafted), probes(random)
	t.Logf("%d pairs: crafted %d probes, random %d (%.2f×)", n, c, r, float64(c)/float64(r))
	if c > 2*r {
		t.Errorf("crafted pairs cost %d probes, random ones %d: more than twice", c, r)
	}
}

func cmpU64(a, b uint64) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// TestHash_Differentials: keys built by the hash-flooding differential of a
// multiply-rotate hash collide under it whatever value it starts from, so a
// seed xored into the unseeded hash would not have helped; under the seeded
// hash they cost at most twice the probes of random keys. Each key is m
// 16-byte units, each unit u or u with bit 63 of its first word and bit 28
// of its second flipped: (x ^ 2^63)·k = x·k ^ 2^63 for odd k, and rotl by 29
// moves bit 63 to bit 28, where the next word's flip cancels it.
func TestHash_Differentials(t *testing.T) {
	const m = 14 // 2^14 keys of 232 bytes
	rng := rand.New(rand.NewPCG(5, 6))
	units := make([][2][16]byte, m)
	for i := range units {
		binary.LittleEndian.PutUint64(units[i][0][:8], rng.Uint64())
		binary.LittleEndian.PutUint64(units[i][0][8:], rng.Uint64())
		units[i][1] = units[i][0]
		units[i][1][7] ^= 0x80 // bit 63 of the first word
		units[i][1][11] ^= 0x10
	}
	tail := "8 bytes!"
	keys := make([]string, 1<<m)
	for x := range keys {
		b := make([]byte, 0, 16*m+len(tail))
		for i := range units {
			b = append(b, units[i][x>>i&1][:]...)
		}
		keys[x] = string(append(b, tail...))
	}
	for _, start := range []uint64{0, rng.Uint64()} {
		for _, key := range keys {
			if xorSeededHash(key, start) != xorSeededHash(keys[0], start) {
				t.Fatal("the differential does not collide under the unseeded hash")
			}
		}
	}
	probes := func(keys []string) int {
		v := newVocabTable(len(keys))
		for i, key := range keys {
			v.put(key, uint32(i))
		}
		return vocabProbes(&v)
	}
	c, r := probes(keys), probes(randomKeys(keys, rng))
	t.Logf("%d keys: differential %d probes, random %d (%.2f×)", len(keys), c, r, float64(c)/float64(r))
	if c > 2*r {
		t.Errorf("differential keys cost %d probes, random ones %d: more than twice", c, r)
	}
}
