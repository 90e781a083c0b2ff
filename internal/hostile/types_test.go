package hostile

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"
)

// TestTypes_UpToDate holds types.json to the Bases; TOKENFIT_UPDATE=1
// rewrites it.
func TestTypes_UpToDate(t *testing.T) {
	want, err := TypesFile()
	if err != nil {
		t.Fatal(err)
	}
	dir, err := Dir()
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(dir, "types.json")
	if os.Getenv("TOKENFIT_UPDATE") == "1" {
		if err := os.WriteFile(path, want, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	got, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(got, want) {
		t.Fatalf("%s is out of date (%v): run TOKENFIT_UPDATE=1 go test ./internal/hostile", path, err)
	}
}

func TestLoad(t *testing.T) {
	f, err := Load()
	if err != nil {
		t.Fatal(err)
	}
	if f.Probe == nil || len(f.Cases) == 0 {
		t.Fatal("no probe or no cases")
	}
	for _, c := range f.Cases {
		if c.Huge && c.Gen == nil {
			t.Errorf("%s: huge without gen", c.Name)
		}
	}
}
