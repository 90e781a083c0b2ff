// Command postlink rewrites WebAssembly modules built by the Go toolchain
// in place with package postlink's Apply (reactors pre-initialised, data
// segments merged; make wasm runs it after each
// go build; host/internal/modbuild calls the package itself, so both give
// the same bytes):
//
//	go run ./internal/cmd/postlink build/wasm/tokenfit.wasm …
package main

import (
	"fmt"
	"os"

	"github.com/tokenfit/tokenfit/internal/postlink"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: postlink MODULE.wasm …")
		os.Exit(2)
	}
	for _, f := range os.Args[1:] {
		if err := rewrite(f); err != nil {
			fmt.Fprintf(os.Stderr, "postlink: %s: %v\n", f, err)
			os.Exit(1)
		}
	}
}

func rewrite(path string) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	out, err := postlink.Apply(b)
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
