package host_test

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/internal/tokenvectors"
)

// enCopies is copies of the corpus's en.txt, about 2.8 MB (three parts of
// a stream), with tiktoken's count of one copy by encoding: a copy ends
// with a line break and the next starts a word, so copies count alike.
func enCopies(t *testing.T) (string, map[string]int) {
	t.Helper()
	cases, err := tokenvectors.Load("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range cases {
		if c.File == "corpus/en.txt" {
			if !strings.HasSuffix(c.Text, "\n") || strings.HasPrefix(c.Text, " ") {
				t.Fatal("en.txt must end with a line break and start with a word")
			}
			return strings.Repeat(c.Text, 600), c.Counts
		}
	}
	t.Fatal("no corpus/en.txt in the vectors")
	return "", nil
}

// emptyReads returns no bytes and no error before every read of r.
type emptyReads struct {
	r     io.Reader
	empty bool
}

func (e *emptyReads) Read(p []byte) (int, error) {
	if e.empty = !e.empty; e.empty {
		return 0, nil
	}
	return e.r.Read(p)
}

// readers are the ways a text is read in the tests: whole, a byte at a
// time, half of what is asked, with an empty read before each read, and
// with its last bytes given with io.EOF.
var readers = map[string]func(string) io.Reader{
	"whole":   func(s string) io.Reader { return strings.NewReader(s) },
	"byte":    func(s string) io.Reader { return iotest.OneByteReader(strings.NewReader(s)) },
	"half":    func(s string) io.Reader { return iotest.HalfReader(strings.NewReader(s)) },
	"empty":   func(s string) io.Reader { return &emptyReads{r: strings.NewReader(s)} },
	"dataEOF": func(s string) io.Reader { return iotest.DataErrReader(strings.NewReader(s)) },
}

// TestHost_CountReader: a text read from a reader, however its reads cut
// it, counts as tiktoken counts it (copies of en.txt, three stream parts),
// and as core counts it for texts tiktoken has no vector for: long runs cut
// inside characters, bytes that are not UTF-8 (U+FFFD each), an empty
// text; on the Host and on a checked-out Instance.
func TestHost_CountReader(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	h := sharedHost(t)
	en, counts := enCopies(t)
	invalid := strings.ReplaceAll(streamText()[:3<<20], "a", "a\xff\xf0\x9f")
	e, _ := core.GetEncoding("o200k_base")
	for name, read := range readers {
		if n, err := h.CountReader(ctx, "o200k_base", read(en)); err != nil || n != 600*counts["o200k_base"] {
			t.Errorf("%s: en.txt ×600 = %d, %v; tiktoken %d", name, n, err, 600*counts["o200k_base"])
		}
		for what, text := range map[string]string{"invalid UTF-8": invalid, "empty": "", "short": "Hello world"} {
			if n, err := h.CountReader(ctx, "o200k_base", read(text)); err != nil || n != e.Count(text) {
				t.Errorf("%s, %s: %d, %v; want %d", name, what, n, err, e.Count(text))
			}
		}
	}
	if n, err := h.CountReader(ctx, "cl100k_base", readers["byte"](en)); err != nil || n != 600*counts["cl100k_base"] {
		t.Errorf("cl100k_base: en.txt ×600 = %d, %v; tiktoken %d", n, err, 600*counts["cl100k_base"])
	}
	runs := streamText()
	if n, err := h.CountReader(ctx, "o200k_base", readers["byte"](runs)); err != nil || n != e.Count(runs) {
		t.Errorf("long runs: %d, %v; want %d", n, err, e.Count(runs))
	}
	in := instance(t, newHost(t, config(t).WithMaxInstances(1)))
	if n, err := in.CountReader(ctx, "p50k_base", iotest.HalfReader(strings.NewReader(en))); err != nil || n != 600*counts["p50k_base"] {
		t.Errorf("Instance: %d, %v; tiktoken %d", n, err, 600*counts["p50k_base"])
	}
}

