// Package oracle runs a reference tokenizer in a Node process and compares
// tokenfit's ids with its answers, for the differential tests of
// core/internal/bpe (the official tiktoken, js/scripts/oracle.mjs) and
// core/internal/hf (tokenizers.js, core/internal/hf/testdata/oracle.mjs).
// Tests only.
//
// A script reads one JSON request a line on stdin, {"<key>": name, "text":
// text}, and answers each in order with one line, {"ids": [...]} or
// {"error": "..."}; serve.mjs is that loop, which both scripts use.
package oracle

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"testing"
)

// Process is a running reference script. Its methods are safe for
// concurrent use; requests are answered in order.
type Process struct {
	mu   sync.Mutex
	key  string
	cmd  *exec.Cmd
	in   *bufio.Writer
	out  *bufio.Reader
	pipe io.WriteCloser
}

// Start runs node with script and args, naming the encoding or tokenizer of
// each request by key. Call Close when done.
func Start(key, script string, args ...string) (*Process, error) {
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("oracle: node missing")
	}
	cmd := exec.Command(node, append([]string{script}, args...)...)
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Process{key: key, cmd: cmd, pipe: stdin, in: bufio.NewWriterSize(stdin, 1<<20), out: bufio.NewReaderSize(stdout, 1<<20)}, nil
}

// Encode returns the reference's token ids of each text under name.
func (p *Process) Encode(name string, texts []string) ([][]int, error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	errc := make(chan error, 1)
	go func() {
		enc := json.NewEncoder(p.in)
		for _, t := range texts {
			if err := enc.Encode(map[string]string{p.key: name, "text": t}); err != nil {
				errc <- err
				return
			}
		}
		errc <- p.in.Flush()
	}()
	ids := make([][]int, len(texts))
	for i := range texts {
		line, err := p.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		var a struct {
			IDs   []int  `json:"ids"`
			Error string `json:"error"`
		}
		if err := json.Unmarshal(line, &a); err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		if a.Error != "" {
			return nil, fmt.Errorf("oracle: %s", a.Error)
		}
		ids[i] = a.IDs
	}
	return ids, <-errc
}

// Close stops the process.
func (p *Process) Close() error {
	p.pipe.Close()
	return p.cmd.Wait()
}

// RepoRoot finds the directory holding go.mod, from the working directory up.
func RepoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("oracle: go.mod not found")
		}
		dir = parent
	}
}

// Tokenizer is what Compare checks: a bpe.Encoder or an hf.Model.
type Tokenizer interface {
	AppendEncode(dst []uint32, text string) []uint32
	Count(text string) int
	Token(id int) (string, bool)
}

// Compare checks tok's ids and count of every text against want, the
// reference's ids, and reports at most five disagreements under name.
func Compare(t testing.TB, name string, tok Tokenizer, texts []string, want [][]int) {
	t.Helper()
	bad := 0
	for i, text := range texts {
		got := tok.AppendEncode(nil, text)
		if !EqualIDs(got, want[i]) || tok.Count(text) != len(want[i]) {
			bad++
			if bad <= 5 {
				t.Errorf("%s: %s", name, Describe(tok, text, got, want[i]))
			}
		}
	}
	if bad > 5 {
		t.Errorf("%s: %d of %d texts disagree", name, bad, len(texts))
	}
}

// EqualIDs reports whether got and want are the same ids.
func EqualIDs(got []uint32, want []int) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		if int(got[i]) != want[i] {
			return false
		}
	}
	return true
}

// Describe shows where got first differs from want, with the text around it.
func Describe(tok Tokenizer, text string, got []uint32, want []int) string {
	k := 0
	for k < len(got) && k < len(want) && int(got[k]) == want[k] {
		k++
	}
	off := 0
	for _, r := range got[:k] {
		s, _ := tok.Token(int(r))
		off += len(s)
	}
	off = min(off, len(text))
	lo, hi := max(0, off-30), min(len(text), off+50)
	var g, w []string
	for _, r := range got[k:min(len(got), k+8)] {
		s, _ := tok.Token(int(r))
		g = append(g, fmt.Sprintf("%d%q", r, s))
	}
	for _, r := range want[k:min(len(want), k+8)] {
		s, _ := tok.Token(r)
		w = append(w, fmt.Sprintf("%d%q", r, s))
	}
	return fmt.Sprintf("%d bytes, first difference at token %d (byte %d) in …%s…\n got %v\nwant %v",
		len(text), k, off, strconv.Quote(text[lo:off])+"|"+strconv.Quote(text[off:hi]), g, w)
}
