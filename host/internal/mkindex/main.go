// Command mkindex writes the prebuilt index of every encoding (<name>.tkx,
// see core/engine.Index) into a directory, beside the tables: the npm
// package ships them so that Node loads an encoding by copying its look-up
// structures in (load_indexed) instead of building them in a cold
// WebAssembly instance. make js runs it.
//
//	go run ./host/internal/mkindex DIR
package main

import (
	"fmt"
	"os"
	"path/filepath"

	"github.com/tokenfit/tokenfit/core"
)

func main() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: mkindex DIR")
		os.Exit(2)
	}
	for _, name := range core.EncodingNames() {
		idx, err := core.EncodingIndex(name)
		if err == nil {
			err = os.WriteFile(filepath.Join(os.Args[1], name+".tkx"), idx, 0o644)
		}
		if err != nil {
			fmt.Fprintln(os.Stderr, "mkindex:", err)
			os.Exit(1)
		}
	}
}
