package tkptest

import (
	"os"
	"path/filepath"
	"sync"
)

// Table returns an encoding's table as package core/tables compiles it in
// (core/tables/<name>.tkt, read from the repository the tests run in), or
// nil: for the tests of the packages core/tables imports, which cannot
// import it, to hand to core/internal/tables.Compile.
func Table(name string) []byte {
	files.once.Do(func() {
		dir, _ := os.Getwd()
		for ; dir != filepath.Dir(dir); dir = filepath.Dir(dir) {
			if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
				break
			}
		}
		files.dir = filepath.Join(dir, "core", "tables")
	})
	files.Lock()
	defer files.Unlock()
	if b, ok := files.m[name]; ok {
		return b
	}
	b, err := os.ReadFile(filepath.Join(files.dir, name+".tkt"))
	if err != nil {
		b = nil
	}
	if files.m == nil {
		files.m = map[string][]byte{}
	}
	files.m[name] = b
	return b
}

var files struct {
	once sync.Once
	dir  string
	sync.Mutex
	m map[string][]byte
}
