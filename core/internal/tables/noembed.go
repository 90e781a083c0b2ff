//go:build tokenfit_noembed

package tables

// Built with -tags tokenfit_noembed: no table is compiled in, and every
// encoding must be loaded at run time (core.LoadEncoding).
func embedded(string) []byte { return nil }
