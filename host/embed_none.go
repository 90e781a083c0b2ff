//go:build !tokenfit_embedwasm

package host

// Built without -tags tokenfit_embedwasm: no module inside; Config.WithModule
// must give one.
var embeddedModule []byte
