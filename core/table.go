package core

import "github.com/tokenfit/tokenfit/core/internal/tables"

// EncodingTable returns the vocabulary table of an encoding as compiled into
// this binary (a .tkt file, the bytes LoadEncoding takes), or nil when the
// name is unknown or the build left the tables out (tag tokenfit_noembed).
// Hosts feed it to WebAssembly modules, which carry no tables. The bytes
// are shared: do not modify them.
func EncodingTable(name string) []byte { return tables.Embedded(name) }
