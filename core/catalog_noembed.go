//go:build tokenfit_noembed

package core

// Built with -tags tokenfit_noembed: no catalog is compiled in; hosts load
// it with the loadCatalog operation.
func embeddedCatalog() []byte { return nil }
