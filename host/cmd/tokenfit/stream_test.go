package main

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"testing/iotest"
	"time"

	"github.com/tokenfit/tokenfit/internal/tokenvectors"
)

// corpusCases are the shared vectors read from a corpus file.
func corpusCases(t *testing.T) []tokenvectors.Case {
	t.Helper()
	cases, err := tokenvectors.Load("../../../testdata")
	if err != nil {
		t.Fatal(err)
	}
	var out []tokenvectors.Case
	for _, c := range cases {
		if c.File != "" {
			out = append(out, c)
		}
	}
	return out
}

// TestCLI_CountStreams: count reads stdin and files as they come, a byte
// at a time or in odd parts, and prints tiktoken's count for each corpus
// file of the shared vectors, by encoding and by model.
func TestCLI_CountStreams(t *testing.T) {
	for _, c := range corpusCases(t) {
		path := filepath.Join("../../../testdata", c.File)
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		for enc, want := range c.Counts {
			for _, r := range []io.Reader{iotest.OneByteReader(bytes.NewReader(b)), iotest.HalfReader(bytes.NewReader(b))} {
				var out, errOut bytes.Buffer
				if st := run([]string{"count", "--encoding", enc}, r, &out, &errOut); st != 0 || out.String() != fmt.Sprintf("%d\n", want) {
					t.Errorf("%s %s: %d %q %q, tiktoken %d", c.File, enc, st, out.String(), errOut.String(), want)
				}
			}
			if enc == "o200k_base" {
				if p := tokenfit(t, "", "count", "--model", "gpt-4o", path, path); p.status != 0 || p.stdout != fmt.Sprintf("%d\n", 2*want) {
					t.Errorf("%s twice, gpt-4o: %d %q %q, tiktoken %d each", c.File, p.status, p.stdout, p.stderr, want)
				}
			}
		}
	}
}

// TestCLI_CountStreamsBothRuntimes: on both runtimes, count reads stdin
// as it comes (copies of en.txt, 2.8 MB: three parts of the module's
// stream, a byte at a time and in halves) and prints tiktoken's count, by
// encoding and by a model; a stdin that fails midway is an error naming
// stdin, and an estimate's count (which needs the whole text) answers as
// natively.
func TestCLI_CountStreamsBothRuntimes(t *testing.T) {
	var en tokenvectors.Case
	for _, c := range corpusCases(t) {
		if c.File == "corpus/en.txt" {
			en = c
		}
	}
	text := strings.Repeat(en.Text, 600)
	for _, rt := range runtimes(t) {
		for _, tc := range []struct {
			args []string
			want int
			r    io.Reader
		}{
			{[]string{"count"}, 600 * en.Counts["o200k_base"], iotest.OneByteReader(strings.NewReader(text))},
			{[]string{"count", "--encoding", "cl100k_base"}, 600 * en.Counts["cl100k_base"], iotest.HalfReader(strings.NewReader(text))},
			{[]string{"count", "--model", "gpt-4"}, 600 * en.Counts["cl100k_base"], iotest.HalfReader(strings.NewReader(text))},
		} {
			var out, errOut bytes.Buffer
			if st := run(append(tc.args, "--runtime", rt), tc.r, &out, &errOut); st != 0 || out.String() != fmt.Sprintf("%d\n", tc.want) {
				t.Errorf("%s %v: %d %q %q, tiktoken %d", rt, tc.args, st, out.String(), errOut.String(), tc.want)
			}
		}
		var out, errOut bytes.Buffer
		failing := io.MultiReader(strings.NewReader(text), iotest.ErrReader(errors.New("disk on fire")))
		if st := run([]string{"count", "--runtime", rt}, failing, &out, &errOut); st != 1 || !strings.HasPrefix(errOut.String(), "tokenfit: stdin: ") || !strings.Contains(errOut.String(), "disk on fire") {
			t.Errorf("%s, failing stdin: %d %q %q", rt, st, out.String(), errOut.String())
		}
		native := tokenfit(t, text, "count", "--model", "claude-sonnet-4-5")
		if p := tokenfit(t, text, "count", "--model", "claude-sonnet-4-5", "--runtime", rt); p.status != 0 || p != native {
			t.Errorf("%s, an estimate: %+v, native %+v", rt, p, native)
		}
	}
}

