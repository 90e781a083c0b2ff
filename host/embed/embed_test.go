package embed_test

import (
	"bytes"
	"context"
	"crypto/sha256"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/host/embed"
	"github.com/tokenfit/tokenfit/host/internal/modbuild"
)

// TestEmbed_Fresh: the committed modules are byte for byte a fresh build
// of this tree (the build make wasm runs: reproducible flags, the
// post-link step), so that they never go stale.
func TestEmbed_Fresh(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip(err)
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
			t.Errorf("host/embed/%s (%d bytes, sha256 %.16x) is not a fresh build of this tree (%d bytes, sha256 %.16x): "+
				"run `make embed` and commit the modules with the change", m.target.Name, len(m.committed), sha256.Sum256(m.committed), len(fresh), sha256.Sum256(fresh))
		}
	}
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
