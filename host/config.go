package host

import (
	"log/slog"
	"os"
	"path/filepath"
	"runtime"
	"slices"

	"github.com/tokenfit/tokenfit/core"
)

// Config says how a Host is built. It is immutable: every With method
// returns a changed copy, so a Config can be shared and reused. Errors in it
// surface from New.
//
// The zero Config is the default one, as NewConfig returns it.
type Config struct {
	module       []byte
	lean         bool   // module is the lean one
	cacheDir     string // when cacheDirSet; else DefaultCompilationCacheDir()
	cacheDirSet  bool
	maxInstances int      // 0: GOMAXPROCS
	encodings    []string // when encodingsSet; else every encoding
	encodingsSet bool
	maxMemory    uint64       // 0: DefaultMaxInstanceMemory
	logger       *slog.Logger // nil: slog.Default()
	stopOnDone   bool
}

// DefaultMaxInstanceMemory is the linear memory past which an instance is
// retired when it goes back to the pool. An instance starts at 4 MB (20 MB
// with all four tables) and counting ordinary texts leaves it there; one
// request of tens of megabytes grows it for good, since WebAssembly memory
// never shrinks.
const DefaultMaxInstanceMemory = 256 << 20

// NewConfig returns the defaults: the module package embed keeps, compiled
// code kept in the user's cache directory (DefaultCompilationCacheDir) and
// in memory for the process, at most GOMAXPROCS instances, and every
// encoding core knows.
func NewConfig() Config { return Config{} }

// instances is the maximum number of instances.
func (c Config) instances() int {
	if c.maxInstances > 0 {
		return c.maxInstances
	}
	return runtime.GOMAXPROCS(0)
}

// encodingNames lists the encodings every instance loads.
func (c Config) encodingNames() []string {
	if c.encodingsSet {
		return c.encodings
	}
	return core.EncodingNames()
}

// WithModule returns a copy that runs the module in wasm, the bytes of a
// build of wasm/wasip1 (make wasm writes build/wasm/tokenfit.wasm). New
// copies it (the Hosts that share its compilation keep the copy while one
// of them is open), so the caller may change or drop wasm afterwards.
// Defaults to the module package embed keeps (host/embed/tokenfit.wasm,
// the last release's build).
func (c Config) WithModule(wasm []byte) Config {
	c.module, c.lean = wasm, false
	return c
}

// WithLeanModule returns a copy that runs the lean module in wasm, the bytes
// of build/wasm/tokenfit-lite.wasm (make wasm): counting only, for hosts
// that only count. Count, the Host's and an Instance's, answers as with the
// full module; every other operation (Call, Do, CallAs and the typed
// methods) is an error wrapping ErrLeanModule. It is a third of the full
// module's size, so New compiles and loads it sooner (make bench-host,
// BenchmarkStart). Defaults to the full module (WithModule).
func (c Config) WithLeanModule(wasm []byte) Config {
	c.module, c.lean = wasm, true
	return c
}

// WithCompilationCacheDir returns a copy that keeps compiled code in dir, so
// that later processes skip compilation (loading compiled code costs a
// fraction of compiling it, most of it wazero decoding and validating the
// module; make bench-host prints both). Hosts WithCloseOnContextDone keep theirs in
// dir/stoppable (their code differs). An entry wazero cannot load is
// compiled again and replaced (see WithLogger); processes may share dir
// (an entry is written to a temporary file and renamed into place). dir ""
// keeps compiled code in memory only, shared by every Host of the process.
// Defaults to DefaultCompilationCacheDir().
func (c Config) WithCompilationCacheDir(dir string) Config {
	c.cacheDir, c.cacheDirSet = dir, true
	return c
}

