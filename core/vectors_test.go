package core

import (
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/internal/hostile"
)

// The shared vectors (testdata/vectors/tokens.json) come from the official
// tiktoken; the Go, wazero and JavaScript tests all check them. Regenerate
// with `make vectors`.

type tokenVector struct {
	Name   string `json:"name"`
	Text   string `json:"text"`
	File   string `json:"file"`
	Repeat *struct {
		Unit  string `json:"unit"`
		Times int    `json:"times"`
	} `json:"repeat"`
	Counts map[string]int   `json:"counts"`
	IDs    map[string][]int `json:"ids"`
}

func loadTokenVectors(t *testing.T) []tokenVector {
	t.Helper()
	b, err := os.ReadFile("../testdata/vectors/tokens.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []tokenVector }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for i, c := range f.Cases {
		switch {
		case c.File != "":
			b, err := os.ReadFile(filepath.Join("../testdata", c.File))
			if err != nil {
				t.Fatal(err)
			}
			f.Cases[i].Text = string(b)
		case c.Repeat != nil:
			f.Cases[i].Text = strings.Repeat(c.Repeat.Unit, c.Repeat.Times)
		}
	}
	return f.Cases
}

func TestVectors_Tokens(t *testing.T) {
	cases := loadTokenVectors(t)
	for _, name := range EncodingNames() {
		enc, err := GetEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		bad := 0
		for _, c := range cases {
			if got := enc.Count(c.Text); got != c.Counts[name] {
				bad++
				if bad < 5 {
					t.Errorf("%s %s %q: count %d, want %d", name, c.Name, clip(c.Text), got, c.Counts[name])
				}
			}
			if want, ok := c.IDs[name]; ok {
				if got := enc.Encode(c.Text); !slices.Equal(got, want) {
					t.Errorf("%s %q: ids %v, want %v", name, clip(c.Text), got, want)
				}
			}
		}
		if t.Failed() {
			t.Logf("%s: %d of %d counts differ", name, bad, len(cases))
		}
	}
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "…"
	}
	return s
}

// TestVectors_BudgetAndPlan runs the shared budget and plan vectors
// (testdata/vectors/budget.json, plan.json) through the JSON API; the host
// and the npm package run the same files.
func TestVectors_BudgetAndPlan(t *testing.T) {
	a := NewAPI()
	for _, file := range []string{"budget", "plan"} {
		cases, err := hostile.Vectors(file)
		if err != nil {
			t.Fatal(err)
		}
		if len(cases) < 4 {
			t.Fatalf("%s.json: %d cases", file, len(cases))
		}
		for _, c := range cases {
			if err := hostile.Expect(c.Expect, a.Call(c.Op, c.Request)); err != nil {
				t.Errorf("%s.json %q: %v", file, c.Name, err)
			}
		}
	}
}
