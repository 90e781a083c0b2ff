package core

import (
	"slices"
	"testing"

	"github.com/tokenfit/tokenfit/internal/hostile"
	"github.com/tokenfit/tokenfit/internal/tokenvectors"
)

// The shared vectors (testdata/vectors/tokens.json) come from the official
// tiktoken; the Go, wazero and JavaScript tests all check them. Regenerate
// with `make vectors`.

type tokenVector = tokenvectors.Case

func loadTokenVectors(t *testing.T) []tokenVector {
	t.Helper()
	cases, err := tokenvectors.Load("../testdata")
	if err != nil {
		t.Fatal(err)
	}
	return cases
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
			if err := hostile.Expect(c.Expect, a.Call(c.Op, c.Bytes())); err != nil {
				t.Errorf("%s.json %q: %v", file, c.Name, err)
			}
		}
	}
}
