package wasm_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestExportsEndGCCycle: every export of the wasip1 modules, in every
// package they are made of, defers the reactor's EndGCCycle as its first
// statement, so that it runs last, after the rescue's recover: a new export
// that forgot it could leave a collection cycle open for the calls after it
// (RATIONALE.md, "Why does every export of the wasip1 adapter end the
// collector's cycle?").
func TestExportsEndGCCycle(t *testing.T) {
	fset := token.NewFileSet()
	exports := 0
	for _, dir := range []string{"internal/reactor", "internal/full", "internal/lean", "wasip1", "wasip1/nohf", "wasip1/lite"} {
		entries, err := os.ReadDir(dir)
		if err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			name := filepath.Join(dir, e.Name())
			if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
				continue
			}
			f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
			if err != nil {
				t.Fatal(err)
			}
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Doc == nil || !wasmExport(fn.Doc) {
					continue
				}
				exports++
				if !defersEndGCCycle(fn.Body) {
					t.Errorf("%s: export %s does not start with `defer EndGCCycle()`", fset.Position(fn.Pos()), fn.Name.Name)
				}
			}
		}
	}
	// The full modules' exports and the lean one's together are more than 20.
	if exports < 20 {
		t.Errorf("found %d go:wasmexport functions; is the test reading the adapters' files?", exports)
	}
}

func wasmExport(doc *ast.CommentGroup) bool {
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//go:wasmexport ") {
			return true
		}
	}
	return false
}

// defersEndGCCycle reports whether body starts with `defer EndGCCycle()`
// (in package reactor) or `defer reactor.EndGCCycle()`.
func defersEndGCCycle(body *ast.BlockStmt) bool {
	if body == nil || len(body.List) == 0 {
		return false
	}
	d, ok := body.List[0].(*ast.DeferStmt)
	if !ok || len(d.Call.Args) != 0 {
		return false
	}
	switch f := d.Call.Fun.(type) {
	case *ast.Ident:
		return f.Name == "EndGCCycle"
	case *ast.SelectorExpr:
		x, ok := f.X.(*ast.Ident)
		return ok && x.Name == "reactor" && f.Sel.Name == "EndGCCycle"
	}
	return false
}
