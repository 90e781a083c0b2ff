package tables

import "github.com/tokenfit/tokenfit/internal/tkptest"

// The tests read the tables core/tables compiles in; it imports this
// package, so they cannot import it.
func init() { Compile(tkptest.Table) }
