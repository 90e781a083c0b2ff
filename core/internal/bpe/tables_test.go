package bpe

// The tests read the tables compiled in (tables.Embedded).
import _ "github.com/tokenfit/tokenfit/core/tables"
