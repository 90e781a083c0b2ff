package engine_test

import (
	"bytes"
	"errors"
	"testing"
	"unsafe"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/bpe"
	"github.com/tokenfit/tokenfit/core/internal/tables"
	"github.com/tokenfit/tokenfit/internal/tkptest"
)

// TestSums: the digests every build carries (core/internal/tables/sums.go)
// are those of the tables and indexes of this tree; regenerate them with
// go generate ./core/internal/tables when either changes.
func TestSums(t *testing.T) {
	for _, name := range engine.Names() {
		idx, err := engine.Index(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := tables.Verify(name, engine.Table(name), idx); err != nil {
			t.Errorf("%s: %v (run go generate ./core/internal/tables)", name, err)
		}
	}
}

// TestIndex_Embedded: an index compiled into the binary (o200k_base's,
// natively) is the one this tree's engine builds from the table, byte for
// byte, and is aligned so that the vocabulary reads it in place (an
// unaligned one would be copied, megabytes of fresh memory at start-up).
// Regenerate it with go generate ./core/internal/tables.
func TestIndex_Embedded(t *testing.T) {
	for _, name := range engine.Names() {
		emb := tables.EmbeddedIndex(name)
		if emb == nil {
			continue
		}
		tab, err := tables.Parse(engine.Table(name), true)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := bpe.New(tab, false)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(emb, enc.AppendIndex(nil, tab.CRC)) {
			t.Errorf("%s: the compiled-in index is not the one the engine builds (run go generate ./core/internal/tables)", name)
		}
		if p := uintptr(unsafe.Pointer(unsafe.SliceData(emb))); p%4 != 0 {
			t.Errorf("%s: the compiled-in index is at %#x, not 4-byte aligned", name, p)
		}
	}
}

// TestVerify_FlippedBits: a table or an index given at run time with one bit
// flipped, anywhere, is an invalid_table error, never a wrong count (before
// the digests, 4 of 60 flips in o200k_base's index counted wrong).
func TestVerify_FlippedBits(t *testing.T) {
	table := engine.Table("o200k_base")
	idx, err := engine.Index("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	for i := range 60 {
		for _, which := range []string{"table", "index"} {
			tb, ib := table, idx
			if which == "table" {
				tb = bytes.Clone(table)
				tb[(i*7919)%len(tb)] ^= 1 << (i % 8)
			} else {
				ib = bytes.Clone(idx)
				ib[(i*7919)%len(ib)] ^= 1 << (i % 8)
			}
			if _, err := engine.LoadIndexed(tb, ib); !errors.Is(err, engine.ErrInvalidTable) {
				t.Errorf("flip %d in the %s: %v", i, which, err)
			}
		}
	}
	if _, err := engine.LoadIndexed(table, idx); err != nil {
		t.Errorf("the table and index as built: %v", err)
	}
}

// TestLoadPacked: a table in the transport form loads as its .tkt does, and
// a damaged one (cut short, a flipped bit anywhere, a .tkt given for one)
// is an invalid_table error, never a wrong count.
func TestLoadPacked(t *testing.T) {
	table := engine.Table("r50k_base")
	tkp, err := tkptest.Pack(table)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.LoadPacked(tkp)
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != "r50k_base" || e.Count("Hello world, hello tokens") != 5 {
		t.Errorf("%s counts %d", e.Name(), e.Count("Hello world, hello tokens"))
	}
	damaged := [][]byte{tkp[:len(tkp)/2], tkp[:len(tkp)-1], table, nil}
	for i := range 60 {
		b := bytes.Clone(tkp)
		b[(i*7919)%len(b)] ^= 1 << (i % 8)
		damaged = append(damaged, b)
	}
	for i, b := range damaged {
		if _, err := engine.LoadPacked(b); !errors.Is(err, engine.ErrInvalidTable) {
			t.Errorf("damage %d: %v", i, err)
		}
	}
}
