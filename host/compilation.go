package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"hash/maphash"
	"runtime"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
)

// A compilation is a wazero runtime with WASI and one compiled module in
// it, shared by every open Host of the same module and compilation settings
// in the process: a second Host then starts its instance in the runtime the
// first one made, without decoding, validating or loading the module again
// (wazero does all three on every CompileModule, even when its cache holds
// the code: RATIONALE.md, "Why is the engine's speed in wazero not the speed
// in V8?"). It is closed when the last Host using it closes, so a process
// that opens one Host at a time compiles (from the cache) each time.
type compilation struct {
	key      compilationKey
	wasm     []byte // the module: the embedded one, or a copy of the Config's
	rt       wazero.Runtime
	compiled wazero.CompiledModule
	ownCache wazero.CompilationCache // closed with the runtime; nil for the shared in-memory cache
	refs     int                     // Hosts using it; guarded by compilations.mu
	ready    chan struct{}           // closed when compiled (or failed: err)
	err      error
}

// compilationKey is a hash of the module's bytes (equal bytes are checked
// on a hit) and what its compiled code depends on besides them.
type compilationKey struct {
	sum        uint64
	size       int
	stopOnDone bool   // the code checks for a context's end
	cacheDir   string // where its compiled code is kept ("" in memory)
}

var compilations = struct {
	mu   sync.Mutex
	seed maphash.Seed
	open map[compilationKey][]*compilation
}{seed: maphash.MakeSeed(), open: map[compilationKey][]*compilation{}}

// openCompilation returns the compilation of wasm for cfg, compiling it if
// no open Host shares it, and counts the caller as one of its users (see
// closeCompilation). embedded says that wasm is the embedded module, whose
// bytes never change, so that it need not be copied.
func openCompilation(ctx context.Context, cfg Config, wasm []byte, embedded bool) (*compilation, error) {
	dir, _ := cfg.cacheDirOf()
	key := compilationKey{maphash.Bytes(compilations.seed, wasm), len(wasm), cfg.stopOnDone, dir}
	compilations.mu.Lock()
	for _, c := range compilations.open[key] {
		if !bytes.Equal(c.wasm, wasm) {
			continue
		}
		c.refs++
		compilations.mu.Unlock()
		if err := c.wait(ctx); err != nil {
			closeCompilation(c)
			return nil, err
		}
		if c.err == nil {
			return c, nil
		}
		closeCompilation(c)
		if ctx.Err() == nil && (errors.Is(c.err, context.Canceled) || errors.Is(c.err, context.DeadlineExceeded)) {
			// The Host that was compiling it gave up; this one may not.
			return openCompilation(ctx, cfg, wasm, embedded)
		}
		return nil, c.err
	}
	if !embedded {
		wasm = bytes.Clone(wasm)
	}
	c := &compilation{key: key, wasm: wasm, refs: 1, ready: make(chan struct{})}
	compilations.open[key] = append(compilations.open[key], c)
	compilations.mu.Unlock()
	c.err = c.build(ctx, cfg)
	if c.err != nil {
		compilations.mu.Lock()
		forget(c)
		compilations.mu.Unlock()
	}
	close(c.ready)
	if c.err != nil {
		closeCompilation(c)
		return nil, c.err
	}
	return c, nil
}

