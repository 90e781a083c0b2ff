package engine_test

// Every test of the package, the internal ones too, runs with the tables
// compiled in.
import _ "github.com/tokenfit/tokenfit/core/tables"
