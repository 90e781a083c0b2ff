package host

import "github.com/tokenfit/tokenfit/host/embed"

// embeddedModule is the module a Config without WithModule runs: the one
// package embed keeps in the repository, so that `go get` brings it.
var embeddedModule = embed.Module
