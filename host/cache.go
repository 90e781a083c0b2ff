package host

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/tetratelabs/wazero"
)

// repairCache replaces the entry of wasm in the compilation cache dir, which
// wazero could not load (junk, empty, truncated, a directory): it compiles
// wasm into a fresh cache beside the entry and moves what that writes over
// it. It returns the entry's path ("" if compiling failed) and why the
// entry could not be replaced, if it could not. A module that does not
// compile is an error here too, the same one as without a cache.
func repairCache(ctx context.Context, rc wazero.RuntimeConfig, dir string, wasm []byte) (string, error) {
	tmp, err := os.MkdirTemp(dir, ".repair-")
	if err != nil {
		return "", err
	}
	defer os.RemoveAll(tmp)
	c, err := wazero.NewCompilationCacheWithDir(tmp)
	if err != nil {
		return "", err
	}
	defer c.Close(ctx)
	rt := wazero.NewRuntimeWithConfig(ctx, rc.WithCompilationCache(c))
	defer rt.Close(ctx)
	if _, err := rt.CompileModule(ctx, wasm); err != nil {
		return "", err
	}
	// The fresh cache holds one file: the entry, at the path wazero gives it.
	var rel string
	filepath.WalkDir(tmp, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ = filepath.Rel(tmp, p)
		}
		return err
	})
	if rel == "" {
		return "", errors.New("the fresh cache holds no entry")
	}
	entry := filepath.Join(dir, rel)
	if err := os.RemoveAll(entry); err != nil {
		return entry, err
	}
	if err := os.MkdirAll(filepath.Dir(entry), 0o755); err != nil {
		return entry, err
	}
	return entry, os.Rename(filepath.Join(tmp, rel), entry)
}
