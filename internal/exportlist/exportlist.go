// Package exportlist reads the three lists the ABI tests hold to one
// another: a compiled module's exports, a wasm/exports*.txt file, and an
// export table of wasm/ABI.md. Each is a sorted list of lines "name
// (params) -> (results)", or "name memory" for a memory, the notation of
// the .txt files. The tests of wasm (the lean module) and of host (the full
// one) share it.
package exportlist

import (
	"os"
	"regexp"
	"slices"
	"strings"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
)

// Signature writes WebAssembly types as "(i32, i32) -> (i64)".
func Signature(params, results []api.ValueType) string {
	list := func(ts []api.ValueType) string {
		names := make([]string, len(ts))
		for i, t := range ts {
			names[i] = api.ValueTypeName(t)
		}
		return "(" + strings.Join(names, ", ") + ")"
	}
	return list(params) + " -> " + list(results)
}

// Of lists a compiled module's exported functions and memories.
func Of(m wazero.CompiledModule) []string {
	var out []string
	for name, f := range m.ExportedFunctions() {
		out = append(out, name+" "+Signature(f.ParamTypes(), f.ResultTypes()))
	}
	for name := range m.ExportedMemories() {
		out = append(out, name+" memory")
	}
	slices.Sort(out)
	return out
}

// ReadFile reads an exports*.txt file: one export a line; blank lines and
// lines starting with # are not exports.
func ReadFile(path string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var out []string
	for line := range strings.Lines(string(b)) {
		if line = strings.TrimSpace(line); line != "" && !strings.HasPrefix(line, "#") {
			out = append(out, line)
		}
	}
	slices.Sort(out)
	return out, nil
}

var row = regexp.MustCompile("(?m)^\\| `([a-z_]+)` \\| (?:`([^`]*)`|(memory)) \\|")

// ReadABITable reads the rows "| `name` | `(…) -> (…)` | …" (or "memory")
// of the "### Exports" table under the ABI.md section whose heading is
// section (such as "## The lean reactor").
func ReadABITable(path, section string) ([]string, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	_, s, _ := strings.Cut(string(b), "\n"+section+"\n")
	s, _, _ = strings.Cut(s, "\n## ")
	_, s, _ = strings.Cut(s, "### Exports")
	s, _, _ = strings.Cut(s, "\n### ")
	var out []string
	for _, m := range row.FindAllStringSubmatch(s, -1) {
		out = append(out, m[1]+" "+m[2]+m[3])
	}
	slices.Sort(out)
	return out, nil
}
