package host_test

import (
	"bytes"
	"context"
	"io/fs"
	"log/slog"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/host"
)

// TestHost_DamagedCache: a compilation cache entry that wazero cannot load
// (junk, empty, truncated, a directory) does not break New: the module is
// compiled again, the entry replaced (the next New loads it without a
// word), and the log names the file.
func TestHost_DamagedCache(t *testing.T) {
	if testing.Short() {
		// Each case compiles the module cold: minutes under -race.
		t.Skip("compiles the module six times (make test-go runs it)")
	}
	ctx := context.Background()
	wasm := module(t)
	good := t.TempDir()
	h, err := host.New(ctx, host.NewConfig().WithModule(wasm).WithEncodings("r50k_base").WithCompilationCacheDir(good))
	if err != nil {
		t.Fatal(err)
	}
	h.Close(ctx)
	rel := ""
	filepath.WalkDir(good, func(p string, d fs.DirEntry, err error) error {
		if err == nil && d.Type().IsRegular() {
			rel, _ = filepath.Rel(good, p)
		}
		return err
	})
	entry, err := os.ReadFile(filepath.Join(good, rel))
	if err != nil {
		t.Fatal(err)
	}
	damages := []struct {
		name   string
		damage func(path string) error
	}{
		{"junk", func(p string) error { return os.WriteFile(p, bytes.Repeat([]byte("junk"), 1000), 0o644) }},
		{"empty", func(p string) error { return os.WriteFile(p, nil, 0o644) }},
		{"truncated", func(p string) error { return os.WriteFile(p, entry[:len(entry)/2], 0o644) }},
		{"flipped", func(p string) error {
			b := bytes.Clone(entry)
			b[len(b)/2] ^= 1
			return os.WriteFile(p, b, 0o644)
		}},
		{"directory", func(p string) error { return os.Mkdir(p, 0o755) }},
	}
	for _, tc := range damages {
		t.Run(tc.name, func(t *testing.T) {
			dir := t.TempDir()
			path := filepath.Join(dir, rel)
			os.MkdirAll(filepath.Dir(path), 0o755)
			if err := tc.damage(path); err != nil {
				t.Fatal(err)
			}
			var log bytes.Buffer
			cfg := host.NewConfig().WithModule(wasm).WithEncodings("r50k_base").WithCompilationCacheDir(dir).
				WithLogger(slog.New(slog.NewTextHandler(&log, nil)))
			t0 := time.Now()
			h, err := host.New(ctx, cfg)
			if err != nil {
				t.Fatalf("New over a %s cache entry: %v", tc.name, err)
			}
			t.Logf("New over a %s entry: %v", tc.name, time.Since(t0).Round(time.Millisecond))
			if n, err := h.Count(ctx, "r50k_base", "Hello world"); err != nil || n != 2 {
				t.Errorf("Count = %d, %v", n, err)
			}
			h.Close(ctx)
			if !strings.Contains(log.String(), path) || !strings.Contains(log.String(), "replaced") {
				t.Errorf("the log does not name the replaced entry %s:\n%s", path, log.String())
			}
			log.Reset()
			t0 = time.Now()
			h, err = host.New(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			t.Logf("then New from the replaced entry: %v", time.Since(t0).Round(time.Millisecond))
			h.Close(ctx)
			if log.Len() != 0 {
				t.Errorf("the replaced entry did not load: %s", log.String())
			}
		})
	}
}
