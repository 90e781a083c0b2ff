package host

import (
	"bytes"
	"context"
	"crypto/rand"
	"errors"
	"fmt"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/tetratelabs/wazero"

	"github.com/tokenfit/tokenfit/core"
)

// ABIVersion is the version of wasm/ABI.md this host speaks; New refuses a
// module that reports another.
const ABIVersion = 1

// Errors of the host itself; errors of a request wrap core's sentinels (see
// Error).
var (
	// ErrNoModule: Config.WithModule was given no bytes.
	ErrNoModule = errors.New("tokenfit: host: no module (Config.WithModule was given no bytes; without WithModule the host runs the module package embed keeps)")
	// ErrABI: the module does not have the exports wasm/ABI.md lists, or
	// reports another ABI version.
	ErrABI = errors.New("tokenfit: host: module does not match the ABI")
	// ErrModule: the module trapped or exited. The instance is dropped; the
	// next call gets a fresh one.
	ErrModule = errors.New("tokenfit: host: module failed")
	// ErrClosed: the Host was closed.
	ErrClosed = errors.New("tokenfit: host: closed")
	// ErrNeedsInstance: an operation whose state stays in one instance (a
	// live counter) was sent to the pool; call it on an Instance.
	ErrNeedsInstance = errors.New("tokenfit: host: a live counter lives in one instance: call the live operations on a checked-out Instance (Host.Instance)")
	// ErrLeanModule: an operation other than Count was sent to a Host of
	// the lean module (Config.WithLeanModule), which only counts.
	ErrLeanModule = errors.New("tokenfit: host: the lean module only counts (Count): use the full module (Config.WithModule) for this operation")
)

// Host runs the module: one compilation (shared with the other open Hosts
// of the module), a pool of instances. It is safe for concurrent use; each
// call runs on an instance no other call is using.
type Host struct {
	cfg       Config
	comp      *compilation // shared with the other open Hosts of the module
	rt        wazero.Runtime
	compiled  wazero.CompiledModule
	tables    map[string]table
	modConfig wazero.ModuleConfig

	idle  chan *instance // instances nobody is using
	slots chan struct{}  // one token per live instance, at most maxInstances

	// mu guards closed and busy, and is never held across a wait: a call
	// counts itself in busy, then waits for an instance with nothing
	// locked, so Close, other calls and a goroutine holding an Instance
	// never wait for each other's locks.
	mu       sync.Mutex
	closed   bool
	busy     int           // calls under way and Instances checked out
	closing  chan struct{} // closed by Close: waiting for an instance ends
	finished chan struct{} // closed once the instances are closed
	closeErr error         // what closing said, set before finished

	// Registered models are state inside an instance: the host keeps the
	// registry state they add up to, and an instance that has not applied
	// the latest applies it before it answers (see RATIONALE.md, "Why are
	// registered models kept as state?").
	regs registrations
	// Loaded tokenizers are state in the same way (tokenizers.go).
	toks tokenizers
}

// table is an encoding's vocabulary table and its prebuilt index, as
// instances load them (load_indexed).
type table struct{ data, index []byte }

