// A module of its own: wasmtime's Go bindings bring a 200 MB native library
// (and cgo), which the main module's users should not download. Run by
// make test-wasmtime (part of make test).
module github.com/tokenfit/tokenfit/host/wasmtimetest

go 1.26

require (
	github.com/bytecodealliance/wasmtime-go/v39 v39.0.1
	github.com/tokenfit/tokenfit v0.0.0
)

replace github.com/tokenfit/tokenfit => ../..
