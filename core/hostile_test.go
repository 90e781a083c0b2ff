package core_test

import (
	"runtime"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// TestHostile runs testdata/hostile's cases through core.API.Call, the
// native host: each answer is the expected one, and the same API answers
// the probe right after.
func TestHostile(t *testing.T) {
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	a := core.NewAPI()
	for _, s := range f.Setup {
		if out := a.Call(s.Op, s.Request); hostile.IsErrorAnswer(out) {
			t.Fatalf("setup %s: %s", s.Op, out)
		}
	}
	scale := f.Scale
	if hostile.Full() {
		scale = 1
	}
	for _, c := range f.Cases {
		body := c.Bytes(scale)
		t0 := time.Now()
		var ms0 runtime.MemStats
		if c.Huge && hostile.Full() {
			runtime.GC()
			runtime.ReadMemStats(&ms0)
		}
		var out []byte
		if c.Op == "count" {
			e, err := core.GetEncoding(c.Encoding)
			if err != nil {
				out = core.ErrorJSON(err)
			} else {
				out = hostile.CountAnswer(e.Count(string(body)))
			}
		} else {
			out = a.Call(c.Op, body)
		}
		if c.Huge && hostile.Full() {
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			t.Logf("%s: %d MB body, %v, %d MB allocated, heap sys %d MB", c.Name, len(body)>>20, time.Since(t0), (ms.TotalAlloc-ms0.TotalAlloc)>>20, ms.HeapSys>>20)
		}
		if err := c.Check(out); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		}
		if c.SameAs != nil {
			if same := a.Call(c.Op, []byte(*c.SameAs)); string(same) != string(out) {
				t.Errorf("%s: answers %.300s\nbut without the member %.300s", c.Name, out, same)
			}
		}
		if err := f.Probe.CheckProbe(a.Call(f.Probe.Op, f.Probe.Request)); err != nil {
			t.Fatalf("after %s: probe: %v", c.Name, err)
		}
	}
	t.Logf("%d cases", len(f.Cases))
}