// New compiles the module, checks its exports and starts one instance, so
// that a bad module or a missing table is an error here and the first call
// does not pay the start-up. While another Host of the same module (same
// bytes, cache directory and WithCloseOnContextDone) is open in the process,
// the two share its compilation and runtime, and New only starts an
// instance. Otherwise it compiles: about a second cold; from a disk cache
// or the process's memory cache wazero still decodes and validates the
// whole module (the full module's New took 74 ms on an idle machine, the
// lean one's 59: make bench-host). Then one instance: a few milliseconds,
// and the tables (see WithEncodings).
func New(ctx context.Context, cfg Config) (*Host, error) {
	wasm := cfg.module
	if wasm == nil {
		wasm = embeddedModule
	}
	if len(wasm) == 0 {
		return nil, ErrNoModule
	}
	h := &Host{cfg: cfg, closing: make(chan struct{}), finished: make(chan struct{})}
	names := cfg.encodingNames()
	for _, name := range names {
		if core.EncodingTable(name) == nil {
			return nil, fmt.Errorf("host: WithEncodings: %w %q (known: %v)", core.ErrUnknownEncoding, name, core.EncodingNames())
		}
	}
	// The tables' indexes are built natively while the module compiles.
	indexed := make(chan error, 1)
	var tables map[string]table
	go func() {
		var err error
		tables, err = indexTables(names)
		indexed <- err
	}()
	comp, err := openCompilation(ctx, cfg, wasm, cfg.module == nil)
	if err != nil {
		return nil, err
	}
	h.comp, h.rt, h.compiled = comp, comp.rt, comp.compiled
	fail := func(err error) (*Host, error) {
		closeCompilation(comp)
		return nil, err
	}
	if err := checkExports(comp.compiled, cfg.lean); err != nil {
		return fail(err)
	}
	if err := <-indexed; err != nil {
		return fail(err)
	}
	h.tables = tables
	h.modConfig = moduleConfig()
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

// indexTables returns the tables of the encodings named, each with its
// index, natively: compiled in (o200k_base) or built once (core caches it
// for the process), to spare every instance building it in WebAssembly.
func indexTables(names []string) (map[string]table, error) {
	tables := map[string]table{}
	for _, name := range names {
		idx, err := core.EncodingIndex(name)
		if err != nil {
			return nil, fmt.Errorf("host: %w", err)
		}
		tables[name] = table{data: core.EncodingTable(name), index: idx}
	}
	return tables, nil
}

// Close closes every instance, and the runtime if no other open Host shares
// it, once the calls under way have finished and every checked-out
// Instance has been released. From its start,
// calls through the Host return ErrClosed (those waiting for an instance
// too), while a checked-out Instance keeps answering until it is released.
// If ctx ends first, Close returns ctx's error and the instances are closed
// when the last call ends or the last Instance is released. Closing twice is
// harmless.
func (h *Host) Close(ctx context.Context) error {
	h.mu.Lock()
	first := !h.closed
	if first {
		h.closed = true
		close(h.closing)
	}
	idle, busy := first && h.busy == 0, h.busy
	h.mu.Unlock()
	if idle {
		h.finish()
	}
	select {
	case <-h.finished:
		return h.closeErr
	case <-ctx.Done():
		return fmt.Errorf("tokenfit: host: Close: %w (%d calls or Instances were still under way; the instances close when they end)", ctx.Err(), busy)
	}
}

// finish closes the instances, and the runtime if no other Host uses it;
// it runs once, when the Host is closed and nothing is busy (so every
// instance is idle).
func (h *Host) finish() {
	ctx := context.Background()
	var err error
	for len(h.idle) > 0 {
		err = errors.Join(err, (<-h.idle).mod.Close(ctx))
	}
	h.closeErr = errors.Join(err, closeCompilation(h.comp))
	close(h.finished)
}

// Call runs one operation of core's JSON API in an instance and returns its
// JSON answer, an error answer ({"error": …}) included, byte for byte what
// core.API.Call answers. The error is the host's own (ErrClosed, ErrModule,
// ErrNeedsInstance, ErrLeanModule, or the context's). When ctx ends, waiting for an
// instance or during the call, Call returns its error at once; the call
// under way goes on to its end, or is stopped WithCloseOnContextDone (see
// RATIONALE.md, "Why does a call's context not stop it by default?").
//
// The live-counter operations (liveNew, liveEdit, liveGet, liveFree) keep
// their counter inside one instance, so the pool refuses them with
// ErrNeedsInstance: call them on an Instance.
func (h *Host) Call(ctx context.Context, op string, request []byte) ([]byte, error) {
	if h.cfg.lean {
		return nil, fmt.Errorf("%w: %.40q", ErrLeanModule, op)
	}
	if slices.Contains(liveOperations, op) {
		return nil, fmt.Errorf("%w: %.40q", ErrNeedsInstance, op)
	}
	return with(ctx, h, func(in *instance) ([]byte, error) {
		out, err := in.callCatalog(ctx, op, request)
		if err == nil {
			h.record(in, op, request, out)
		}
		return out, err
	})
}

// liveOperations are the operations whose state stays in one instance.
var liveOperations = []string{"liveNew", "liveEdit", "liveGet", "liveFree"}

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
// counted there, without JSON. A text of more than 4 MiB counted with a
// built-in encoding is written to a stream counter a megabyte at a time
// instead (wasm/ABI.md, stream_new), so the instance never holds it whole
// and it may be over the 1 GiB input limit, up to 2 GiB (CountReader
// counts any length); a stretch of more than 256 MiB with no place to
// split between tokens is then invalid_argument. Cost:
// O(len(text)) plus a small fixed cost per call (make bench-host measures
// both against native). ctx bounds it as it bounds Call.
func (h *Host) Count(ctx context.Context, encoding, text string) (int, error) {
	return with(ctx, h, func(in *instance) (int, error) { return in.count(ctx, encoding, text) })
}

// Instance checks an instance out of the pool for a sequence of calls that
// must see the same module state (such as a live counter kept inside it).
// The caller must Release it; until then no other call uses it, and Close
// waits for it.
func (h *Host) Instance(ctx context.Context) (*Instance, error) {
	in, err := h.acquire(ctx)
	if err != nil {
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

// Call is Host.Call on this instance, the live-counter operations included.
// An instance holds at most core/engine.MaxLiveCounters counters; liveFree
// releases one.
func (i *Instance) Call(ctx context.Context, op string, request []byte) ([]byte, error) {
	if i.in == nil {
		return nil, ErrClosed
	}
	if i.h.cfg.lean {
		return nil, fmt.Errorf("%w: %.40q", ErrLeanModule, op)
	}
	if err := i.ready(ctx); err != nil {
		return nil, err
	}
	out, err := i.in.callCatalog(ctx, op, request)
	if err == nil {
		i.h.record(i.in, op, request, out)
	}
	return out, err
}

// Count is Host.Count on this instance.
func (i *Instance) Count(ctx context.Context, encoding, text string) (int, error) {
	if i.in == nil {
		return 0, ErrClosed
	}
	if err := i.ready(ctx); err != nil {
		return 0, err
	}
	return i.in.count(ctx, encoding, text)
}

// ready reports why the instance cannot take a call: ctx has ended, or an
// earlier call stopped it (it is then retired when released).
func (i *Instance) ready(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if i.in.broken {
		return fmt.Errorf("%w: this Instance was stopped by an earlier call; release it and check out another", ErrModule)
	}
	return i.h.catchUp(ctx, i.in)
}

// Release returns the instance to the pool. Releasing twice is harmless.
func (i *Instance) Release() {
	if i.in == nil {
		return
	}
	i.h.release(i.in)
	i.in = nil
}

// with runs f on an instance of the pool. When ctx can end, f runs on a
// goroutine of its own, so that the caller can leave at ctx's end while f
// goes on to its end (or is stopped, WithCloseOnContextDone) and its
// instance goes back to the pool; its result is then dropped. A Close waits
// for it like any call under way.
func with[T any](ctx context.Context, h *Host, f func(*instance) (T, error)) (T, error) {
	var zero T
	in, err := h.acquire(ctx)
	if err != nil {
		return zero, err
	}
	run := func() (T, error) {
		defer h.release(in)
		if err := h.catchUp(ctx, in); err != nil {
			return zero, err
		}
		return f(in)
	}
	if ctx.Done() == nil {
		return run()
	}
	type result struct {
		v   T
		err error
	}
	done := make(chan result, 1)
	go func() {
		v, err := run()
		done <- result{v, err}
	}()
	select {
	case r := <-done:
		return r.v, r.err
	case <-ctx.Done():
		return zero, ctx.Err()
	}
}

// acquire counts a call as busy and gets it an instance, or says why not:
// ctx has ended (checked first), the Host is closed or closing, or ctx ended
// while waiting.
func (h *Host) acquire(ctx context.Context) (*instance, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil, ErrClosed
	}
	h.busy++
	h.mu.Unlock()
	in, err := h.get(ctx)
	if err != nil {
		h.done()
	}
	return in, err
}

// release returns an instance to the pool and ends its call.
func (h *Host) release(in *instance) {
	h.put(in)
	h.done()
}

// done ends a busy call; the last one after Close closes the instances.
func (h *Host) done() {
	h.mu.Lock()
	h.busy--
	last := h.closed && h.busy == 0
	h.mu.Unlock()
	if last {
		h.finish()
	}
}

// get takes an idle instance, or starts one if the pool has room, or waits
// until ctx ends or the Host closes.
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
	case <-h.closing:
		return nil, ErrClosed
	}
}

