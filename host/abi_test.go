package host_test

import (
	"bufio"
	"context"
	"os"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/tokenfit/tokenfit/host"
)

// TestABI_Exports holds three lists to one another: the built module's
// exports, wasm/exports.txt, and the export table of wasm/ABI.md (and the
// functions the host requires to the same list).
func TestABI_Exports(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(testCache()))
	defer rt.Close(ctx)
	m, err := rt.CompileModule(ctx, module(t))
	if err != nil {
		t.Fatal(err)
	}
	var built []string
	for name, f := range m.ExportedFunctions() {
		built = append(built, name+" "+host.Signature(f.ParamTypes(), f.ResultTypes()))
	}
	for name := range m.ExportedMemories() {
		built = append(built, name+" memory")
	}
	slices.Sort(built)

	listed := readExportsTxt(t)
	documented := readABITable(t)
	if !slices.Equal(built, listed) {
		t.Errorf("the module's exports differ from wasm/exports.txt\nmodule: %q\nlisted: %q", built, listed)
	}
	if !slices.Equal(documented, listed) {
		t.Errorf("wasm/ABI.md's export table differs from wasm/exports.txt\nABI.md: %q\nlisted: %q", documented, listed)
	}
	var functions []string
	for _, e := range listed {
		if !strings.HasSuffix(e, " memory") {
			functions = append(functions, e)
		}
	}
	if required := host.ExportsForTest(); !slices.Equal(required, functions) {
		t.Errorf("the host requires other exports than wasm/exports.txt lists\nhost:   %q\nlisted: %q", required, functions)
	}
}

func readExportsTxt(t *testing.T) []string {
	f, err := os.Open("../wasm/exports.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if line := strings.TrimSpace(sc.Text()); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	slices.Sort(out)
	return out
}

// readABITable reads the rows "| `name` | `(…) -> (…)` | …" (or "memory")
// of ABI.md's export table.
func readABITable(t *testing.T) []string {
	b, err := os.ReadFile("../wasm/ABI.md")
	if err != nil {
		t.Fatal(err)
	}
	_, section, _ := strings.Cut(string(b), "### Exports")
	section, _, _ = strings.Cut(section, "\n### ")
	row := regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (?:`([^`]*)`|(memory)) \\|")
	var out []string
	for _, m := range row.FindAllStringSubmatch(section, -1) {
		out = append(out, m[1]+" "+m[2]+m[3])
	}
	slices.Sort(out)
	return out
}
