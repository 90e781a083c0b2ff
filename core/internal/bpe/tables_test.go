package bpe

import (
	"github.com/tokenfit/tokenfit/core/internal/tables"
	"github.com/tokenfit/tokenfit/internal/tkptest"
)

// The tests read the tables core/tables compiles in (tables.Embedded); it
// imports this package, so they cannot import it.
func init() { tables.Compile(tkptest.Table) }
