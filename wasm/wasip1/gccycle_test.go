//go:build wasip1

package main

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"runtime"
	"strings"
	"testing"
)

// Every export, in every variant's files, defers endGCCycle as its first
// statement, so that it runs last, after rescue's recover: a new export
// that forgot it could leave a collection cycle open for the calls after
// it.
func TestExportsEndGCCycle(t *testing.T) {
	entries, err := os.ReadDir(".")
	if err != nil {
		t.Fatal(err)
	}
	fset := token.NewFileSet()
	exports := 0
	for _, e := range entries {
		name := e.Name()
		if !strings.HasSuffix(name, ".go") || strings.HasSuffix(name, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, name, nil, parser.ParseComments)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range f.Decls {
			fn, ok := d.(*ast.FuncDecl)
			if !ok || fn.Doc == nil || !exported(fn.Doc) {
				continue
			}
			exports++
			if !defersEndGCCycle(fn.Body) {
				t.Errorf("%s: export %s does not start with `defer endGCCycle()`", fset.Position(fn.Pos()), fn.Name.Name)
			}
		}
	}
	// Both variants' files are read whatever this binary's tags: the full
	// one's exports and the lean one's together are more than 20.
	if exports < 20 {
		t.Errorf("found %d go:wasmexport functions; is the test reading the adapter's files?", exports)
	}
}

func exported(doc *ast.CommentGroup) bool {
	for _, c := range doc.List {
		if strings.HasPrefix(c.Text, "//go:wasmexport ") {
			return true
		}
	}
	return false
}

func defersEndGCCycle(body *ast.BlockStmt) bool {
	if body == nil || len(body.List) == 0 {
		return false
	}
	d, ok := body.List[0].(*ast.DeferStmt)
	if !ok || len(d.Call.Args) != 0 {
		return false
	}
	id, ok := d.Call.Fun.(*ast.Ident)
	return ok && id.Name == "endGCCycle"
}

// sink keeps the test's allocations from being optimised away.
var sink []byte

// A cycle started by an allocation is still marking when the goroutine that
// started it has not waited since (as an export's has not); endGCCycle
// ends it, and costs nothing when no cycle is open.
func TestEndGCCycle(t *testing.T) {
	runtime.GC()
	endGCCycle() // none open: returns at once
	if writeBarrier.enabled {
		t.Fatal("the write barrier is on right after runtime.GC")
	}
	var stats runtime.MemStats
	runtime.ReadMemStats(&stats)
	before := stats.NumGC
	opened := false
	for i := 0; i < 1<<14 && !opened; i++ {
		sink = make([]byte, 64<<10)
		opened = writeBarrier.enabled
	}
	if !opened {
		t.Skip("no cycle was seen under way after 1 GiB of allocations (assists finished each one)")
	}
	abiVersion() // an export that allocates nothing: endGCCycle alone ends the cycle
	if writeBarrier.enabled {
		t.Fatal("a collection cycle is still under way after an export returned")
	}
	runtime.ReadMemStats(&stats)
	if stats.NumGC <= before {
		t.Errorf("%d cycles completed before, %d after: the cycle the allocations started did not end", before, stats.NumGC)
	}
}
