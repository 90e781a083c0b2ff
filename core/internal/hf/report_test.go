package hf

import (
	"bufio"
	"bytes"
	"compress/gzip"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// TestBenchReport prints package hf against tokenizers.js, measured in the
// same run: load time, corpus MB/s and µs per 200-byte message per family,
// and the ratios. TOKENFIT_BENCH=1 go test ./core/internal/hf -run
// BenchReport -v (make bench-hf).
func TestBenchReport(t *testing.T) {
	if os.Getenv("TOKENFIT_BENCH") == "" {
		t.Skip("set TOKENFIT_BENCH=1 (make bench-hf)")
	}
	dir, err := hfDir()
	if err != nil {
		t.Skip(err)
	}
	corpus := benchCorpus(t)
	msgs := messages(corpus)
	texts, _ := json.Marshal(map[string]any{"corpus": corpus, "messages": msgs})
	textsFile := filepath.Join(t.TempDir(), "texts.json")
	if err := os.WriteFile(textsFile, texts, 0o644); err != nil {
		t.Fatal(err)
	}
	// The variants (testdata/variants.json) are test-made edits of a
	// family's file, not tokenizers anyone loads: the report leaves them out.
	var variants map[string]json.RawMessage
	if err := readJSON("testdata/variants.json", &variants); err != nil {
		t.Fatal(err)
	}
	var benched []string
	for _, family := range families {
		if _, ok := variants[family]; !ok {
			benched = append(benched, family)
		}
	}
	cmd := exec.Command("node", append([]string{"testdata/bench.mjs", dir, textsFile}, benched...)...)
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("node testdata/bench.mjs: %v", err)
	}
	type row struct {
		Family       string  `json:"family"`
		LoadMs       float64 `json:"loadMs"`
		MBps         float64 `json:"mbps"`
		UsPerMessage float64 `json:"usPerMessage"`
	}
	peer := map[string]row{}
	sc := bufio.NewScanner(bytes.NewReader(out))
	for sc.Scan() {
		var r row
		if err := json.Unmarshal(sc.Bytes(), &r); err != nil {
			t.Fatal(err)
		}
		peer[r.Family] = r
	}
	t.Logf("%-9s %22s %22s %22s %s", "family", "load ms (tf / js)", "corpus MB/s (tf / js)", "µs / 200 B (tf / js)", "gzip bytes: table / tokenizer.json; table load")
	for _, family := range benched {
		data := tokenizerFile(t, family)
		start := time.Now()
		m, err := Load(family, data)
		if err != nil {
			t.Fatal(err)
		}
		load := time.Since(start)
		m.Count(corpus) // warm, as the JS side
		best := func(runs int, f func()) time.Duration {
			b := time.Duration(1 << 62)
			for range runs {
				s := time.Now()
				f()
				b = min(b, time.Since(s))
			}
			return b
		}
		c := best(3, func() { m.Count(corpus) })
		mb := float64(len(corpus)) / 1e6 / c.Seconds()
		ms := best(3, func() {
			for _, s := range msgs {
				m.Count(s)
			}
		})
		us := float64(ms.Microseconds()) / float64(len(msgs))
		table := m.AppendTable(nil)
		start = time.Now()
		if _, err := LoadTable(table); err != nil {
			t.Fatal(err)
		}
		tableLoad := time.Since(start)
		p := peer[family]
		t.Logf("%-9s %8.0f / %6.0f (%4.1f×) %7.2f / %5.2f (%s) %7.1f / %6.1f (%s) %d / %d (%s); %.0f ms",
			family, float64(load.Milliseconds()), p.LoadMs, p.LoadMs/float64(load.Milliseconds()),
			mb, p.MBps, goal(mb/p.MBps), us, p.UsPerMessage, goal(p.UsPerMessage/us),
			gzipSize(table), gzipSize(data), sizeGoal(float64(gzipSize(table))/float64(gzipSize(data))), float64(tableLoad.Milliseconds()))
	}
}

// goal marks a speed ratio against the ≥ 3× goal.
func goal(r float64) string {
	if r >= 3 {
		return fmt.Sprintf("%.1f× met", r)
	}
	return fmt.Sprintf("%.1f× missed", r)
}

// sizeGoal marks a table's gzip size, as a fraction of its tokenizer.json's,
// against the ≤ 0.6× goal.
func sizeGoal(r float64) string {
	if r <= 0.6 {
		return fmt.Sprintf("%.2f× met", r)
	}
	return fmt.Sprintf("%.2f× missed", r)
}

// messages cuts 200-byte messages from the corpus at character boundaries.
func messages(corpus string) []string {
	var msgs []string
	for i := 0; i+220 < len(corpus) && len(msgs) < 1000; i += 397 {
		j := i
		for j < len(corpus) && corpus[j]&0xC0 == 0x80 {
			j++
		}
		k := j + 200
		for k < len(corpus) && corpus[k]&0xC0 == 0x80 {
			k++
		}
		msgs = append(msgs, corpus[j:k])
	}
	return msgs
}

func gzipSize(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}
