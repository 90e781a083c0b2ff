package host

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

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

// writable makes dir if it is missing and reports why a file cannot be
// written in it, if one cannot: the default directory is probed before
// wazero uses it, since wazero fails a compilation whose entry it cannot
// write, and the module would then be compiled twice.
func writable(dir string) error {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return err
	}
	f, err := os.CreateTemp(dir, ".probe-")
	if err != nil {
		return err
	}
	f.Close()
	return os.Remove(f.Name())
}

// pruneCache keeps at most keep entries in each of wazero's directories
// under dir (one per wazero version and platform), the most recently
// written, and removes the temporary files of writes that died more than an
// hour ago. Entries are written whole to a temporary file and renamed into
// place, so removing one that another process has just read or written
// costs that process nothing but a compilation next time. Errors are
// ignored: a file another process removed first is gone either way.
func pruneCache(dir string, keep int) {
	versions, _ := filepath.Glob(filepath.Join(dir, "wazero-*"))
	for _, v := range versions {
		des, err := os.ReadDir(v)
		if err != nil {
			continue
		}
		type entry struct {
			path string
			mod  time.Time
		}
		var entries []entry
		for _, de := range des {
			info, err := de.Info()
			if err != nil || !info.Mode().IsRegular() {
				continue
			}
			p := filepath.Join(v, de.Name())
			if strings.HasSuffix(de.Name(), ".tmp") {
				if time.Since(info.ModTime()) > time.Hour {
					os.Remove(p)
				}
				continue
			}
			entries = append(entries, entry{p, info.ModTime()})
		}
		slices.SortFunc(entries, func(a, b entry) int { return b.mod.Compare(a.mod) })
		for _, e := range entries[min(keep, len(entries)):] {
			os.Remove(e.path)
		}
	}
}
