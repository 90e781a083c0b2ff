package engine_test

import (
	"bytes"
	"errors"
	"testing"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/tables"
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
