package host_test

import (
	"bytes"
	"context"
	"fmt"
	"io/fs"
	"log/slog"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
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

// TestHost_DefaultCache: host.NewConfig() keeps compiled code in the user's
// cache directory. A first process compiles into it; a second finds its
// entry there (it writes nothing: the entry is the same file, untouched); a
// damaged entry is compiled again and replaced, the count right; the
// directory keeps DefaultCacheEntries entries; WithCompilationCacheDir("")
// writes nothing; a cache directory that cannot be made is no error.
func TestHost_DefaultCache(t *testing.T) {
	if testing.Short() {
		t.Skip("compiles the module cold twice (make test-go runs it)")
	}
	home := t.TempDir()
	child := func(optOut bool) string {
		t.Helper()
		t0 := time.Now()
		out := defaultCacheChild(t, home, optOut)
		t.Logf("a process's New and first count: %v", time.Since(t0).Round(time.Millisecond))
		return out
	}
	dir := filepath.Join(home, "tokenfit", "compiled")
	entries := func() []string {
		found, _ := filepath.Glob(filepath.Join(dir, "wazero-*", "*"))
		return found
	}

	child(true)
	if found := entries(); len(found) != 0 {
		t.Fatalf("WithCompilationCacheDir(\"\") wrote %v", found)
	}
	child(false)
	found := entries()
	if len(found) != 1 {
		t.Fatalf("the first process left %d entries in %s, want 1: %v", len(found), dir, found)
	}
	entry := found[0]
	first, err := os.Stat(entry)
	if err != nil {
		t.Fatal(err)
	}
	if out := child(false); strings.Contains(out, "level=WARN") {
		t.Errorf("the second process warned:\n%s", out)
	}
	second, err := os.Stat(entry)
	if err != nil || !os.SameFile(first, second) || !second.ModTime().Equal(first.ModTime()) || len(entries()) != 1 {
		t.Fatalf("the second process did not use the first one's entry (%v)", err)
	}

	// A damaged entry: compiled again, replaced, the count right.
	if err := os.WriteFile(entry, []byte("junk"), 0o600); err != nil {
		t.Fatal(err)
	}
	if out := child(false); !strings.Contains(out, "replaced") {
		t.Errorf("the damaged entry's replacement was not logged:\n%s", out)
	}
	if b, err := os.ReadFile(entry); err != nil || len(b) < 1<<20 {
		t.Fatalf("the damaged entry was not replaced: %d bytes, %v", len(b), err)
	}

	// Older entries beyond DefaultCacheEntries go; the one in use stays.
	old := time.Now().Add(-48 * time.Hour)
	for i := range host.DefaultCacheEntries + 2 {
		p := filepath.Join(filepath.Dir(entry), fmt.Sprintf("%064x", i))
		if err := os.WriteFile(p, []byte("old"), 0o600); err != nil {
			t.Fatal(err)
		}
		os.Chtimes(p, old, old.Add(time.Duration(i)*time.Minute))
	}
	tmp := filepath.Join(filepath.Dir(entry), "left.123.tmp")
	os.WriteFile(tmp, []byte("a write that died"), 0o600)
	os.Chtimes(tmp, old, old)
	child(false)
	if found := entries(); len(found) != host.DefaultCacheEntries || !slices.Contains(found, entry) {
		t.Errorf("after pruning: %v, want %d entries with %s", found, host.DefaultCacheEntries, entry)
	}

	// No cache directory to be had (its place is a file): compiled in
	// memory, no error, no warning.
	t.Setenv("XDG_CACHE_HOME", filepath.Join(entry, "not-a-directory"))
	var log bytes.Buffer
	ctx := context.Background()
	h, err := host.New(ctx, host.NewConfig().WithEncodings("r50k_base").WithLogger(slog.New(slog.NewTextHandler(&log, nil))))
	if err != nil {
		t.Fatalf("New without a cache directory: %v", err)
	}
	defer h.Close(ctx)
	if n, err := h.Count(ctx, "r50k_base", "Hello world"); err != nil || n != 2 || log.Len() != 0 {
		t.Errorf("Count = %d, %v; log %q", n, err, log.String())
	}
}

// defaultCacheChild runs TestHost_DefaultCacheChild in a process of its own
// whose user cache directory is under home, and returns what it printed.
func defaultCacheChild(tb testing.TB, home string, optOut bool) string {
	tb.Helper()
	cmd := exec.Command(os.Args[0], "-test.run=^TestHost_DefaultCacheChild$", "-test.v")
	cmd.Env = append(os.Environ(), "TOKENFIT_TEST_DEFAULT_CACHE=1", "XDG_CACHE_HOME="+home, "HOME="+home)
	if optOut {
		cmd.Env = append(cmd.Env, "TOKENFIT_TEST_OPT_OUT=1")
	}
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "counted 2") {
		tb.Fatalf("the child process: %v\n%s", err, out)
	}
	return string(out)
}

// TestHost_DefaultCacheChild is TestHost_DefaultCache's child process (and
// BenchmarkStart's): host.New(ctx, host.NewConfig()) with o200k_base, and a
// first count.
func TestHost_DefaultCacheChild(t *testing.T) {
	if os.Getenv("TOKENFIT_TEST_DEFAULT_CACHE") == "" {
		t.Skip("run by TestHost_DefaultCache")
	}
	cfg := host.NewConfig().WithEncodings("o200k_base").WithLogger(slog.New(slog.NewTextHandler(os.Stderr, nil)))
	if os.Getenv("TOKENFIT_TEST_OPT_OUT") != "" {
		cfg = cfg.WithCompilationCacheDir("")
	}
	ctx := context.Background()
	h, err := host.New(ctx, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	n, err := h.Count(ctx, "o200k_base", "Hello world")
	if err != nil {
		t.Fatal(err)
	}
	fmt.Printf("counted %d\n", n)
}