// failAfter yields n bytes of text, then fails with err.
func failAfter(text string, n int, err error) io.Reader {
	return io.MultiReader(strings.NewReader(text[:n]), iotest.ErrReader(err))
}

// TestHost_CountReaderFaults: a reader that fails midway, one that times
// out, one that never yields, a context cancelled mid-stream, an unknown
// encoding: each is its own error, and after each (70 in a row, past the 64
// stream counters an instance holds) the same one-instance Host counts a
// long text right.
func TestHost_CountReaderFaults(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1))
	en, counts := enCopies(t)
	want := 600 * counts["o200k_base"]
	boom := errors.New("disk on fire")
	check := func(what string) {
		t.Helper()
		if n, err := h.Count(ctx, "o200k_base", en); err != nil || n != want {
			t.Fatalf("after %s: Count = %d, %v; tiktoken %d", what, n, err, want)
		}
	}
	for i := range 70 {
		_, err := h.CountReader(ctx, "o200k_base", failAfter(en, (i*37813)%len(en), boom))
		if !errors.Is(err, host.ErrRead) || !errors.Is(err, boom) {
			t.Fatalf("failing reader %d: %v; want ErrRead wrapping %v", i, err, boom)
		}
	}
	check("70 failing readers")
	if _, err := h.CountReader(ctx, "o200k_base", iotest.TimeoutReader(strings.NewReader(en))); !errors.Is(err, host.ErrRead) || !errors.Is(err, iotest.ErrTimeout) {
		t.Errorf("timeout: %v", err)
	}
	check("a timeout")
	if _, err := h.CountReader(ctx, "o200k_base", stuck{}); !errors.Is(err, host.ErrRead) || !errors.Is(err, io.ErrNoProgress) {
		t.Errorf("stuck reader: %v", err)
	}
	check("a stuck reader")
	if _, err := h.CountReader(ctx, "no_such_encoding", stuck{}); !errors.Is(err, core.ErrUnknownEncoding) {
		t.Errorf("unknown encoding: %v", err)
	}
	check("an unknown encoding")

	// A context cancelled midway, on the Host (which returns at once) and
	// on an Instance (which stops after the read under way).
	for range 3 {
		c, cancel := context.WithCancel(ctx)
		r := &cancelAfter{r: strings.NewReader(en), n: 1500 << 10, cancel: cancel}
		if _, err := h.CountReader(c, "o200k_base", r); !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled: %v", err)
		}
		check("a cancelled count")
	}
	in, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, cancel := context.WithCancel(ctx)
	r := &cancelAfter{r: strings.NewReader(en), n: 1500 << 10, cancel: cancel}
	if _, err := in.CountReader(c, "o200k_base", r); !errors.Is(err, context.Canceled) {
		t.Errorf("Instance, cancelled: %v", err)
	}
	if r.read > 2<<20 {
		t.Errorf("Instance, cancelled after 1.5 MB: read %d bytes", r.read)
	}
	if n, err := in.CountReader(ctx, "o200k_base", strings.NewReader(en)); err != nil || n != want {
		t.Errorf("Instance after a cancelled count: %d, %v; tiktoken %d", n, err, want)
	}
	in.Release()
	check("a cancelled Instance count")
}

// stuck never yields a byte.
type stuck struct{}

func (stuck) Read([]byte) (int, error) { return 0, nil }

// cancelAfter reads r and calls cancel once n bytes have been read.
type cancelAfter struct {
	r      io.Reader
	n      int
	read   int
	cancel func()
}

func (c *cancelAfter) Read(p []byte) (int, error) {
	k, err := c.r.Read(p[:min(len(p), 64<<10)])
	c.read += k
	if c.read >= c.n {
		c.cancel()
	}
	return k, err
}

