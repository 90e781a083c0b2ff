package core

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"testing"
)

// TestMethodsGenerated holds encoding_methods.go and hf_methods.go to
// engine's methods: it runs gen_methods.go and compares what it writes.
func TestMethodsGenerated(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("runs the go command (make test-wasm runs core's tests in WebAssembly)")
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "gen_methods.go", "-out", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go run gen_methods.go: %v\n%s", err, out)
	}
	for _, name := range []string{"encoding_methods.go", "hf_methods.go"} {
		want, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		got, err := os.ReadFile(name)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run `go generate ./core`", name)
		}
	}
}
