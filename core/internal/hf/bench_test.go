package hf

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Benchmarks: go test ./core/internal/hf -run '^$' -bench . (make hf-deps
// first). Loading, the corpus (MB/s) and 200-byte messages per family.

func BenchmarkLoad(b *testing.B) {
	for _, family := range families {
		data := tokenizerFile(b, family)
		b.Run(family, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for range b.N {
				if _, err := Load(family, data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchCorpus(b testing.TB) string {
	files, _ := filepath.Glob("../../../testdata/corpus/*.txt")
	var sb strings.Builder
	for _, f := range files {
		d, err := os.ReadFile(f)
		if err != nil {
			b.Fatal(err)
		}
		sb.Write(d)
	}
	return sb.String()
}

func BenchmarkCount(b *testing.B) {
	corpus := benchCorpus(b)
	for _, family := range families {
		m := loadFamily(b, family)
		b.Run(family+"/corpus", func(b *testing.B) {
			b.SetBytes(int64(len(corpus)))
			for range b.N {
				m.Count(corpus)
			}
		})
		b.Run(family+"/200B", func(b *testing.B) {
			msgs := messages(corpus)
			b.ResetTimer()
			for i := range b.N {
				m.Count(msgs[i%len(msgs)])
			}
		})
	}
}