// wait waits until c is compiled (or failed), or until ctx ends first.
func (c *compilation) wait(ctx context.Context) error {
	select {
	case <-c.ready:
		return nil
	default:
	}
	select {
	case <-c.ready:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// forget takes c out of the open compilations, if it is there.
// compilations.mu must be held.
func forget(c *compilation) {
	open := compilations.open[c.key]
	for i, o := range open {
		if o == c {
			open = append(open[:i:i], open[i+1:]...)
			break
		}
	}
	if len(open) == 0 {
		delete(compilations.open, c.key)
	} else {
		compilations.open[c.key] = open
	}
}

// closeCompilation ends a Host's use of c; the last one closes its runtime
// and returns what closing said.
func closeCompilation(c *compilation) error {
	compilations.mu.Lock()
	c.refs--
	last := c.refs == 0
	if last {
		forget(c)
	}
	compilations.mu.Unlock()
	if !last {
		return nil
	}
	var err error
	ctx := context.Background()
	if c.rt != nil {
		err = c.rt.Close(ctx)
	}
	if c.ownCache != nil {
		err = errors.Join(err, c.ownCache.Close(ctx))
	}
	return err
}

// build makes the runtime and compiles the module, or loads it from the
// cache. The default directory (DefaultCompilationCacheDir) is used only
// when it can be written, and kept to DefaultCacheEntries a kind; a
// directory the Config names is used as it is, and an error there is New's.
func (c *compilation) build(ctx context.Context, cfg Config) error {
	rc := wazero.NewRuntimeConfig().WithCloseOnContextDone(cfg.stopOnDone)
	cache := memoryCache(cfg)
	dir, byDefault := cfg.cacheDirOf()
	if dir != "" && byDefault {
		if err := writable(cfg.cacheDirFor()); err != nil {
			cfg.log().Debug("tokenfit: host: the default compilation cache directory cannot be written; compiling in memory", "dir", cfg.cacheDirFor(), "error", err)
			dir = ""
		}
	}
	if dir != "" {
		dc, err := wazero.NewCompilationCacheWithDir(cfg.cacheDirFor())
		if err != nil {
			return fmt.Errorf("host: compilation cache: %w", err)
		}
		cache, c.ownCache = dc, dc
	}
	if err := c.start(ctx, rc.WithCompilationCache(cache)); err != nil {
		return err
	}
	compiled, err := c.compile(ctx)
	if err != nil && dir != "" {
		compiled, err = c.recompile(ctx, cfg, rc, err)
	}
	if err != nil {
		return fmt.Errorf("host: compiling the module: %w", err)
	}
	if dir != "" && byDefault {
		pruneCache(cfg.cacheDirFor(), DefaultCacheEntries)
	}
	c.compiled = compiled
	return nil
}

// sharedCache is the compilation cache of Hosts that name no directory, so
// that a Host of a module compiled before in the process does not compile
// it again.
var sharedCache = sync.OnceValue(wazero.NewCompilationCache)

// sharedStopCache is sharedCache for Hosts WithCloseOnContextDone: their
// code differs (it checks for the end of a context), and wazero's cache key
// does not say so, so the two never share a cache.
var sharedStopCache = sync.OnceValue(wazero.NewCompilationCache)

// memoryCache is the in-memory compilation cache of a Host that names no
// directory.
func memoryCache(cfg Config) wazero.CompilationCache {
	if cfg.stopOnDone {
		return sharedStopCache()
	}
	return sharedCache()
}

// start makes the runtime, with WASI.
func (c *compilation) start(ctx context.Context, rc wazero.RuntimeConfig) error {
	c.rt = wazero.NewRuntimeWithConfig(ctx, rc)
	_, err := wasi_snapshot_preview1.Instantiate(ctx, c.rt)
	return err
}

// compile compiles the module, or loads it from the cache. A cold
// compilation takes about a second; it is spread over the cores.
func (c *compilation) compile(ctx context.Context) (wazero.CompiledModule, error) {
	return c.rt.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.GOMAXPROCS(0)), c.wasm)
}

// recompile is New's way round a compilation cache entry that wazero could
// not load (cacheErr: a damaged entry fails every later run the same way):
// the entry is replaced and loaded, or, when it cannot be replaced, the
// module is compiled without the directory. Either way the logger says
// which file it was, and New goes on.
func (c *compilation) recompile(ctx context.Context, cfg Config, rc wazero.RuntimeConfig, cacheErr error) (wazero.CompiledModule, error) {
	log := cfg.log()
	entry, err := repairCache(ctx, rc, cfg.cacheDirFor(), c.wasm)
	if err == nil && entry != "" {
		compiled, err := c.compile(ctx)
		if err == nil {
			log.Warn("tokenfit: host: a damaged compilation cache entry was replaced", "file", entry, "error", cacheErr)
			return compiled, nil
		}
	}
	if entry == "" {
		entry = cfg.cacheDirFor()
	}
	c.rt.Close(ctx)
	c.ownCache.Close(ctx)
	c.ownCache = nil
	if err := c.start(ctx, rc.WithCompilationCache(memoryCache(cfg))); err != nil {
		return nil, err
	}
	compiled, err2 := c.compile(ctx)
	if err2 != nil {
		return nil, err2
	}
	log.Warn("tokenfit: host: a damaged compilation cache entry could not be replaced; compiled without the cache",
		"file", entry, "error", cacheErr, "replacing", err)
	return compiled, nil
}