// TestHost_CountReaderHugeLine: a line of 6 MiB with no place to split
// (one run of letters) is held whole and counted as one piece, as core
// counts it.
func TestHost_CountReaderHugeLine(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	h := sharedHost(t)
	line := strings.Repeat("abcdefghij", 6<<20/10) + "\n"
	e, _ := core.GetEncoding("cl100k_base")
	if n, err := h.CountReader(ctx, "cl100k_base", iotest.HalfReader(strings.NewReader(line))); err != nil || n != e.Count(line) {
		t.Errorf("%d, %v; want %d", n, err, e.Count(line))
	}
}

// TestHost_WithinLimitReader: a check of a text read from a reader answers
// as core's WithinLimit of the whole text, by encoding, by model, by an
// estimate and a calibrated model (read whole); it reads no further than
// the limit needs (a reader that fails after the text's first 2 MB is
// never read to its failure for a small limit); a request with a text of
// its own is refused.
func TestHost_WithinLimitReader(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	h := sharedHost(t)
	reg := core.NewAPI().Registry()
	en, counts := enCopies(t)
	cal, err := reg.Calibrate(core.CalibrateRequest{Model: "claude-sonnet-4-5", Estimate: 100, Reported: 112})
	if err != nil {
		t.Fatal(err)
	}
	targets := []core.Target{{Encoding: "o200k_base"}, {Model: "gpt-4"}, {Model: "claude-sonnet-4-5"},
		{Model: "claude-sonnet-4-5", Calibration: &cal.Calibration}, {Model: "gpt-4o", Calibration: &cal.Calibration}}
	for _, target := range targets {
		for _, limit := range []int{0, 1, 1000, 300 * counts["o200k_base"], 600*counts["o200k_base"] - 1, 600 * counts["o200k_base"], 1 << 40} {
			wantA, err := reg.WithinLimit(core.LimitRequest{Target: target, Text: en, Limit: limit})
			if err != nil {
				t.Fatal(err)
			}
			a, err := h.WithinLimitReader(ctx, core.LimitRequest{Target: target, Limit: limit}, iotest.HalfReader(strings.NewReader(en)))
			if err != nil || a != wantA {
				t.Errorf("%+v, limit %d: %+v, %v; want %+v", target, limit, a, err, wantA)
			}
		}
	}
	boom := errors.New("unread")
	a, err := h.WithinLimitReader(ctx, core.LimitRequest{Limit: 1000}, failAfter(en, 2<<20, boom))
	if err != nil || a.Within || a.Tokens <= 1000 {
		t.Errorf("small limit, failing past 2 MB: %+v, %v", a, err)
	}
	if _, err := h.WithinLimitReader(ctx, core.LimitRequest{Limit: 1 << 30}, failAfter(en, 2<<20, boom)); !errors.Is(err, boom) || !errors.Is(err, host.ErrRead) {
		t.Errorf("large limit, failing past 2 MB: %v", err)
	}
	var herr *host.Error
	if _, err := h.WithinLimitReader(ctx, core.LimitRequest{Text: "x", Limit: 1}, strings.NewReader("")); !errors.As(err, &herr) || herr.Field != "text" {
		t.Errorf("a text in the request: %v", err)
	}
}

// TestMemory_CountReaderLong: a reader of 2.3 GB of prose (more than an
// int32 length, more than the 1 GiB a copy may hold) counts as tiktoken
// counts its copies of en.txt (make test-long).
func TestMemory_CountReaderLong(t *testing.T) {
	if os.Getenv("TOKENFIT_LONG") != "1" {
		t.Skip("make test-long: counts 2.3 GB")
	}
	en, counts := enCopies(t)
	const copies = 800 // of en (2.8 MB each)
	r := io.MultiReader(func() []io.Reader {
		rs := make([]io.Reader, copies)
		for i := range rs {
			rs[i] = strings.NewReader(en)
		}
		return rs
	}()...)
	n, err := sharedHost(t).CountReader(context.Background(), "o200k_base", r)
	if want := copies * 600 * counts["o200k_base"]; err != nil || n != want {
		t.Errorf("%d, %v; tiktoken %d", n, err, want)
	}
}
