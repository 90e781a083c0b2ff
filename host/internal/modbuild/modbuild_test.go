package modbuild

import (
	"os"
	"path"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// TestMakefile holds the Makefile's wasm target to the modules Build makes:
// the same reproducible flags, the same GOOS, tags and package for each
// module, and the same post-link step, so that make wasm and Build give the
// same bytes.
func TestMakefile(t *testing.T) {
	b, err := os.ReadFile("../../../Makefile")
	if err != nil {
		t.Fatal(err)
	}
	mk := string(b)
	flags := regexp.MustCompile(`(?m)^WASM_FLAGS\s*:=\s*(.*)$`).FindStringSubmatch(mk)
	if flags == nil {
		t.Fatal("no WASM_FLAGS in the Makefile")
	}
	if got := words(flags[1]); !slices.Equal(got, Reproducible) {
		t.Errorf("WASM_FLAGS = %q, Reproducible = %q", got, Reproducible)
	}
	for _, tgt := range []Target{WASIP1, NoHF, Lite, JS} {
		t.Run(tgt.Name, func(t *testing.T) {
			line := regexp.MustCompile(`(?m)^\s*GOOS=(\S+) GOARCH=wasm \$\(GO\) build \$\(WASM_FLAGS\) (.*) -o \$\(WASM_DIR\)/` +
				regexp.QuoteMeta(tgt.Name) + ` (\S+)$`).FindStringSubmatch(mk)
			if line == nil {
				t.Fatalf("the Makefile does not build $(WASM_DIR)/%s", tgt.Name)
			}
			if line[1] != tgt.GOOS {
				t.Errorf("GOOS=%s in the Makefile, %s here", line[1], tgt.GOOS)
			}
			if got := words(line[2]); !slices.Equal(got, tgt.Flags) {
				t.Errorf("flags %q in the Makefile, %q here", got, tgt.Flags)
			}
			if pkg := "github.com/tokenfit/tokenfit/" + path.Clean(line[3]); pkg != tgt.Package {
				t.Errorf("package %s in the Makefile, %s here", pkg, tgt.Package)
			}
		})
	}
	modules := regexp.MustCompile(`(?m)^WASM_MODULES\s*:=\s*(.*)$`).FindStringSubmatch(mk)
	if modules == nil || !strings.Contains(mk, "\t$(GO) run ./internal/cmd/postlink $(WASM_MODULES)\n") {
		t.Fatal("the Makefile's wasm target does not run internal/cmd/postlink on $(WASM_MODULES)")
	}
	for _, tgt := range []Target{WASIP1, NoHF, Lite, JS} {
		if !slices.Contains(strings.Fields(modules[1]), "$(WASM_DIR)/"+tgt.Name) {
			t.Errorf("WASM_MODULES leaves out %s", tgt.Name)
		}
	}
}

// words splits a line of shell words as make passes them to sh (double
// quotes only), writing "-tags a,b" as the one word "-tags=a,b".
func words(s string) []string {
	var out []string
	var w strings.Builder
	in, quoted := false, false
	for _, r := range s {
		switch {
		case r == '"':
			quoted, in = !quoted, true
		case r == ' ' && !quoted:
			if in {
				out = append(out, w.String())
				w.Reset()
				in = false
			}
		default:
			w.WriteRune(r)
			in = true
		}
	}
	if in {
		out = append(out, w.String())
	}
	for i := 0; i+1 < len(out); i++ {
		if out[i] == "-tags" {
			out = slices.Replace(out, i, i+2, "-tags="+out[i+1])
		}
	}
	return out
}
