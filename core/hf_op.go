//go:build !tokenfit_lite && !tokenfit_nohf

package core

func init() {
	// api.go's init, which makes the map, runs first (files initialise in
	// name order).
	operations["loadTokenizer"] = decode(func(a *API, r LoadTokenizerRequest) (any, error) { return a.loadTokenizer(r) })
}
