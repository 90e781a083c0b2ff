package embed_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/host/embed"
	"github.com/tokenfit/tokenfit/host/internal/modbuild"
)

// TestEmbed_Fresh: at a release, the committed modules are byte for byte a
// fresh build of the tree (the build make wasm runs: reproducible flags, the
// post-link step). Between releases they are the last release's and differ
// from the tree's build by design, so the check runs only where a release
// is made: make release and make release-check set TOKENFIT_RELEASE=1, and
// .ci/run runs make release-check on a commit that changes the modules
// (RATIONALE.md, "Why are the modules committed, and refreshed only by a
// release?"). Every other run holds them to this host with
// TestEmbed_Compatible.
func TestEmbed_Fresh(t *testing.T) {
	if os.Getenv("TOKENFIT_RELEASE") == "" {
		t.Skip("a release check (make release-check): the modules change with releases, not with every change")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Fatal(err) // a release is made where the go command is
	}
	for _, m := range []struct {
		target    modbuild.Target
		committed []byte
	}{{modbuild.WASIP1, embed.Module}, {modbuild.Lite, embed.LeanModule}} {
		path, err := modbuild.Build(context.Background(), m.target, "")
		if err != nil {
			t.Fatal(err)
		}
		fresh, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh, m.committed) {
			t.Errorf("host/embed/%s (%d bytes, sha256 %.16x) is not a fresh build of this tree with %s (%d bytes, sha256 %.16x): "+
				"run `make release` and commit the modules with the version change", m.target.Name, len(m.committed), sha256.Sum256(m.committed), runtime.Version(), len(fresh), sha256.Sum256(fresh))
		}
	}
}

// TestEmbed_Compatible: the committed modules, the last release's, still
// work with this tree's host, which is what host.New(ctx, host.NewConfig())
// runs for a program that requires tokenfit at any commit: New accepts
// them (every export the host requires, with its signature, and the ABI
// version), they load the indexes this tree's core builds for every
// encoding, count as the native core does, and answer every operation a
// method of Host sends (the typed methods, countChat through CallAs, a
// registration replayed into a second instance, LoadTokenizer). They
// report core.Version: a change of the version is a release, made with
// make release. New operations and answer fields of the tree reach
// host.New at the next release (WithModule runs the tree's build).
func TestEmbed_Compatible(t *testing.T) {
	ctx := context.Background()
	cfg := host.NewConfig().WithMaxInstances(2)
	if dir, err := modbuild.DefaultDir(); err == nil {
		cfg = cfg.WithCompilationCacheDir(filepath.Join(filepath.Dir(dir), "wazero")) // the host tests' cache
	}
	h, err := host.New(ctx, cfg)
	if err != nil {
		t.Fatalf("host.New refuses the committed module: %v (a host change that needs a newer module comes with a release: make release)", err)
	}
	defer h.Close(ctx)
	if v, err := h.Version(ctx); err != nil || v != core.Version {
		t.Errorf("the committed module is version %q (%v), core.Version %q: a version change is a release: run `make release` and commit host/embed with it", v, err, core.Version)
	}
	const text = "Hello, world! naïve café 你好 😀 def f(x):\n\treturn x  \n\n"
	for _, name := range core.EncodingNames() {
		enc, err := core.GetEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		if n, err := h.Count(ctx, name, text); err != nil || n != enc.Count(text) {
			t.Errorf("Count(%s) = %d, %v; natively %d", name, n, err, enc.Count(text))
		}
	}
	want := core.NewAPI().Registry()
	target := core.Target{Model: "gpt-4o"}
	count, err := want.CountTokens(core.CountRequest{Target: target, Text: text})
	if err != nil {
		t.Fatal(err)
	}
	checks := []struct {
		op  string
		got func() (int, error)
	}{
		{"countTokens", func() (int, error) {
			a, err := h.CountTokens(ctx, core.CountRequest{Target: target, Text: text})
			return a.Tokens, err
		}},
		{"encode", func() (int, error) {
			a, err := h.Encode(ctx, core.CountRequest{Target: target, Text: text})
			return len(a.IDs), err
		}},
		{"decode", func() (int, error) {
			a, err := h.Decode(ctx, core.DecodeRequest{Target: target, IDs: []int{13225, 2375}})
			return len(a.Text), err
		}},
		{"withinLimit", func() (int, error) {
			a, err := h.WithinLimit(ctx, core.LimitRequest{Target: target, Text: text, Limit: 1000})
			return a.Tokens, err
		}},
		{"truncate", func() (int, error) {
			a, err := h.Truncate(ctx, core.TruncateRequest{Target: target, Text: text, MaxTokens: 3})
			return a.Tokens, err
		}},
		{"calculateBudget", func() (int, error) {
			a, err := h.CalculateBudget(ctx, core.BudgetRequest{Model: "gpt-4o"})
			return a.ContextWindow, err
		}},
		{"countChat", func() (int, error) {
			a, err := host.CallAs[core.ChatAnswer](ctx, h, "countChat", []byte(`{"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello world"}]}`))
			return a.Total, err
		}},
	}
	for _, c := range checks {
		if n, err := c.got(); err != nil || n == 0 {
			t.Errorf("%s on the committed module: %d, %v", c.op, n, err)
		}
	}
	if n, _ := checks[0].got(); n != count.Tokens {
		t.Errorf("countTokens = %d, natively %d", n, count.Tokens)
	}

	// A registration and a tokenizer reach an instance started after them
	// as the host replays its state (the first instance is held meanwhile).
	if _, err := h.Do(ctx, "registerModels", []byte(`{"models": [{"id": "acme-7", "contextWindow": 7000, "encoding": "o200k_base"}]}`)); err != nil {
		t.Fatal(err)
	}
	file := byteLevelTokenizer()
	ref, err := core.LoadTokenizer("tiny", file)
	if err != nil {
		t.Fatal(err)
	}
	if info, err := h.LoadTokenizer(ctx, "tiny", file); err != nil || info.VocabSize != ref.VocabSize() {
		t.Fatalf("LoadTokenizer: %+v, %v; natively %d tokens", info, err, ref.VocabSize())
	}
	held, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	if b, err := h.CalculateBudget(ctx, core.BudgetRequest{Model: "acme-7"}); err != nil || b.ContextWindow != 7000 {
		t.Errorf("a registered model in a second instance: window %d, %v", b.ContextWindow, err)
	}
	if n, err := h.Count(ctx, "tiny", " abc abcab"); err != nil || n != ref.Count(" abc abcab") {
		t.Errorf("a loaded tokenizer in a second instance: %d, %v; natively %d", n, err, ref.Count(" abc abcab"))
	}

	lean, err := host.New(ctx, cfg.WithLeanModule(embed.LeanModule).WithEncodings("o200k_base"))
	if err != nil {
		t.Fatalf("host.New refuses the committed lean module: %v", err)
	}
	defer lean.Close(ctx)
	enc, _ := core.GetEncoding("o200k_base")
	if n, err := lean.Count(ctx, "o200k_base", text); err != nil || n != enc.Count(text) {
		t.Errorf("the lean module's Count = %d, %v; natively %d", n, err, enc.Count(text))
	}
}

