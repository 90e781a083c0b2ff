//go:build wasip1 && !tokenfit_lite && tokenfit_nohf

package main

// hasLoader is false: no tokenizer can be loaded into this module, and the
// adapter's code that counts with one is compiled out under it, since a
// *core.HFTokenizer made into an interface value links the loader's whole
// engine (38 KB of gzip) through its methods.
const hasLoader = false