// put returns an instance to the pool, or drops it if it failed or its
// memory grew past the configured limit (see WithMaxInstanceMemory).
func (h *Host) put(in *instance) {
	size := in.mod.Memory().Size()
	grown := uint64(size) > h.cfg.instanceMemory()
	if in.broken || grown {
		in.mod.Close(context.Background())
		<-h.slots
		if grown {
			giveBack()
		}
		return
	}
	// A memory that grew by much was copied as it grew: the copies are
	// garbage the process would keep for minutes.
	if size > in.memory+growthGiveBack {
		giveBack()
	}
	in.memory = size
	h.idle <- in
}

// growthGiveBack is how much an instance's memory grows in one call before
// the memory its growth left behind is given back (giveBack).
const growthGiveBack = 64 << 20

// retired counts the grown instances retired whose memory giveBack has not
// yet returned.
var retired atomic.Int64

// giveBack returns a retired instance's memory, or what a grown instance's
// copies left, to the system at once. Go frees it at its next collection
// but keeps the pages for minutes after (its scavenger returns them a
// little at a time), so a server that had served one big request stayed
// at that request's peak. Both are rare (a call that grew an instance by
// tens of megabytes), so each pays a full collection on a goroutine of its
// own; those that come while one runs share the next.
func giveBack() {
	if retired.Add(1) > 1 {
		return
	}
	go func() {
		for n := retired.Load(); ; n = retired.Load() {
			debug.FreeOSMemory()
			if retired.Add(-n) == 0 {
				return
			}
		}
	}()
}

