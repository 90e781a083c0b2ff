package tables

import (
	"testing"

	"github.com/tiktoken-go/tokenizer/codec"
)

// TestTables_EqualVocabularies proves each committed table holds exactly the
// vocabulary of its source: every rank's bytes, the holes, and nothing more.
func TestTables_EqualVocabularies(t *testing.T) {
	sources := map[string]func() *codec.Codec{
		"o200k_base": codec.NewO200kBase, "cl100k_base": codec.NewCl100kBase,
		"p50k_base": codec.NewP50kBase, "r50k_base": codec.NewR50kBase,
	}
	for _, name := range Names {
		tab, err := Parse(Embedded(name), true)
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if tab.Name != name {
			t.Errorf("table %s names itself %s", name, tab.Name)
		}
		c := sources[name]()
		off := 0
		for rank, l := range tab.Lengths {
			want, err := c.Decode([]uint{uint(rank)})
			got := string(tab.Bytes[off : off+int(l)])
			off += int(l)
			if err != nil {
				want = ""
			}
			if got != want {
				t.Fatalf("%s rank %d: table %q, vocabulary %q", name, rank, got, want)
			}
		}
		for rank := len(tab.Lengths); rank < len(tab.Lengths)+4096; rank++ {
			if s, err := c.Decode([]uint{uint(rank)}); err == nil && s != "" {
				t.Errorf("%s: rank %d (%q) is missing from the table", name, rank, s)
			}
		}
	}
}

func TestTables_ParseRejectsDamage(t *testing.T) {
	good := Embedded("r50k_base")
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"magic", append([]byte("XXXX"), good[4:]...)},
		{"truncated", good[:len(good)/2]},
		{"trailing", append(append([]byte{}, good...), 0)},
		{"flipped", func() []byte { b := append([]byte{}, good...); b[len(b)/2] ^= 1; return b }()},
		{"header only", good[:24]},
	} {
		if _, err := Parse(tc.data, true); err == nil {
			t.Errorf("%s: parsed", tc.name)
		}
	}
}

func FuzzParse(f *testing.F) {
	f.Add(Embedded("r50k_base")[:4096])
	f.Add([]byte("TKFT\x01\x01\x00\x00"))
	f.Fuzz(func(t *testing.T, data []byte) {
		Parse(data, false) // must not panic
		Parse(data, true)
	})
}
