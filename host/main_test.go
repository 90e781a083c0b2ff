package host_test

import (
	"context"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/host/internal/modbuild"
)

// The tests build the module from the working tree (cached by content, see
// modbuild), so they never run a stale one. TOKENFIT_WASM names a module to
// test instead, such as the Makefile's build/wasm/tokenfit.wasm.

// built is a module the tests build once from the working tree, or read
// from the file the variable env names when it is set.
type built struct {
	target modbuild.Target
	env    string
	once   sync.Once
	bytes  []byte
	err    error
}

var (
	fullModule = &built{target: modbuild.WASIP1, env: "TOKENFIT_WASM"}
	liteModule = &built{target: modbuild.Lite}
	noHFModule = &built{target: modbuild.NoHF}
)

// load builds or reads the module once.
func (m *built) load() ([]byte, error) {
	m.once.Do(func() {
		path := ""
		if m.env != "" {
			path = os.Getenv(m.env)
		}
		if path == "" {
			path, m.err = modbuild.Build(context.Background(), m.target, "")
		}
		if m.err == nil {
			m.bytes, m.err = os.ReadFile(path)
		}
	})
	return m.bytes, m.err
}

// get returns the module's bytes, or skips the test when it cannot be
// built here (no go command).
func (m *built) get(t testing.TB) []byte {
	t.Helper()
	b, err := m.load()
	if err == modbuild.ErrNoToolchain {
		t.Skip("cannot build the wasm module here:", err)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// module returns the bytes of the wasip1 module.
func module(t testing.TB) []byte { return fullModule.get(t) }

// config is the Config of the tests: their module, and a compilation cache
// on disk beside the built modules, so that only the first run after a
// change compiles (a second or more; later runs load the compiled code).
func config(t testing.TB) host.Config {
	t.Helper()
	wasm := module(t)
	dir, err := modbuild.DefaultDir()
	if err != nil {
		t.Fatal(err)
	}
	return host.NewConfig().WithModule(wasm).WithCompilationCacheDir(filepath.Join(filepath.Dir(dir), "wazero"))
}

// testCache is the compilation cache of the tests that drive wazero
// themselves.
var testCache = sync.OnceValue(wazero.NewCompilationCache)

var (
	hostOnce sync.Once
	shared   *host.Host
	hostErr  error
)

// sharedHost returns one Host for the tests that do not need their own. It
// is never closed: the process ends with the tests.
func sharedHost(t testing.TB) *host.Host {
	t.Helper()
	cfg := config(t)
	hostOnce.Do(func() {
		shared, hostErr = host.New(context.Background(), cfg)
	})
	if hostErr != nil {
		t.Fatal(hostErr)
	}
	return shared
}

// newHost starts a Host from c, closed when the test ends.
func newHost(t testing.TB, c host.Config) *host.Host {
	t.Helper()
	h, err := host.New(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close(context.Background()) })
	return h
}

// instance checks out an instance of h, released when the test ends
// (before h closes).
func instance(t testing.TB, h *host.Host) *host.Instance {
	t.Helper()
	in, err := h.Instance(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(in.Release)
	return in
}
