package tables

import (
	"bytes"
	"math/rand/v2"
	"testing"
)

// TestDigest_WordChanges: any change confined to one 8-byte word changes
// the digest, whatever the word and the change (each step is a bijection of
// the word), and so does a change of length, including by a trailing zero.
func TestDigest_WordChanges(t *testing.T) {
	r := rand.New(rand.NewPCG(15, 15))
	b := make([]byte, 1003) // a 3-byte tail
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	want := Digest(b)
	for bit := range 8 * len(b) { // every single flip
		c := bytes.Clone(b)
		c[bit/8] ^= 1 << (bit % 8)
		if Digest(c) == want {
			t.Fatalf("flipping bit %d left the digest", bit)
		}
	}
	for range 20000 { // any change inside one word
		c := bytes.Clone(b)
		w := 8 * r.IntN((len(b)+7)/8)
		changed := false
		for i := w; i < min(w+8, len(c)); i++ {
			x := byte(r.Uint32())
			c[i] ^= x
			changed = changed || x != 0
		}
		if changed && Digest(c) == want {
			t.Fatalf("a change in the word at %d left the digest", w)
		}
	}
	for _, c := range [][]byte{b[:len(b)-1], append(bytes.Clone(b), 0), nil, {0}} {
		if Digest(c) == want {
			t.Fatalf("%d bytes have the digest of %d", len(c), len(b))
		}
	}
	if Digest(nil) == Digest([]byte{0}) {
		t.Fatal("no bytes and one zero byte have one digest")
	}
}
