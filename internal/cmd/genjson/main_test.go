package main

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestGenerated_Fresh fails when a generated file (core/json_*_gen.go,
// js/src/schema.d.ts) is not what genjson makes from core's types today:
// run `go generate ./core`.
func TestGenerated_Fresh(t *testing.T) {
	dir := filepath.Join("..", "..", "..", "core")
	files, err := generate(dir)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range files {
		got, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s is stale: run go generate ./core", filepath.Join("core", name))
		}
	}
}
