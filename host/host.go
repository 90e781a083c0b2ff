package host

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/experimental"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/core"
)

// ABIVersion is the version of wasm/ABI.md this host speaks; New refuses a
// module that reports another.
const ABIVersion = 1

// Errors of the host itself; errors of a request wrap core's sentinels (see
// Error).
var (
	// ErrNoModule: the Config names no module and none is embedded.
	ErrNoModule = errors.New("tokenfit: host: no module (pass Config.WithModule the bytes of build/wasm/tokenfit.wasm from `make wasm`, or build with -tags tokenfit_embedwasm)")
	// ErrABI: the module does not have the exports wasm/ABI.md lists, or
	// reports another ABI version.
	ErrABI = errors.New("tokenfit: host: module does not match the ABI")
	// ErrModule: the module trapped or exited. The instance is dropped; the
	// next call gets a fresh one.
	ErrModule = errors.New("tokenfit: host: module failed")
	// ErrClosed: the Host was closed.
	ErrClosed = errors.New("tokenfit: host: closed")
)

// Host runs the module: one compilation, a pool of instances. It is safe for
// concurrent use; each call runs on an instance no other call is using.
type Host struct {
	cfg       Config
	rt        wazero.Runtime
	compiled  wazero.CompiledModule
	ownCache  wazero.CompilationCache // closed by Close; nil for the shared cache
	tables    map[string]table
	modConfig wazero.ModuleConfig

	// mu is held for reading by every call and for writing by Close, so
	// Close waits for the calls under way.
	mu     sync.RWMutex
	closed bool
	idle   chan *instance // instances nobody is using
	slots  chan struct{}  // one token per live instance, at most maxInstances

	// Registered models are state inside an instance: every instance
	// replays registrations it has not seen before it answers (see
	// RATIONALE.md, "Why are registrations replayed?").
	regMu sync.Mutex
	regs  [][]byte
}

// table is an encoding's vocabulary table and its prebuilt index, as
// instances load them (load_indexed).
type table struct{ data, index []byte }

// sharedCache is the compilation cache of Hosts that name no directory, so
// that a second Host of the same module in a process does not compile again.
var sharedCache = sync.OnceValue(wazero.NewCompilationCache)

// New compiles the module, checks its exports and starts one instance, so
// that a bad module or a missing table is an error here and the first call
// does not pay the start-up. Cost: compilation (about a second cold, about
// 50 ms from a disk cache, about 35 ms from the process's memory cache)
// plus one instance (about 12 ms, and the tables: see WithEncodings).
func New(ctx context.Context, cfg Config) (*Host, error) {
	wasm := cfg.module
	if wasm == nil {
		wasm = embeddedModule
	}
	if len(wasm) == 0 {
		return nil, ErrNoModule
	}
	h := &Host{cfg: cfg, tables: map[string]table{}}
	for _, name := range cfg.encodingNames() {
		t := core.EncodingTable(name)
		if t == nil {
			return nil, fmt.Errorf("host: WithEncodings: %w %q (known: %v)", core.ErrUnknownEncoding, name, core.EncodingNames())
		}
		// The index is built once natively (~10 ms for o200k_base) and
		// spares every instance building it in WebAssembly.
		idx, err := core.EncodingIndex(name)
		if err != nil {
			return nil, fmt.Errorf("host: %w", err)
		}
		h.tables[name] = table{data: t, index: idx}
	}
	cache := sharedCache()
	if cfg.cacheDir != "" {
		c, err := wazero.NewCompilationCacheWithDir(cfg.cacheDir)
		if err != nil {
			return nil, fmt.Errorf("host: compilation cache: %w", err)
		}
		cache, h.ownCache = c, c
	}
	h.rt = wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(cache))
	fail := func(err error) (*Host, error) {
		h.rt.Close(ctx)
		if h.ownCache != nil {
			h.ownCache.Close(ctx)
		}
		return nil, err
	}
	if _, err := wasi_snapshot_preview1.Instantiate(ctx, h.rt); err != nil {
		return fail(err)
	}
	// A cold compilation takes about a second; spread it over the cores.
	compiled, err := h.rt.CompileModule(experimental.WithCompilationWorkers(ctx, runtime.GOMAXPROCS(0)), wasm)
	if err != nil {
		return fail(fmt.Errorf("host: compiling the module: %w", err))
	}
	if err := checkExports(compiled); err != nil {
		return fail(err)
	}
	h.compiled = compiled
	h.modConfig = wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").
		WithSysWalltime().WithSysNanotime()
	h.idle = make(chan *instance, cfg.instances())
	h.slots = make(chan struct{}, cfg.instances())
	h.slots <- struct{}{}
	in, err := h.instantiate(ctx)
	if err != nil {
		return fail(err)
	}
	h.idle <- in
	return h, nil
}

// Close closes every instance and the runtime, after the calls under way
// have finished and every checked-out Instance has been released. Later
// calls return ErrClosed. Closing twice is harmless.
func (h *Host) Close(ctx context.Context) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil
	}
	h.closed = true
	err := h.rt.Close(ctx)
	if h.ownCache != nil {
		err = errors.Join(err, h.ownCache.Close(ctx))
	}
	return err
}

