package modbuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"os"
	"testing"
)

// TestBuild_Reproducible: two builds of the module from the same sources,
// in different directories, are the same bytes (what make build's
// SHA256SUMS and a page's Subresource Integrity rely on; TestMakefile holds
// the Makefile to the same flags).
func TestBuild_Reproducible(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module twice")
	}
	var sums [][32]byte
	for range 2 {
		p, err := Build(context.Background(), WASIP1, t.TempDir())
		if err == ErrNoToolchain {
			t.Skip(err)
		}
		if err != nil {
			t.Fatal(err)
		}
		b, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		sums = append(sums, sha256.Sum256(b))
	}
	if !bytes.Equal(sums[0][:], sums[1][:]) {
		t.Errorf("two builds differ: %x and %x", sums[0], sums[1])
	}
}
