// Package tables compiles tokenfit's four vocabulary tables (o200k_base,
// cl100k_base, p50k_base, r50k_base; about 3.6 MB) into a program that
// imports it, and outside WebAssembly o200k_base's prebuilt index too
// (3.2 MB), so that a fresh process counts without building it:
//
//	import _ "github.com/tokenfit/tokenfit/core/tables"
//
// core.GetEncoding (engine.Get) then finds every encoding. A program that
// does not import it links none of them and loads the tables it uses at
// run time (core.LoadEncoding): the WebAssembly modules do, as their hosts
// give each instance the tables it needs (RATIONALE.md, "Why do the
// modules carry no vocabulary tables?"). Core imports it in every native
// program (core/native.go); no WebAssembly module does.
//
// The files are the tables in core/internal/tables' format, which its
// go generate writes here from github.com/tiktoken-go/tokenizer's
// vocabularies (gen_tables.go), with the index (gen_sums.go).
package tables

import (
	_ "embed"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

var (
	//go:embed o200k_base.tkt
	o200k []byte
	//go:embed cl100k_base.tkt
	cl100k []byte
	//go:embed p50k_base.tkt
	p50k []byte
	//go:embed r50k_base.tkt
	r50k []byte
)

func init() {
	tables.Compile(table)
	engine.UseCompiledTables()
}

func table(name string) []byte {
	switch name {
	case "o200k_base":
		return o200k
	case "cl100k_base":
		return cl100k
	case "p50k_base":
		return p50k
	case "r50k_base":
		return r50k
	}
	return nil
}
