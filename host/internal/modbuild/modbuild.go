// Package modbuild builds tokenfit's WebAssembly modules from source with
// the Go toolchain, for the tests: they run the tree's own module, and at a
// release host/embed's test holds the committed one (host/embed/tokenfit.wasm)
// to a fresh build. See RATIONALE.md, "Why are the modules committed, and
// refreshed only by a release?".
//
// A built module is kept in a cache directory under a key made of the Go
// version, the build flags and the content of every source file the module
// is built from, so a stale module is never used and a fresh one costs one
// `go list` (about 0.2 s) once it exists.
package modbuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/tokenfit/tokenfit/internal/postlink"
)

// postlinkPackage is the import path of package postlink, whose sources
// are part of every module's cache key.
const postlinkPackage = "github.com/tokenfit/tokenfit/internal/postlink"

// Target is one of the modules.
type Target struct {
	Name    string // file name in the build directory
	GOOS    string
	Package string   // import path of the adapter
	Flags   []string // go build flags besides the reproducible ones
	// Plain leaves a module that Apply would pre-initialise as the linker
	// wrote it but for postlink.Strip and MergeData (postlink -plain): its
	// runtime then starts in _initialize and reads its environment there
	// (GODEBUG, for a test that watches the collector).
	Plain bool
}

// CoreNoInline compiles package core and its request side
// (core/internal/chat) without inlining, in every module that has them:
// core's JSON API, shapes and chat templates are called once a request,
// and inlining their small helpers (slices.Contains, strings.Builder's
// methods, …) at hundreds of places cost 23 KB of the default module's
// gzip, with no measurable change in a call's time; the counting packages
// under core keep theirs (RATIONALE.md, "Why is package core compiled
// without inlining?"). Go takes one -gcflags per package pattern.
var CoreNoInline = []string{
	"-gcflags=github.com/tokenfit/tokenfit/core=-l",
	"-gcflags=github.com/tokenfit/tokenfit/core/internal/chat=-l",
}

// Profile is the CPU profile the wasip1 modules are compiled with, a path
// from the repository's root (RATIONALE.md, "Why are the wasip1 modules
// built with a profile?"); Build makes it absolute.
const Profile = "-pgo=wasm/wasip1/default.pgo"

// The modules, as the Makefile builds them (TestMakefile holds the
// Makefile's wasm target to these and to Reproducible). Each is a main
// package whose imports make it what it is (wasm/wasip1/doc.go).
var (
	WASIP1 = Target{Name: "tokenfit.wasm", GOOS: "wasip1", Package: "github.com/tokenfit/tokenfit/wasm/wasip1",
		Flags: append([]string{"-buildmode=c-shared", Profile}, CoreNoInline...)}
	// NoHF is the full reactor without the tokenizer.json loader: what the
	// npm package starts by default (RATIONALE.md, "Why does init() start
	// without the tokenizer.json loader?").
	NoHF = Target{Name: "tokenfit-nohf.wasm", GOOS: "wasip1", Package: "github.com/tokenfit/tokenfit/wasm/wasip1/nohf",
		Flags: append([]string{"-buildmode=c-shared", Profile}, CoreNoInline...)}
	// Lite is the lean wasip1 reactor: counting only.
	Lite = Target{Name: "tokenfit-lite.wasm", GOOS: "wasip1", Package: "github.com/tokenfit/tokenfit/wasm/wasip1/lite",
		Flags: []string{"-buildmode=c-shared", Profile}}
	JS = Target{Name: "tokenfit-js.wasm", GOOS: "js", Package: "github.com/tokenfit/tokenfit/wasm/js",
		Flags: CoreNoInline}
)

// Reproducible are the flags that make a build byte-for-byte repeatable,
// and -checklinkname=0, without which Go's linker refuses the wasip1
// adapter's references to the runtime's random state
// (wasm/internal/reactor/reseed.go).
var Reproducible = []string{"-trimpath", "-ldflags=-s -w -buildid= -checklinkname=0", "-buildvcs=false"}

// ErrNoToolchain reports that the go command is not on PATH.
var ErrNoToolchain = errors.New("modbuild: the go command is not on PATH")

