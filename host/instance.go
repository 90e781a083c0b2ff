package host

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"

	"github.com/tokenfit/tokenfit/core"
)

// exports lists the functions wasm/ABI.md defines, with their signatures.
// checkExports holds a module to it; the ABI test holds this list and the
// module to wasm/exports.txt.
var exports = map[string]struct{ params, results []api.ValueType }{
	"_initialize":     {nil, nil},
	"abi_version":     {nil, []api.ValueType{i32}},
	"alloc":           {[]api.ValueType{i32}, []api.ValueType{i32}},
	"free":            {[]api.ValueType{i32}, nil},
	"load_table":      {[]api.ValueType{i32, i32}, []api.ValueType{i32}},
	"load_indexed":    {[]api.ValueType{i32, i32, i32, i32}, []api.ValueType{i32}},
	"load_packed":     {[]api.ValueType{i32, i32}, []api.ValueType{i32}},
	"encoding_handle": {[]api.ValueType{i32, i32}, []api.ValueType{i32}},
	"count":           {[]api.ValueType{i32, i32, i32}, []api.ValueType{i32}},
	"call":            {[]api.ValueType{i32, i32, i32, i32}, []api.ValueType{i64}},
	"last_error":      {nil, []api.ValueType{i64}},
	"stream_new":      {[]api.ValueType{i32, i32}, []api.ValueType{i32}},
	"stream_write":    {[]api.ValueType{i32, i32, i32}, []api.ValueType{i32}},
	"stream_end":      {[]api.ValueType{i32}, []api.ValueType{i32}},
	"load_tokenizer":  {[]api.ValueType{i32, i32, i32, i32}, []api.ValueType{i64}},
}

// optionalExports may be missing (a module built before they were added):
// the host then copies a long text in whole instead of streaming it, and
// sends a tokenizer's file as base64 through call instead of load_tokenizer
// (tokenizers.go). It never calls load_packed (it has the .tkt and its
// index at hand), so it only holds it to its signature.
var optionalExports = []string{"stream_new", "stream_write", "stream_end", "load_tokenizer", "load_packed"}

const (
	i32 = api.ValueTypeI32
	i64 = api.ValueTypeI64
)

// leanExports are the exports of the full module the lean one shares, and
// all the host uses of it (wasm/ABI.md, "The lean reactor").
var leanExports = []string{"_initialize", "abi_version", "alloc", "free", "load_table", "load_indexed", "load_packed", "encoding_handle", "count", "last_error",
	"stream_new", "stream_write", "stream_end"}

// checkExports holds a module to the exports the host uses: the full
// module's (lean false) or the lean module's. The two are told apart by
// call, which only the full module has.
func checkExports(m wazero.CompiledModule, lean bool) error {
	fns := m.ExportedFunctions()
	_, full := fns["call"]
	switch {
	case lean && full:
		return fmt.Errorf("%w: WithLeanModule was given the full module (it exports call): pass build/wasm/tokenfit-lite.wasm, or the full module to WithModule", ErrABI)
	case !lean && !full && fns["encode"] != nil:
		return fmt.Errorf("%w: this is the lean module (it exports encode, not call): pass it to WithLeanModule, or the full module (build/wasm/tokenfit.wasm) to WithModule", ErrABI)
	}
	for name, want := range exports {
		if lean && !slices.Contains(leanExports, name) {
			continue
		}
		f, ok := fns[name]
		if !ok && slices.Contains(optionalExports, name) {
			continue
		}
		if !ok {
			return fmt.Errorf("%w: no export %q", ErrABI, name)
		}
		if fmt.Sprint(f.ParamTypes(), f.ResultTypes()) != fmt.Sprint(want.params, want.results) {
			return fmt.Errorf("%w: %s has signature %v → %v, want %v → %v", ErrABI, name,
				f.ParamTypes(), f.ResultTypes(), want.params, want.results)
		}
	}
	if _, ok := m.ExportedMemories()["memory"]; !ok {
		return fmt.Errorf("%w: no exported memory", ErrABI)
	}
	return nil
}

type instance struct {
	mod                                      api.Module
	alloc, free, loadIndexed, encodingByName api.Function
	countFn, callFn, lastError               api.Function
	streamNew, streamWrite, streamEnd        api.Function // nil in a module without them
	loadTok                                  api.Function // load_tokenizer; nil in a module without it
	stack                                    []uint64
	handles                                  map[string]int32 // loaded encodings
	text, op                                 buffer           // reusable input buffers
	regs                                     uint64           // registrations' generation applied
	toks                                     uint64           // tokenizers' generation applied
	catalog                                  bool             // the model catalog is loaded (catalog.go)
	broken                                   bool             // trapped: drop it
	memory                                   uint32           // its linear memory when it last went back to the pool
	stderr                                   *tail
}

// buffer is a module buffer the host reuses for inputs.
type buffer struct{ ptr, size uint32 }

