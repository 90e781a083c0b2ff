package main

import (
	"maps"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestBenchmarks_Fresh: BENCHMARKS.md is what this program writes from
// the records it holds (the records are build outputs, never committed, so
// the document carries them): an edit by hand, or a change to the program
// without running it again, fails here.
func TestBenchmarks_Fresh(t *testing.T) {
	doc, err := os.ReadFile("../../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	if got := render(parse(string(doc))); string(got) != string(doc) {
		t.Error("BENCHMARKS.md is not what go run ./internal/cmd/benchmarks writes from its records: run make benchmarks")
	}
}

// TestTargets_Makefile: the targets are the Makefile's bench target's
// prerequisites, in its order, and each starts its record with the stamp.
func TestTargets_Makefile(t *testing.T) {
	b, err := os.ReadFile("../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`(?m)^bench: (.*)$`).FindStringSubmatch(string(b))
	if m == nil {
		t.Fatal("no bench target in the Makefile")
	}
	var names []string
	for _, tg := range targets {
		names = append(names, tg.name)
	}
	if got := strings.Fields(m[1]); !slices.Equal(got, names) {
		t.Errorf("make bench runs %q, this program knows %q", got, names)
	}
	if !strings.Contains(string(b), "./internal/cmd/benchmarks -stamp") {
		t.Error("the Makefile's new-record does not start a record with the stamp")
	}
}

func TestClean(t *testing.T) {
	raw := `# bench record: commit="abc" load="1.5"
=== RUN   TestBenchReport
    bench_test.go:284: 
        Counting engine, 1048576 bytes
        
        encoding     tokenfit
--- PASS: TestBenchReport (12.00s)
PASS
ok  	github.com/tokenfit/tokenfit/core	12.345s
(node:17627) ExperimentalWarning: WASI is an experimental feature and might change at any time
(Use ` + "`node --trace-warnings ...`" + ` to show where the warning was created)
table from node   
`
	want := "# bench record: commit=\"abc\" load=\"1.5\"\n\nCounting engine, 1048576 bytes\n\nencoding     tokenfit\ntable from node"
	if got := clean(raw); got != want {
		t.Errorf("clean:\n%q\nwant\n%q", got, want)
	}
	if got := clean(want); got != want {
		t.Errorf("clean is not idempotent:\n%q", got)
	}
	printed := "# bench record: commit=\"abc\"\n=== RUN   TestBenchAccuracy\n| model |\n--- PASS: TestBenchAccuracy (1.71s)"
	if got, want := clean(printed), "# bench record: commit=\"abc\"\n\n| model |"; got != want {
		t.Errorf("clean of a target that prints with fmt:\n%q\nwant\n%q", got, want)
	}
}

func TestStamp_RoundTrip(t *testing.T) {
	st := parseStamp(stampLine())
	for _, k := range []string{"commit", "dirty", "date", "go", "node", "os", "cpu", "cores", "load"} {
		if st[k] == "" {
			t.Errorf("the stamp has no %s: %v", k, st)
		}
	}
	records := map[string]string{"bench-core": stampLine() + "\n\nratio 18.7×", "bench-js": "an old record"}
	if got := parse(string(render(records))); !maps.Equal(got, records) {
		t.Errorf("parse(render(r)) = %q, want %q", got, records)
	}
}

// TestReadme_Accuracy: the README's accuracy table is bench-accuracy's, as
// BENCHMARKS.md holds its record (make benchmarks writes both).
func TestReadme_Accuracy(t *testing.T) {
	doc, err := os.ReadFile("../../../BENCHMARKS.md")
	if err != nil {
		t.Fatal(err)
	}
	readme, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	table := accuracyTable(parse(string(doc))["bench-accuracy"])
	if table == "" {
		t.Skip("BENCHMARKS.md holds no bench-accuracy record yet")
	}
	want, err := replaceSection(string(readme), table)
	if err != nil {
		t.Fatal(err)
	}
	if want != string(readme) {
		t.Error("README.md's accuracy table is not bench-accuracy's record: run make benchmarks")
	}
}
