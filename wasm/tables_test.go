package wasm_test

// The tests give the modules the tables compiled in (core.EncodingTable).
import _ "github.com/tokenfit/tokenfit/core/tables"
