package bpe

import (
	"os"
	"runtime"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// TestMemory_LongPieceScratch: one long piece (16 MB of one letter) is
// merged window by window (window.go), so the scratch it takes is bounded by
// the window, not the piece, and the encoder's spare (bucket.go) keeps no
// more once the count is done. Before windows, 16 MB of one letter left
// about 700 MB in use per encoding for the life of the process, and in the
// wasip1 module (memory ends at 4 GB) a 64 MB piece trapped. It runs with
// TOKENFIT_LONG=1 (make test-long), on an encoder of its own so that no
// other test's long pieces count.
func TestMemory_LongPieceScratch(t *testing.T) {
	if os.Getenv("TOKENFIT_LONG") != "1" {
		t.Skip("TOKENFIT_LONG=1 runs it")
	}
	tab, err := tables.Parse(tables.Embedded("cl100k_base"), true)
	if err != nil {
		t.Fatal(err)
	}
	e, err := New(tab, false)
	if err != nil {
		t.Fatal(err)
	}
	heap := func() uint64 {
		runtime.GC()
		runtime.GC()
		var ms runtime.MemStats
		runtime.ReadMemStats(&ms)
		return ms.HeapInuse
	}
	e.Count(strings.Repeat("a", 100)) // the look-up regions a short piece fills
	before := heap()
	text := strings.Repeat("a", 16<<20)
	n := e.Count(text)
	text = ""
	after := heap()
	t.Logf("16 MB of one letter: %d tokens; heap in use %.1f → %.1f MB", n, float64(before)/(1<<20), float64(after)/(1<<20))
	if after > before+32<<20 {
		t.Errorf("the encoder keeps %.0f MB after counting one 16 MB piece ", float64(after-before)/(1<<20))
	}
	runtime.KeepAlive(e)
}
