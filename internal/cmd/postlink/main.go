// Command postlink rewrites WebAssembly modules built by the Go toolchain
// in place with package postlink's Apply (make wasm runs it after each go
// build; host/internal/modbuild calls the package itself, so both give the
// same bytes). With -preinit it pre-initialises them instead (Preinit), for
// measuring that (make bench-start); the modules tokenfit ships are not.
//
//	go run ./internal/cmd/postlink build/wasm/tokenfit.wasm …
//	go run ./internal/cmd/postlink -preinit build/bench/tokenfit-preinit.wasm
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/tokenfit/tokenfit/internal/postlink"
)

func main() {
	plain := flag.Bool("plain", false, "only merge data segments (postlink.MergeData): no pre-initialisation")
	flag.Parse()
	if flag.NArg() < 1 {
		fmt.Fprintln(os.Stderr, "usage: postlink [-plain] MODULE.wasm …")
		os.Exit(2)
	}
	for _, f := range flag.Args() {
		if err := rewrite(f, *plain); err != nil {
			fmt.Fprintf(os.Stderr, "postlink: %s: %v\n", f, err)
			os.Exit(1)
		}
	}
}

func rewrite(path string, plain bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	var out []byte
	if plain {
		out, err = postlink.MergeData(b, postlink.MaxGap)
	} else {
		out, err = postlink.Apply(context.Background(), b)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