// instantiate starts an instance and loads the configured tables into it.
func (h *Host) instantiate(ctx context.Context) (*instance, error) {
	stderr := &tail{}
	mod, err := h.rt.InstantiateModule(ctx, h.compiled, h.modConfig.WithStderr(stderr))
	if err != nil {
		return nil, fmt.Errorf("%w: instantiating: %v%s", ErrModule, err, stderr)
	}
	fn := mod.ExportedFunction
	in := &instance{mod: mod, alloc: fn("alloc"), free: fn("free"), loadIndexed: fn("load_indexed"),
		encodingByName: fn("encoding_handle"), countFn: fn("count"), callFn: fn("call"),
		lastError: fn("last_error"), streamNew: fn("stream_new"), streamWrite: fn("stream_write"),
		streamEnd: fn("stream_end"), loadTok: fn("load_tokenizer"), stack: make([]uint64, 4), handles: map[string]int32{}, stderr: stderr}
	v, err := in.invoke(ctx, fn("abi_version"))
	if err == nil && v != ABIVersion {
		err = fmt.Errorf("%w: the module speaks ABI %d, this host %d", ErrABI, v, ABIVersion)
	}
	if err != nil {
		mod.Close(ctx)
		return nil, err
	}
	for name, table := range h.tables {
		if err := in.load(ctx, name, table); err != nil {
			mod.Close(ctx)
			return nil, err
		}
	}
	return in, nil
}

// invoke calls f with args and returns its first result (0 for none). A
// trap marks the instance broken.
func (in *instance) invoke(ctx context.Context, f api.Function, args ...uint64) (uint64, error) {
	s := in.stack[:max(len(args), 1)]
	copy(s, args)
	if err := f.CallWithStack(ctx, s); err != nil {
		in.broken = true
		name := f.Definition().ExportNames()[0]
		if ctxErr := ctx.Err(); ctxErr != nil {
			// wazero stopped the call (WithCloseOnContextDone) and closed
			// the instance; the pool retires it.
			return 0, fmt.Errorf("tokenfit: host: %s stopped: %w", name, ctxErr)
		}
		return 0, fmt.Errorf("%w: %s: %v%s", ErrModule, name, err, in.stderr)
	}
	return s[0], nil
}

// status turns a negative status from a fast path into the error answer the
// module holds for it.
func (in *instance) status(ctx context.Context, st int32) error {
	b, err := in.takeResult(ctx, in.lastError)
	if err != nil {
		return err
	}
	if len(b) == 0 {
		return &Error{Code: core.CodeInternal, Message: fmt.Sprintf("tokenfit: status %d without an error answer", st)}
	}
	return parseError(b)
}

// takeResult calls f, which returns a packed buffer, and copies the buffer
// out and frees it.
func (in *instance) takeResult(ctx context.Context, f api.Function, args ...uint64) ([]byte, error) {
	packed, err := in.invoke(ctx, f, args...)
	if err != nil || packed == 0 {
		return nil, err
	}
	ptr, n := uint32(packed>>32), uint32(packed)
	b, ok := in.mod.Memory().Read(ptr, n)
	if !ok {
		in.broken = true
		return nil, fmt.Errorf("%w: answer at %#x+%d is outside memory", ErrModule, ptr, n)
	}
	out := make([]byte, n)
	copy(out, b)
	_, err = in.invoke(ctx, in.free, uint64(ptr))
	return out, err
}

// maxInput is the most bytes one input may have: the module's largest
// buffer (alloc's limit, wasm/ABI.md). Every length that crosses the
// boundary is checked against it before it becomes a uint32.
const maxInput = 1 << 30

// reserve makes buf hold at least n bytes, growing it if needed.
func (in *instance) reserve(ctx context.Context, buf *buffer, n int) error {
	if n > maxInput {
		return &Error{Code: core.CodeInvalidArgument, Message: fmt.Sprintf("tokenfit: invalid argument: an input of %d bytes is over the module's limit of %d bytes (1 GiB)", n, maxInput)}
	}
	if uint32(n) <= buf.size {
		return nil
	}
	if buf.ptr != 0 {
		if _, err := in.invoke(ctx, in.free, uint64(buf.ptr)); err != nil {
			return err
		}
	}
	size := min(max(uint32(n), 2*buf.size, 256), maxInput)
	*buf = buffer{}
	p, err := in.invoke(ctx, in.alloc, uint64(size))
	if err != nil {
		return err
	}
	if p == 0 {
		return in.status(ctx, -2)
	}
	*buf = buffer{uint32(p), size}
	return nil
}

// putString copies s into buf.
func (in *instance) putString(ctx context.Context, buf *buffer, s string) error {
	if err := in.reserve(ctx, buf, len(s)); err != nil {
		return err
	}
	return in.wrote(buf, in.mod.Memory().WriteString(buf.ptr, s))
}