// Build returns the path of an up-to-date build of t in dir (created if
// needed; empty means DefaultDir). The go command runs in the current
// directory, which must be inside the tokenfit module or a module that
// requires it.
func Build(ctx context.Context, t Target, dir string) (string, error) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		return "", ErrNoToolchain
	}
	if dir == "" {
		if dir, err = DefaultDir(); err != nil {
			return "", err
		}
	}
	root, err := moduleRoot(ctx, goCmd)
	if err != nil {
		return "", err
	}
	flags := make([]string, len(t.Flags))
	for i, f := range t.Flags {
		if p, ok := strings.CutPrefix(f, "-pgo="); ok {
			f = "-pgo=" + filepath.Join(root, p)
		}
		flags[i] = f
	}
	key, err := sourceKey(ctx, goCmd, t, flags)
	if err != nil {
		return "", err
	}
	out := filepath.Join(dir, strings.TrimSuffix(t.Name, ".wasm")+"-"+key[:16]+".wasm")
	if _, err := os.Stat(out); err == nil {
		return out, nil
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", err
	}
	tmp, err := os.CreateTemp(dir, ".build-*")
	if err != nil {
		return "", err
	}
	tmp.Close()
	defer os.Remove(tmp.Name())
	args := append([]string{"build", "-o", tmp.Name()}, Reproducible...)
	args = append(append(args, flags...), t.Package)
	if err := run(ctx, goCmd, t.GOOS, nil, args...); err != nil {
		return "", err
	}
	if err := postLink(ctx, tmp.Name(), t.Plain); err != nil {
		return "", err
	}
	return out, os.Rename(tmp.Name(), out)
}

// postLink runs the step make wasm runs after go build (package postlink),
// or postlink -plain's.
func postLink(ctx context.Context, path string, plain bool) error {
	b, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if plain {
		if b, err = postlink.Strip(b); err == nil {
			b, err = postlink.MergeData(b, postlink.MaxGap)
		}
	} else {
		b, err = postlink.Apply(ctx, b)
	}
	if err != nil {
		return fmt.Errorf("modbuild: %w", err)
	}
	return os.WriteFile(path, b, 0o644)
}

// DefaultDir is tokenfit/modules under the user's cache directory, or under
// the temporary directory when there is none.
func DefaultDir() (string, error) {
	base, err := os.UserCacheDir()
	if err != nil {
		base = os.TempDir()
	}
	return filepath.Join(base, "tokenfit", "modules"), nil
}

// moduleRoot is the directory of the tokenfit module, which the profile's
// path starts from.
func moduleRoot(ctx context.Context, goCmd string) (string, error) {
	var out bytes.Buffer
	if err := run(ctx, goCmd, "wasip1", &out, "list", "-m", "-f", "{{.Dir}}", "github.com/tokenfit/tokenfit"); err != nil {
		return "", err
	}
	return strings.TrimSpace(out.String()), nil
}

// sourceKey hashes the Go version, the flags and every file of every
// package the module is built from or post-linked by, outside the standard
// library, with the profile go build optimises it with (flags has its
// absolute path).
func sourceKey(ctx context.Context, goCmd string, t Target, flags []string) (string, error) {
	var listing bytes.Buffer
	args := []string{"list", "-deps", "-json=ImportPath,Dir,GoFiles,EmbedFiles,Standard"}
	if err := run(ctx, goCmd, t.GOOS, &listing, append(args, t.Package, postlinkPackage)...); err != nil {
		return "", err
	}
	var version bytes.Buffer
	if err := run(ctx, goCmd, t.GOOS, &version, "env", "GOVERSION"); err != nil {
		return "", err
	}
	h := sha256.New()
	fmt.Fprintf(h, "%s\n%q\n%q\n%s\n", version.Bytes(), Reproducible, t.Flags, t.Package)
	if t.Plain {
		fmt.Fprintf(h, "plain\n")
	}
	d := json.NewDecoder(&listing)
	for {
		var p struct {
			ImportPath, Dir     string
			GoFiles, EmbedFiles []string
			Standard            bool
		}
		if err := d.Decode(&p); err == io.EOF {
			break
		} else if err != nil {
			return "", fmt.Errorf("modbuild: go list: %w", err)
		}
		if p.Standard {
			continue
		}
		for _, f := range append(p.GoFiles, p.EmbedFiles...) {
			b, err := os.ReadFile(filepath.Join(p.Dir, f))
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "%s %d\n", f, len(b))
			h.Write(b)
		}
	}
	for _, f := range flags {
		if p, ok := strings.CutPrefix(f, "-pgo="); ok {
			b, err := os.ReadFile(p)
			if err != nil {
				return "", err
			}
			fmt.Fprintf(h, "profile %d\n", len(b))
			h.Write(b)
		}
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

func run(ctx context.Context, goCmd, goos string, stdout io.Writer, args ...string) error {
	cmd := exec.CommandContext(ctx, goCmd, args...)
	cmd.Env = append(os.Environ(), "GOOS="+goos, "GOARCH=wasm", "CGO_ENABLED=0")
	var stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = stdout, &stderr
	if err := cmd.Run(); err != nil {
		return fmt.Errorf("modbuild: go %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return nil
}