// DefaultCompilationCacheDir is the directory a Config that names none keeps
// compiled code in: tokenfit/compiled in os.UserCacheDir ($XDG_CACHE_HOME
// or ~/.cache on Linux, ~/Library/Caches on macOS, %LocalAppData% on
// Windows), or "" (in memory) when there is no such directory. It holds
// at most DefaultCacheEntries compiled modules of each wazero version and
// kind of code (stoppable or not): a Host that uses it removes the least
// recently written beyond that, so the modules of older tokenfit versions
// do not pile up. When it cannot be created or written (a read-only home, a
// full disk), a Host compiles in memory, as with "", and says so only at
// level Debug.
func DefaultCompilationCacheDir() string {
	dir, err := os.UserCacheDir()
	if err != nil {
		return ""
	}
	return filepath.Join(dir, "tokenfit", "compiled")
}

// DefaultCacheEntries is how many compiled modules the default directory
// keeps of each wazero version and kind of code: the full and the lean
// module of two tokenfit versions side by side.
const DefaultCacheEntries = 4

// cacheDirOf is the directory of compiled code the Config names, or the
// default one; and whether it is the default.
func (c Config) cacheDirOf() (dir string, byDefault bool) {
	if c.cacheDirSet {
		return c.cacheDir, false
	}
	return DefaultCompilationCacheDir(), true
}

// cacheDirFor is the directory of this Config's compiled code.
func (c Config) cacheDirFor() string {
	dir, _ := c.cacheDirOf()
	if c.stopOnDone && dir != "" {
		return filepath.Join(dir, "stoppable")
	}
	return dir
}

// WithMaxInstances returns a copy that keeps at most n module instances; a
// call waits (as long as its context allows) for a free one. Each instance
// holds its own copy of the loaded tables (its memory is 13 MB with
// o200k_base, 20 MB with all four).
// Defaults to GOMAXPROCS; n < 1 means 1.
func (c Config) WithMaxInstances(n int) Config {
	c.maxInstances = max(n, 1)
	return c
}

// WithEncodings returns a copy whose instances load only the named
// encodings' tables; a request for another encoding answers with an
// encoding_not_loaded error. Loading o200k_base costs each instance about
// 25 ms (all four: about 65 ms). Defaults to every encoding core knows.
func (c Config) WithEncodings(names ...string) Config {
	c.encodings, c.encodingsSet = slices.Clone(names), true
	return c
}

// WithMaxInstanceMemory returns a copy that retires an instance whose linear
// memory has grown past n bytes: when the call that grew it (or the
// Instance checked out) is done, the instance is closed, its memory goes
// back to the operating system, and the next call starts a fresh one (about
// 12 ms plus its tables). WebAssembly memory never shrinks, so without this
// one 100 MB request would keep its hundreds of megabytes for the life of
// the pool. Defaults to DefaultMaxInstanceMemory (256 MB); n is at least
// 64 MB.
func (c Config) WithMaxInstanceMemory(n uint64) Config {
	c.maxMemory = max(n, 64<<20)
	return c
}

// WithCloseOnContextDone returns a copy whose calls stop when their context
// ends: the module's code checks for it (wazero's WithCloseOnContextDone),
// the call returns the context's error, and its instance, stopped at an
// unknown point, is retired. The checks cost every call: Go's WebAssembly
// code passes a loop head at nearly every branch, so counting runs several
// times slower (see RATIONALE.md, "Why does a call's context not stop it by
// default?"). Worth it where the CPU a long call takes must come back at
// its deadline, such as a server counting untrusted texts.
//
// Defaults to false: a call whose context ends returns the context's error
// at once (a Host's call; an Instance's call runs to its end), and the work
// under way goes on to its end before its instance goes back to the pool.
func (c Config) WithCloseOnContextDone(stop bool) Config {
	c.stopOnDone = stop
	return c
}

// WithLogger returns a copy that reports what the Host recovers from on its
// own, such as a damaged compilation cache entry (named, with wazero's
// error, at level Warn), to logger. Defaults to slog.Default().
func (c Config) WithLogger(logger *slog.Logger) Config {
	c.logger = logger
	return c
}

func (c Config) log() *slog.Logger {
	if c.logger != nil {
		return c.logger
	}
	return slog.Default()
}

func (c Config) instanceMemory() uint64 {
	if c.maxMemory > 0 {
		return c.maxMemory
	}
	return DefaultMaxInstanceMemory
}
