package host_test

import (
	"context"
	"errors"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/internal/exportlist"
)

// TestNoHF: the module the npm package starts by default
// (wasm/wasip1/nohf: the full module without package core/hf) has the full
// module's exports and answers every operation but loadTokenizer, which is
// an unknown_operation naming the module that has the loader; the instance
// keeps answering after it. It links none of the loader's functions: Go's
// function table, which the module keeps, names none of core/internal/hf's
// (one reference to a *core.HFTokenizer as an interface value linked them
// all: 38 KB gzip; a package variable initialised by a call, the NFC
// tables).
func TestNoHF(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	wasm := noHFModule.get(t)
	for _, f := range regexp.MustCompile(`core/internal/hf\.[^\x00]*`).FindAll(wasm, -1) {
		t.Errorf("the module links the tokenizer.json loader's %s", f)
	}
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	m, err := rt.CompileModule(ctx, wasm)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := exportlist.Of(m), mustExports(t); !slices.Equal(got, want) {
		t.Errorf("exports %q, wasm/exports.txt %q", got, want)
	}

	h := newHost(t, config(t).WithModule(wasm).WithMaxInstances(1))
	_, err = h.Do(ctx, "loadTokenizer", []byte(`{"name":"x","data":"AA=="}`))
	if !errors.Is(err, core.ErrUnknownOperation) || !strings.Contains(err.Error(), "tokenfit.wasm") {
		t.Errorf("loadTokenizer: %v, want unknown_operation naming tokenfit.wasm", err)
	}
	out, err := h.Do(ctx, "calculateBudget", []byte(`{"model":"gpt-4o","system":"Be brief.","messages":[{"role":"user","content":"Hello world"}]}`))
	if err != nil || !strings.Contains(string(out), `"contextWindow":128000`) {
		t.Errorf("calculateBudget after it: %s %v", out, err)
	}
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("Count: %d, %v", n, err)
	}
}

// TestModules_ErrorsWithoutReflection holds the modules with core to
// linking neither errors.As nor errors.Is, which bring
// internal/reflectlite and its type data (11 KB of gzip): core and the
// adapters ask internal/errs (RATIONALE.md, "Why is package core compiled
// without inlining?"). Function names are in Go's function table, each
// ended by a zero byte.
func TestModules_ErrorsWithoutReflection(t *testing.T) {
	for name, wasm := range map[string][]byte{"tokenfit.wasm": module(t), "tokenfit-nohf.wasm": noHFModule.get(t)} {
		for _, f := range regexp.MustCompile(`\x00errors\.(As|Is|as|is)\x00`).FindAll(wasm, -1) {
			t.Errorf("%s links %s", name, f[1:len(f)-1])
		}
	}
}

func mustExports(t *testing.T) []string {
	t.Helper()
	listed, err := exportlist.ReadFile("../wasm/exports.txt")
	if err != nil {
		t.Fatal(err)
	}
	return listed
}
