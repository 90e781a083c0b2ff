package hf

import (
	"errors"
	"testing"

	"github.com/tokenfit/tokenfit/internal/oracle"
)

// TestTable_RoundTrip: a family's compact table encodes as its
// tokenizer.json does, and is smaller.
func TestTable_RoundTrip(t *testing.T) {
	corpus := benchCorpus(t)
	for _, family := range families {
		m := loadFamily(t, family)
		table := m.AppendTable(nil)
		m2, err := LoadTable(table)
		if err != nil {
			t.Fatal(family, err)
		}
		if m2.Name != family || m2.Size() != m.Size() {
			t.Errorf("%s: name %q, %d ids, want %d", family, m2.Name, m2.Size(), m.Size())
		}
		for _, text := range []string{corpus, "<|endoftext|><|eot_id|><|start|>x", "  \n\n 123456 don't"} {
			a, b := m.AppendEncode(nil, text), m2.AppendEncode(nil, text)
			if !oracle.EqualIDs(a, toInts(b)) {
				t.Errorf("%s: the table encodes %.40q differently", family, text)
			}
		}
		if again := m2.AppendTable(nil); string(again) != string(table) {
			t.Errorf("%s: the table does not reproduce itself", family)
		}
		t.Logf("%s: table %d bytes gzip, tokenizer.json %d bytes gzip", family, gzipSize(table), gzipSize(tokenizerFile(t, family)))
	}
}

func toInts(ids []uint32) []int {
	out := make([]int, len(ids))
	for i, id := range ids {
		out[i] = int(id)
	}
	return out
}

// TestTable_Hostile: every damaged table is an ErrFormat, never a panic.
func TestTable_Hostile(t *testing.T) {
	m, err := Load("small", []byte(small("", "")))
	if err != nil {
		t.Fatal(err)
	}
	table := m.AppendTable(nil)
	if _, err := LoadTable(table); err != nil {
		t.Fatal(err)
	}
	for n := range len(table) {
		if _, err := LoadTable(table[:n]); !errors.Is(err, ErrFormat) {
			t.Fatalf("cut at %d: %v", n, err)
		}
	}
	for i := range table {
		b := append([]byte(nil), table...)
		b[i] ^= 0x40
		if _, err := LoadTable(b); !errors.Is(err, ErrFormat) {
			t.Fatalf("byte %d flipped: %v", i, err)
		}
	}
}
