package tables

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"testing"

	"github.com/tokenfit/tokenfit/internal/tkptest"
)

func pack(t *testing.T, tkt []byte) []byte {
	t.Helper()
	p, err := tkptest.Pack(tkt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestExpand_RoundTrip(t *testing.T) {
	for _, name := range Names {
		tkt := Embedded(name)
		p := pack(t, tkt)
		if !IsPacked(p) || IsPacked(tkt) {
			t.Fatalf("%s: IsPacked is wrong", name)
		}
		got, err := Expand(p)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if !bytes.Equal(got, tkt) {
			t.Fatalf("%s: the .tkp does not expand to the .tkt", name)
		}
		if err := Verify(name, got, nil); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
}

// TestExpand_Damage: a .tkp cut short or with a flipped bit is an error,
// from Expand or from the digest its result is checked against, or expands
// to the table itself; never a panic, never another table.
func TestExpand_Damage(t *testing.T) {
	const name = "r50k_base"
	tkt := Embedded(name)
	good := pack(t, tkt)
	check := func(what string, b []byte) {
		t.Helper()
		out, err := Expand(b)
		if err != nil {
			if !errors.Is(err, ErrFormat) {
				t.Fatalf("%s: %v is not ErrFormat", what, err)
			}
			return
		}
		if Verify(name, out, nil) == nil && !bytes.Equal(out, tkt) {
			t.Fatalf("%s: expanded to another table that passed the digest", what)
		}
	}
	r := rand.New(rand.NewPCG(15, 16))
	for cut := 0; cut < len(good); cut += 1 + r.IntN(5000) {
		check("cut", good[:cut])
	}
	for range 400 {
		b := bytes.Clone(good)
		bit := r.IntN(8 * len(b))
		b[bit/8] ^= 1 << (bit % 8)
		check("flip", b)
	}
	for i := range 8 * (8 + headerSize + len(name)) { // every bit of the magic, h, the header and the name
		b := bytes.Clone(good)
		b[i/8] ^= 1 << (i % 8)
		check("header", b)
	}
}

func TestExpand_RejectsBeforeAllocating(t *testing.T) {
	good := pack(t, Embedded("r50k_base"))
	set := func(at int, v uint32) []byte {
		b := bytes.Clone(good)
		putU32(b[at:], v)
		return b
	}
	k := good[8+6]
	kinds := 8 + headerSize + int(k)
	for _, tc := range []struct {
		name string
		b    []byte
	}{
		{"a total of 4 GB", set(8+20, 0xffffffff)},
		{"4 billion ranks", set(8+8, 0xffffffff)},
		{"a header longer than the file", set(4, 0x7fffffff)},
		{"a header shorter than a .tkt's", set(4, 8)},
		{"a kind of 3", func() []byte { b := bytes.Clone(good); b[kinds+300] = 3; return b }()},
		{"a pair that joins itself", func() []byte {
			b := bytes.Clone(good)
			// rank 256 is r50k_base's first pair ("Ġt"): make its left rank 256.
			c2 := 0
			for _, x := range good[kinds : kinds+50257] {
				if x == 2 {
					c2++
				}
			}
			l := kinds + 50257 + 256
			b[l], b[l+c2], b[l+2*c2] = 0, 1, 0
			return b
		}()},
		{"a .tkt", Embedded("r50k_base")},
	} {
		if _, err := Expand(tc.b); !errors.Is(err, ErrFormat) {
			t.Errorf("%s: %v, want ErrFormat", tc.name, err)
		}
	}
}

// TestCountKinds: eight kinds at a time, every byte value in every place
// of a word and of the tail: counted as one at a time would, and any kind
// but 0, 1 and 2 refused.
func TestCountKinds(t *testing.T) {
	for n := 1; n <= 19; n++ {
		for at := range n {
			for v := range 256 {
				kinds := make([]byte, n)
				for i := range kinds {
					kinds[i] = byte(1 + i%2)
				}
				kinds[at] = byte(v)
				w1, w2 := 0, 0
				for _, k := range kinds {
					w1 += int(k) & b2i(k <= 2)
					w2 += int(k>>1) & b2i(k <= 2)
				}
				c1, c2, ok := countKinds(kinds)
				if ok != (v <= 2) || ok && (c1 != w1 || c2 != w2) {
					t.Fatalf("%d kinds, %d at %d: %d, %d, %v; want %d, %d, %v", n, v, at, c1, c2, ok, w1, w2, v <= 2)
				}
			}
		}
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