// TestCLI_JSONLStreams: count --jsonl answers each line before the next
// one is written.
func TestCLI_JSONLStreams(t *testing.T) {
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan int)
	go func() {
		done <- run([]string{"count", "--jsonl"}, inR, outW, io.Discard)
		outW.Close()
	}()
	lines := make(chan string)
	go func() {
		buf := make([]byte, 100)
		for {
			n, err := outR.Read(buf)
			if err != nil {
				close(lines)
				return
			}
			lines <- string(buf[:n])
		}
	}()
	for i, line := range []string{`{"text": "Hello world"}`, `{"text": "a b c"}`} {
		fmt.Fprintln(inW, line)
		inW.Write(nil)
		select {
		case got := <-lines:
			if want := []string{`{"tokens":2}` + "\n", `{"tokens":3}` + "\n"}[i]; got != want {
				t.Errorf("line %d: %q, want %q", i+1, got, want)
			}
		case <-time.After(30 * time.Second):
			t.Fatalf("line %d: no answer before the next line", i+1)
		}
	}
	inW.Close()
	if st := <-done; st != 0 {
		t.Errorf("status %d", st)
	}
}

// prose is an endless English text made of one corpus file.
type prose struct {
	unit []byte
	left int64
	off  int
}

func (p *prose) Read(b []byte) (int, error) {
	if p.left <= 0 {
		return 0, io.EOF
	}
	n := 0
	for n < len(b) && p.left > 0 {
		k := copy(b[n:min(len(b), n+int(min(p.left, 1<<30)))], p.unit[p.off:])
		p.off = (p.off + k) % len(p.unit)
		n += k
		p.left -= int64(k)
	}
	return n, nil
}

// TestMemory_CountStream: natively, count takes more than the 1 GiB that
// other commands read (make test-long: 1.25 GiB of prose) and prints
// tiktoken's count.
func TestMemory_CountStream(t *testing.T) {
	if os.Getenv("TOKENFIT_LONG") != "1" {
		t.Skip("make test-long: counts 1.25 GiB")
	}
	var en tokenvectors.Case
	for _, c := range corpusCases(t) {
		if c.File == "corpus/en.txt" {
			en = c
		}
	}
	unit, err := os.ReadFile("../../../testdata/corpus/en.txt")
	if err != nil {
		t.Fatal(err)
	}
	// Copies of the file count as many times its tokens: each ends with a
	// line break and the next starts a word.
	if !bytes.HasSuffix(unit, []byte("\n")) || bytes.IndexByte(unit[:1], ' ') == 0 {
		t.Fatalf("en.txt must end with a line break and start with a word")
	}
	if p := tokenfit(t, strings.Repeat(string(unit), 3), "count"); p.stdout != fmt.Sprintf("%d\n", 3*en.Counts["o200k_base"]) {
		t.Fatalf("three copies: %q, want %d", p.stdout, 3*en.Counts["o200k_base"])
	}
	copies := int64(5<<28)/int64(len(unit)) + 1
	var out, errOut bytes.Buffer
	st := run([]string{"count"}, &prose{unit: unit, left: copies * int64(len(unit))}, &out, &errOut)
	if want := fmt.Sprintf("%d\n", copies*int64(en.Counts["o200k_base"])); st != 0 || out.String() != want {
		t.Errorf("%d copies of en.txt (%d bytes): %d %q %q, want %s", copies, copies*int64(len(unit)), st, out.String(), errOut.String(), want)
	}
}
