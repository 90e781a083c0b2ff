//go:build wasip1 && !tokenfit_lite && !tokenfit_nohf

package main

// hasLoader reports whether the module links core's tokenizer.json loader
// (loader_none.go: -tags tokenfit_nohf leaves it out).
const hasLoader = true