// Call runs one operation of core's JSON API in an instance and returns its
// JSON answer, an error answer ({"error": …}) included, byte for byte what
// core.API.Call answers. The error is the host's own (ErrClosed, ErrModule,
// the context's); ctx bounds the wait for a free instance, not a call under
// way (an operation is bounded by its input).
func (h *Host) Call(ctx context.Context, op string, request []byte) ([]byte, error) {
	var out []byte
	err := h.with(ctx, func(in *instance) (err error) {
		out, err = in.call(ctx, op, request)
		if err == nil && op == opRegisterModels && !isErrorAnswer(out) {
			h.register(in, request)
		}
		return err
	})
	return out, err
}

// Do is Call with an error answer turned into an *Error, which wraps core's
// sentinel for its code (errors.Is(err, core.ErrInvalidRequest) holds), as
// core.API.Do does.
func (h *Host) Do(ctx context.Context, op string, request []byte) ([]byte, error) {
	out, err := h.Call(ctx, op, request)
	if err != nil {
		return nil, err
	}
	if isErrorAnswer(out) {
		return nil, parseError(out)
	}
	return out, nil
}

// Count returns the number of tokens in text, like core.Encoding.Count, over
// the module's fast path: the text is copied into the instance's memory and
// counted there, without JSON. Cost: O(len(text)) at about a tenth of native
// speed in wazero, plus about 0.2 µs per call.
func (h *Host) Count(ctx context.Context, encoding, text string) (int, error) {
	var n int
	err := h.with(ctx, func(in *instance) (err error) {
		n, err = in.count(ctx, encoding, text)
		return err
	})
	return n, err
}

// Instance checks an instance out of the pool for a sequence of calls that
// must see the same module state (such as a live counter kept inside it).
// The caller must Release it; until then no other call uses it.
func (h *Host) Instance(ctx context.Context) (*Instance, error) {
	h.mu.RLock()
	if h.closed {
		h.mu.RUnlock()
		return nil, ErrClosed
	}
	in, err := h.get(ctx)
	if err != nil {
		h.mu.RUnlock()
		return nil, err
	}
	return &Instance{h: h, in: in}, nil
}

// Instance is one module instance checked out of a Host's pool. It is not
// safe for concurrent use.
type Instance struct {
	h  *Host
	in *instance
}

// Call is Host.Call on this instance.
func (i *Instance) Call(ctx context.Context, op string, request []byte) ([]byte, error) {
	if i.in == nil {
		return nil, ErrClosed
	}
	if err := i.h.catchUp(ctx, i.in); err != nil {
		return nil, err
	}
	out, err := i.in.call(ctx, op, request)
	if err == nil && op == opRegisterModels && !isErrorAnswer(out) {
		i.h.register(i.in, request)
	}
	return out, err
}

// Count is Host.Count on this instance.
func (i *Instance) Count(ctx context.Context, encoding, text string) (int, error) {
	if i.in == nil {
		return 0, ErrClosed
	}
	return i.in.count(ctx, encoding, text)
}

// Release returns the instance to the pool. Releasing twice is harmless.
func (i *Instance) Release() {
	if i.in == nil {
		return
	}
	i.h.put(i.in)
	i.in = nil
	i.h.mu.RUnlock()
}

// with runs f on an instance of the pool.
func (h *Host) with(ctx context.Context, f func(*instance) error) error {
	h.mu.RLock()
	defer h.mu.RUnlock()
	if h.closed {
		return ErrClosed
	}
	in, err := h.get(ctx)
	if err != nil {
		return err
	}
	if err = h.catchUp(ctx, in); err == nil {
		err = f(in)
	}
	h.put(in)
	return err
}

// get takes an idle instance, or starts one if the pool has room, or waits.
func (h *Host) get(ctx context.Context) (*instance, error) {
	select {
	case in := <-h.idle:
		return in, nil
	default:
	}
	select {
	case in := <-h.idle:
		return in, nil
	case h.slots <- struct{}{}:
		in, err := h.instantiate(ctx)
		if err != nil {
			<-h.slots
			return nil, err
		}
		return in, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// put returns an instance to the pool, or drops it if it failed or its
// memory grew past the configured limit (see WithMaxInstanceMemory).
func (h *Host) put(in *instance) {
	if in.broken || uint64(in.mod.Memory().Size()) > h.cfg.instanceMemory() {
		in.mod.Close(context.Background())
		<-h.slots
		return
	}
	h.idle <- in
}

const opRegisterModels = "registerModels"

// register records a registration that succeeded on in.
func (h *Host) register(in *instance, request []byte) {
	h.regMu.Lock()
	defer h.regMu.Unlock()
	if in.regs == len(h.regs) {
		in.regs++
	}
	h.regs = append(h.regs, bytes.Clone(request))
}

// catchUp replays on in the registrations it has not seen.
func (h *Host) catchUp(ctx context.Context, in *instance) error {
	h.regMu.Lock()
	todo := h.regs[in.regs:len(h.regs):len(h.regs)]
	in.regs = len(h.regs)
	h.regMu.Unlock()
	for _, r := range todo {
		if _, err := in.call(ctx, opRegisterModels, r); err != nil {
			return err
		}
	}
	return nil
}

func isErrorAnswer(b []byte) bool { return bytes.HasPrefix(b, []byte(`{"error":`)) }
