package wasm_test

import (
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/tokenfit/tokenfit/core/engine"
)

// TestJSErrorCodes_MirrorEngine holds the npm package's copies of the
// error codes to the one table, core/engine's Codes, as TestTSTypes_MirrorCore does for
// types: js/src/errors.js's STATUS (status number → code, in order),
// index.d.ts's ErrorCode (every code, plus the package's own
// not_initialized), and every code the package's JavaScript throws.
func TestJSErrorCodes_MirrorEngine(t *testing.T) {
	codes := engine.Codes()
	quoted := regexp.MustCompile(`'([a-z_]+)'`)
	list := func(src string) []string {
		var out []string
		for _, m := range quoted.FindAllStringSubmatch(src, -1) {
			out = append(out, m[1])
		}
		return out
	}

	js := readFile(t, "../js/src/errors.js")
	m := regexp.MustCompile(`(?s)const STATUS = \[null, (.*?)\];`).FindStringSubmatch(js)
	if m == nil {
		t.Fatal("js/src/errors.js has no `const STATUS = [null, ...];`")
	}
	if got := list(m[1]); !slices.Equal(got, codes) {
		t.Errorf("js/src/errors.js STATUS is %q; core/engine.Codes() is %q", got, codes)
	}

	ts := readFile(t, "../js/src/index.d.ts")
	m = regexp.MustCompile(`(?s)export type ErrorCode =(.*?);`).FindStringSubmatch(ts)
	if m == nil {
		t.Fatal("index.d.ts has no `export type ErrorCode = ...;`")
	}
	got := list(m[1])
	want := append(slices.Clone(codes), "not_initialized")
	slices.Sort(got)
	slices.Sort(want)
	if !slices.Equal(got, want) {
		t.Errorf("index.d.ts ErrorCode is %q; want core/engine's codes and not_initialized, %q", got, want)
	}

	// Every code the JavaScript throws is one ErrorCode names.
	files, err := os.ReadDir("../js/src")
	if err != nil {
		t.Fatal(err)
	}
	thrown := regexp.MustCompile(`new TokenfitError\(\s*'([a-z_]+)'`)
	for _, f := range files {
		if !regexp.MustCompile(`\.js$`).MatchString(f.Name()) {
			continue
		}
		for _, m := range thrown.FindAllStringSubmatch(readFile(t, "../js/src/"+f.Name()), -1) {
			if !slices.Contains(want, m[1]) {
				t.Errorf("js/src/%s throws code %q, which index.d.ts's ErrorCode does not name", f.Name(), m[1])
			}
		}
	}
}

func readFile(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile(name)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
