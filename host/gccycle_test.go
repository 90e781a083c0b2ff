package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host/internal/modbuild"
)

// plainModule is the full reactor without pre-initialisation, so that its
// runtime reads GODEBUG when it starts (modbuild.Target.Plain).
var plainModule = func() *built {
	t := modbuild.WASIP1
	t.Name, t.Plain = "tokenfit-plain.wasm", true
	return &built{target: t}
}()

// epochGap is how far the test moves the instance's monotonic clock
// between two exports: a collection cycle whose wall-clock time reaches it
// was open across an export's return.
const epochGap = 1000 * time.Second

// gcLine is the start of a GODEBUG=gctrace=1 line: the cycle's number and
// the wall-clock time of its sweep termination, mark and mark termination
// phases.
var gcLine = regexp.MustCompile(`(?m)^gc (\d+) @[0-9.]+s \d+%: ([0-9.]+)\+([0-9.]+)\+([0-9.]+) ms clock`)

// gcWatch calls the exports of an instance of the plain module run with
// GODEBUG=gctrace=1, moving its monotonic clock on by epochGap before each
// export, and reads the trace each export wrote.
type gcWatch struct {
	t      *testing.T
	ctx    context.Context
	mod    api.Module
	stderr bytes.Buffer
	epoch  int64
	cycles int
}

// call runs the export name and fails the test for every cycle whose end
// it traced but which was open across an export's return.
func (w *gcWatch) call(name string, args ...uint64) uint64 {
	w.t.Helper()
	w.epoch++
	res, err := w.mod.ExportedFunction(name).Call(w.ctx, args...)
	if err != nil {
		w.t.Fatalf("%s: %v", name, err)
	}
	w.check(name)
	if len(res) == 0 {
		return 0
	}
	return res[0]
}

func (w *gcWatch) check(name string) {
	w.t.Helper()
	trace := w.stderr.String()
	w.stderr.Reset()
	for _, m := range gcLine.FindAllStringSubmatch(trace, -1) {
		w.cycles++
		ms := 0.0
		for _, f := range m[2:] {
			v, err := strconv.ParseFloat(f, 64)
			if err != nil {
				w.t.Fatal(err)
			}
			ms += v
		}
		if time.Duration(ms*float64(time.Millisecond)) >= epochGap {
			w.t.Errorf("cycle %s ended in %s, %.0f exports after it started: a cycle stayed open across exports", m[1], name, ms/float64(epochGap.Milliseconds()))
		}
	}
}

// write copies b into a new buffer from alloc and returns its address.
func (w *gcWatch) write(b []byte) uint32 {
	w.t.Helper()
	p := uint32(w.call("alloc", uint64(len(b))))
	if p == 0 || !w.mod.Memory().Write(p, b) {
		w.t.Fatalf("alloc(%d) answered %d", len(b), p)
	}
	return p
}

// jsonCall runs call(op, req) and returns the answer.
func (w *gcWatch) jsonCall(op string, req []byte) []byte {
	w.t.Helper()
	o, r := w.write([]byte(op)), w.write(req)
	packed := w.call("call", uint64(o), uint64(len(op)), uint64(r), uint64(len(req)))
	p, n := uint32(packed>>32), uint32(packed)
	out, ok := w.mod.Memory().Read(p, n)
	if !ok {
		w.t.Fatalf("%s: answer out of memory", op)
	}
	out = bytes.Clone(out)
	w.call("free", uint64(o))
	w.call("free", uint64(r))
	w.call("free", uint64(p))
	return out
}

// Every export returns with no collection cycle under way, in a sequence of
// exports that start many (table loads, large JSON requests and their
// answers, large texts counted, encoded and streamed): the trace of each
// cycle the instance runs (GODEBUG=gctrace=1) is written when the cycle
// ends, with its wall-clock time, and the test moves the instance's clock on
// by epochGap before each export, so a cycle that ended in a later export
// than the one that started it shows at least epochGap. Before every export
// ended its cycle (wasm/internal/reactor/gccycle.go), more than 20 of this sequence's
// cycles, started by alloc, call and the stream exports, ended 1 to 27
// exports after the one that started them.
func TestExports_EndTheirGCCycle(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(testCache()))
	defer rt.Close(ctx)
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, rt); err != nil {
		t.Fatal(err)
	}
	w := &gcWatch{t: t, ctx: ctx}
	start := time.Now()
	clock := func() int64 { return int64(time.Since(start)) + w.epoch*int64(epochGap) + 1 }
	cfg := wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").
		WithEnv("GODEBUG", "gctrace=1").WithStderr(&w.stderr).WithNanotime(clock, 1).WithSysWalltime()
	mod, err := rt.InstantiateWithConfig(ctx, plainModule.get(t), cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer mod.Close(ctx)
	w.mod = mod
	w.check("_initialize")

	var handles []uint64
	for _, enc := range []string{"o200k_base", "cl100k_base", "p50k_base"} {
		table, err := os.ReadFile("../core/tables/" + enc + ".tkt")
		if err != nil {
			t.Fatal(err)
		}
		p := w.write(table)
		h := w.call("load_table", uint64(p), uint64(len(table)))
		if int32(h) <= 0 {
			t.Fatalf("load_table(%s) answered %d", enc, int32(h))
		}
		w.call("free", uint64(p))
		handles = append(handles, h)
	}
	corpus, err := os.ReadFile("../testdata/corpus/code-go.txt")
	if err != nil {
		t.Fatal(err)
	}
	text := bytes.Repeat(corpus, 1+(1<<20)/len(corpus)) // a MiB or more
	for round := range 12 {
		h := handles[round%len(handles)]
		encName := []string{"o200k_base", "cl100k_base", "p50k_base"}[round%len(handles)]

		// A large text, counted by the fast path, then freed.
		p := w.write(text)
		if c := int32(w.call("count", h, uint64(p), uint64(len(text)))); c <= 0 {
			t.Fatalf("count answered %d", c)
		}
		w.call("free", uint64(p))
		// The same text streamed, 64 KiB a buffer.
		s := w.call("stream_new", h, 1<<31-1)
		for at := 0; at < len(text); at += 64 << 10 {
			part := w.write(text[at:min(at+64<<10, len(text))])
			if r := int32(w.call("stream_write", s, uint64(part), uint64(min(64<<10, len(text)-at)))); r != 0 {
				t.Fatalf("stream_write answered %d", r)
			}
			w.call("free", uint64(part))
		}
		streamed := int32(w.call("stream_end", s))

		// Through the JSON API: a count and an encode, whose answer holds
		// every id.
		req, _ := json.Marshal(core.CountRequest{Target: core.Target{Encoding: encName}, Text: string(text)})
		var a core.CountAnswer
		if out := w.jsonCall("countTokens", req); json.Unmarshal(out, &a) != nil || int32(a.Tokens) != streamed {
			t.Fatalf("countTokens: %.200s, stream_end counted %d", out, streamed)
		}
		if out := w.jsonCall("encode", req); !bytes.HasPrefix(out, []byte(`{`)) || strings.HasPrefix(string(out), `{"error"`) {
			t.Fatalf("encode: %.200s", out)
		}
	}
	if w.cycles < 10 {
		t.Fatalf("the sequence ran %d collection cycles: too few to show anything", w.cycles)
	}
	t.Logf("%d cycles traced; the module's memory ends at %d MiB", w.cycles, mod.Memory().Size()>>20)
}