const opRegisterModels = "registerModels"

// record keeps the state a successful call on in added: registered models,
// a loaded tokenizer.
func (h *Host) record(in *instance, op string, request, out []byte) {
	switch {
	case isErrorAnswer(out):
	case op == opRegisterModels:
		h.regs.add(in, request)
	case op == opLoadTokenizer:
		h.toks.add(in, out, loadedTokenizer{request: bytes.Clone(request)})
	}
}

// catchUp applies to in the registry state and the tokenizers it has not
// applied.
func (h *Host) catchUp(ctx context.Context, in *instance) error {
	gen, loads := h.toks.since(in.toks)
	for _, l := range loads {
		out, err := in.replay(ctx, l)
		if err != nil {
			return err
		}
		if isErrorAnswer(out) {
			return fmt.Errorf("%w: loading a tokenizer again: %.300s", ErrModule, out)
		}
	}
	in.toks = gen
	return h.catchUpModels(ctx, in)
}

// catchUpModels applies to in the registry state it has not applied.
func (h *Host) catchUpModels(ctx context.Context, in *instance) error {
	gen, req := h.regs.state()
	if in.regs == gen {
		return nil
	}
	out, err := in.call(ctx, opRegisterModels, req)
	if err != nil {
		return err
	}
	if isErrorAnswer(out) {
		return fmt.Errorf("%w: replaying the registered models: %s", ErrModule, out)
	}
	in.regs = gen
	return nil
}

func isErrorAnswer(b []byte) bool { return bytes.HasPrefix(b, []byte(`{"error":`)) }

// moduleConfig is how every instance starts: the reactor's _initialize,
// real clocks, and the system's random source. wazero's default source is
// deterministic, and the Go runtime seeds its map hashes from it: every
// instance of every host would hash the same way, so request-keyed maps
// could be flooded by crafted keys.
func moduleConfig() wazero.ModuleConfig {
	return wazero.NewModuleConfig().WithName("").WithStartFunctions("_initialize").
		WithSysWalltime().WithSysNanotime().WithRandSource(rand.Reader)
}