// putBytes copies b into buf.
func (in *instance) putBytes(ctx context.Context, buf *buffer, b []byte) error {
	if err := in.reserve(ctx, buf, len(b)); err != nil {
		return err
	}
	return in.wrote(buf, in.mod.Memory().Write(buf.ptr, b))
}

func (in *instance) wrote(buf *buffer, ok bool) error {
	if !ok {
		in.broken = true
		return fmt.Errorf("%w: buffer at %#x+%d is outside memory", ErrModule, buf.ptr, buf.size)
	}
	return nil
}

// load gives the instance a table and its prebuilt index, so that the
// instance uses its look-up structures in place rather than building them.
// Once load_indexed returns a handle the module keeps both buffers; freeing
// them afterwards only ends the allocator's hold (the engine still holds them).
func (in *instance) load(ctx context.Context, name string, t table) error {
	var tb, ib buffer
	if err := in.putBytes(ctx, &tb, t.data); err != nil {
		return err
	}
	if err := in.putBytes(ctx, &ib, t.index); err != nil {
		return err
	}
	st, err := in.invoke(ctx, in.loadIndexed, uint64(tb.ptr), uint64(len(t.data)), uint64(ib.ptr), uint64(len(t.index)))
	if err != nil {
		return err
	}
	for _, b := range []buffer{tb, ib} {
		if _, err := in.invoke(ctx, in.free, uint64(b.ptr)); err != nil {
			return err
		}
	}
	if int32(st) <= 0 {
		return fmt.Errorf("host: loading %s: %w", name, in.status(ctx, int32(st)))
	}
	in.handles[name] = int32(st)
	return nil
}

// count counts text through the fast path: a text longer than streamMin
// with a built-in encoding is streamed (see stream).
func (in *instance) count(ctx context.Context, encoding, text string) (int, error) {
	if len(text) > streamMin && in.streams(encoding) {
		if len(text) > noLimit {
			return 0, &Error{Code: core.CodeInvalidArgument, Message: fmt.Sprintf("tokenfit: invalid argument: a text of %d bytes is over the %d bytes a count can cover (CountReader counts a text of any length)", len(text), noLimit)}
		}
		return in.stream(ctx, encoding, strings.NewReader(text), noLimit)
	}
	h, err := in.handle(ctx, encoding)
	if err != nil {
		return 0, err
	}
	if err := in.putString(ctx, &in.text, text); err != nil {
		return 0, err
	}
	n, err := in.invoke(ctx, in.countFn, uint64(uint32(h)), uint64(in.text.ptr), uint64(len(text)))
	if err != nil {
		return 0, err
	}
	if int32(n) < 0 {
		return 0, in.status(ctx, int32(n))
	}
	return int(int32(n)), nil
}

// handle returns the handle of encoding, or of a tokenizer loaded under
// that name.
func (in *instance) handle(ctx context.Context, encoding string) (int32, error) {
	h, ok := in.handles[encoding]
	if !ok {
		// Not loaded here: the module answers with core's own error (or a
		// handle, if it has the encoding after all).
		if err := in.putString(ctx, &in.op, encoding); err != nil {
			return 0, err
		}
		st, err := in.invoke(ctx, in.encodingByName, uint64(in.op.ptr), uint64(len(encoding)))
		if err != nil {
			return 0, err
		}
		if int32(st) <= 0 {
			return 0, in.status(ctx, int32(st))
		}
		h = int32(st)
		in.handles[encoding] = h
	}
	return h, nil
}

// call runs one JSON operation.
func (in *instance) call(ctx context.Context, op string, request []byte) ([]byte, error) {
	if err := in.putString(ctx, &in.op, op); err != nil {
		return nil, err
	}
	if err := in.putBytes(ctx, &in.text, request); err != nil {
		return nil, err
	}
	out, err := in.takeResult(ctx, in.callFn, uint64(in.op.ptr), uint64(len(op)), uint64(in.text.ptr), uint64(len(request)))
	if err == nil && out == nil {
		err = in.status(ctx, -1)
	}
	return out, err
}

// tail keeps the last few kilobytes the module wrote to stderr (the Go
// runtime's last words before a fatal error), for ErrModule messages.
type tail struct {
	mu  sync.Mutex
	buf []byte
}

const tailSize = 4 << 10

// Write keeps the last tailSize bytes written.
func (t *tail) Write(p []byte) (int, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.buf = append(t.buf, p...)
	if len(t.buf) > tailSize {
		t.buf = t.buf[len(t.buf)-tailSize:]
	}
	return len(p), nil
}

// String is the kept output, introduced, or "" when there is none.
func (t *tail) String() string {
	t.mu.Lock()
	defer t.mu.Unlock()
	if len(t.buf) == 0 {
		return ""
	}
	return "\nmodule stderr:\n" + string(t.buf)
}