// byteLevelTokenizer is a small byte-level BPE tokenizer.json: the 256 byte
// characters of GPT-2's byte-level alphabet, then "ab", "abc" and "Ġa".
func byteLevelTokenizer() []byte {
	vocab := map[string]int{}
	n := 0
	for b := range 256 {
		r := rune(b)
		if b < '!' || b > '~' && b < 0xA1 || b == 0xAD {
			r = rune(256 + n)
			n++
		}
		vocab[string(r)] = b
	}
	vocab["ab"], vocab["abc"], vocab["Ġa"] = 256, 257, 258
	model, err := json.Marshal(map[string]any{"type": "BPE", "vocab": vocab, "merges": []string{"Ġ a", "a b", "ab c"}})
	if err != nil {
		panic(err)
	}
	return []byte(`{"normalizer": null, "pre_tokenizer": {"type": "ByteLevel", "add_prefix_space": false, "use_regex": true}, "model": ` + string(model) + `}`)
}

// TestEmbed_GoGet: a program in a module of its own, which requires
// tokenfit (through a replace directive to this tree, as go get would
// fetch it) and builds nothing else, counts with host.New(ctx,
// host.NewConfig()) alone. GOPROXY=off: everything it needs is in the
// module cache already (tokenfit's own dependencies), and it fetches
// nothing.
func TestEmbed_GoGet(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a program")
	}
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip(err)
	}
	root, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	gomod := fmt.Sprintf("module example.com/scratch\n\ngo 1.26\n\nrequire github.com/tokenfit/tokenfit v0.0.0\n\nreplace github.com/tokenfit/tokenfit => %s\n", root)
	main := `package main

import (
	"context"
	"fmt"

	"github.com/tokenfit/tokenfit/host"
)

func main() {
	ctx := context.Background()
	h, err := host.New(ctx, host.NewConfig())
	if err != nil {
		panic(err)
	}
	defer h.Close(ctx)
	n, err := h.Count(ctx, "o200k_base", "Hello world")
	if err != nil {
		panic(err)
	}
	out, err := h.Call(ctx, "countChat", []byte(` + "`" + `{"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello world"}]}` + "`" + `))
	if err != nil {
		panic(err)
	}
	fmt.Printf("%d %s\n", n, out)
}
`
	// tokenfit's own go.sum holds the checksums of everything the program
	// needs, so that nothing is looked up.
	sum, err := os.ReadFile(filepath.Join(root, "go.sum"))
	if err != nil {
		t.Fatal(err)
	}
	for name, text := range map[string]string{"go.mod": gomod, "go.sum": string(sum), "main.go": main} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	env := append(os.Environ(), "GOPROXY=off", "CGO_ENABLED=0")
	for _, args := range [][]string{{"mod", "tidy"}, {"run", "."}} {
		cmd := exec.Command(goCmd, args...)
		cmd.Dir, cmd.Env = dir, env
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
		if args[0] == "run" && !strings.HasPrefix(string(out), `2 {"total":9,`) {
			t.Fatalf("the program printed %q, want 2 and countChat's total 9", out)
		}
	}
}
