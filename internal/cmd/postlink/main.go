// Command postlink rewrites WebAssembly modules built by the Go toolchain
// in place with package postlink's Apply: the full wasip1 reactor
// pre-initialised, the other modules' data merged, and in every module the
// parts of Go's function table that only a traceback's details read
// dropped (make wasm runs it after each go build; host/internal/modbuild
// calls the package itself, so both give the same bytes). With -plain it
// drops those tables and merges data segments but does not pre-initialise:
// the module make bench-start measures beside the shipped one.
//
//	go run ./internal/cmd/postlink build/wasm/tokenfit.wasm …
//	go run ./internal/cmd/postlink -plain build/bench/tokenfit-plain.wasm
package main

import (
	"context"
	"flag"
	"fmt"
	"os"

	"github.com/tokenfit/tokenfit/internal/postlink"
)

func main() {
	plain := flag.Bool("plain", false, "no pre-initialisation: only postlink.Strip and postlink.MergeData")
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
		if out, err = postlink.Strip(b); err == nil {
			out, err = postlink.MergeData(out, postlink.MaxGap)
		}
	} else {
		out, err = postlink.Apply(context.Background(), b)
	}
	if err != nil {
		return err
	}
	return os.WriteFile(path, out, 0o644)
}
