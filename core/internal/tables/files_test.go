package tables

import (
	"os"
	"path/filepath"
)

// The tests read the tables package core/tables compiles in (which imports
// this one, so the tests cannot import it): from its directory.
func init() {
	files := map[string][]byte{}
	for _, name := range Names {
		if b, err := os.ReadFile(filepath.Join("..", "..", "tables", name+".tkt")); err == nil {
			files[name] = b
		}
	}
	Compile(func(name string) []byte { return files[name] })
}
