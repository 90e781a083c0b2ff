package hf

import (
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/randtext"
)

// uncut returns a copy of m that merges each SentencePiece-style section
// whole: every pair joins, so appendSPWords never cuts.
func uncut(m *Model) *Model {
	u := &Model{}
	*u = *m
	u.joins = joinBits{bits: []uint64{^uint64(0)}, shift: 64 - 6}
	for a := range u.joins.ascii {
		u.joins.ascii[a] = [2]uint64{^uint64(0), ^uint64(0)}
	}
	u.cache, u.sections = newPieceCache(), newSectionCache()
	return u
}

// spFamilies loads the SentencePiece-style families among families.
func spFamilies(t testing.TB) []*Model {
	var out []*Model
	for _, family := range families {
		if slices.Contains([]string{"gemma3", "llama2", "llama2_metaspace", "mistral", "mistral_v3", "mistral_v3_metaspace"}, family) {
			out = append(out, loadFamily(t, family))
		}
	}
	return out
}

// TestCuts_Exact: cutting where no merge joins the characters encodes as
// merging each section whole, on the corpus, its lines and random text.
func TestCuts_Exact(t *testing.T) {
	corpus := benchCorpus(t)
	texts := append(strings.Split(corpus, "\n"), corpus)
	rng := rand.New(rand.NewPCG(3, 14))
	for range 3000 {
		texts = append(texts, randtext.Text(rng, []int{10, 100, 1000}[rng.IntN(3)]))
	}
	for _, m := range spFamilies(t) {
		u := uncut(m)
		for _, text := range texts {
			if a, b := m.AppendEncode(nil, text), u.AppendEncode(nil, text); !slices.Equal(a, b) {
				t.Fatalf("%s: %.60q encodes cut as %v, whole as %v", m.Name, text, a, b)
			}
		}
	}
}

// FuzzCuts: go test ./core/internal/hf -run '^$' -fuzz FuzzCuts (make hf-deps first).
func FuzzCuts(f *testing.F) {
	for _, s := range []string{"hello world", "日本語のテキスト", "a\xffb ▁▁ c", "<start_of_turn>x"} {
		f.Add(s)
	}
	models := spFamilies(f)
	var whole []*Model
	for _, m := range models {
		whole = append(whole, uncut(m))
	}
	f.Fuzz(func(t *testing.T, text string) {
		for i, m := range models {
			if a, b := m.AppendEncode(nil, text), whole[i].AppendEncode(nil, text); !slices.Equal(a, b) {
				t.Fatalf("%s: %q encodes cut as %v, whole as %v", m.Name, text, a, b)
			}
		}
	})
}
