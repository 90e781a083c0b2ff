package tables

// What a program compiled in: nothing, unless it imports package
// core/tables (the four tables, and natively o200k_base's index) or
// core/registry (the models catalog, a table too), whose initialisation
// hands them here. The data, and its package embed (which brings io/fs,
// time and internal/godebug with their initialisation), stay in those
// packages, so a program that does not import them, as the WebAssembly
// modules do not, links none of it and loads what it needs at run time.
var compiled struct {
	table, index func(name string) []byte
	catalog      []byte
}

// Compile makes Embedded answer with table. Package core/tables calls it
// in its initialisation, before any Embedded.
func Compile(table func(name string) []byte) { compiled.table = table }

// CompileIndex makes EmbeddedIndex answer with index. Package core/tables
// calls it in its initialisation outside WebAssembly.
func CompileIndex(index func(name string) []byte) { compiled.index = index }

// CompileCatalog makes Catalog answer b. Package core/registry calls it in
// its initialisation, before any Catalog.
func CompileCatalog(b []byte) { compiled.catalog = b }

// Embedded returns the table of an encoding compiled into this program, or
// nil when it has none.
func Embedded(name string) []byte {
	if compiled.table == nil {
		return nil
	}
	return compiled.table(name)
}

// EmbeddedIndex returns the prebuilt index (core/internal/bpe's format) of
// a table compiled into this program, or nil: a native program that
// imports package core/tables has o200k_base's.
func EmbeddedIndex(name string) []byte {
	if compiled.index == nil {
		return nil
	}
	return compiled.index(name)
}

// Catalog returns the models catalog (core/registry/catalog.json) compiled
// into this program, or nil.
func Catalog() []byte { return compiled.catalog }
