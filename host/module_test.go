package host_test

import (
	"context"
	"encoding/json"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/core"
)

// rawModule drives the wasip1 module through its exports alone, as any
// host would, to test the contract of wasm/ABI.md rather than the host
// package.
type rawModule struct {
	t   *testing.T
	ctx context.Context
	mod api.Module
}

func newRawModule(t *testing.T) *rawModule {
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(testCache()))
	t.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	mod, err := rt.InstantiateWithConfig(ctx, module(t), wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		t.Fatal(err)
	}
	return &rawModule{t, ctx, mod}
}

func (m *rawModule) call(name string, args ...uint64) uint64 {
	m.t.Helper()
	res, err := m.mod.ExportedFunction(name).Call(m.ctx, args...)
	if err != nil {
		m.t.Fatalf("%s%v trapped: %v", name, args, err)
	}
	if len(res) == 0 {
		return 0
	}
	return res[0]
}

// bytes copies b into a new buffer.
func (m *rawModule) bytes(b []byte) (ptr, n uint64) {
	m.t.Helper()
	p := m.call("alloc", uint64(len(b)))
	if p == 0 && len(b) > 0 {
		m.t.Fatal("alloc failed")
	}
	m.mod.Memory().Write(uint32(p), b)
	return p, uint64(len(b))
}

// take reads and frees a packed buffer.
func (m *rawModule) take(packed uint64) string {
	m.t.Helper()
	if packed == 0 {
		return ""
	}
	b, ok := m.mod.Memory().Read(uint32(packed>>32), uint32(packed))
	if !ok {
		m.t.Fatalf("packed buffer %#x is outside memory", packed)
	}
	s := string(b)
	m.call("free", packed>>32)
	return s
}

func (m *rawModule) errorCode() string {
	m.t.Helper()
	var a core.ErrorAnswer
	s := m.take(m.call("last_error"))
	if err := json.Unmarshal([]byte(s), &a); err != nil {
		m.t.Fatalf("last_error = %q: %v", s, err)
	}
	return a.Error.Code
}

func TestModule_ABI(t *testing.T) {
	m := newRawModule(t)
	if v := m.call("abi_version"); v != 1 {
		t.Fatalf("abi_version = %d", v)
	}
	text, textLen := m.bytes([]byte("Hello world"))
	name, nameLen := m.bytes([]byte("o200k_base"))

	if st := int32(m.call("encoding_handle", name, nameLen)); st != -6 || m.errorCode() != "encoding_not_loaded" {
		t.Errorf("encoding_handle before loading = %d", st)
	}
	table := core.EncodingTable("o200k_base")
	tp, tn := m.bytes(table)
	h := m.call("load_table", tp, tn)
	if int32(h) <= 0 {
		t.Fatalf("load_table = %d: %s", int32(h), m.errorCode())
	}
	if again := m.call("load_table", tp, tn); again != h {
		t.Errorf("loading again gave handle %d, want %d", again, h)
	}
	m.call("free", tp)
	if got := m.call("encoding_handle", name, nameLen); got != h {
		t.Errorf("encoding_handle = %d, want %d", got, h)
	}
	countOK := func(when string) {
		t.Helper()
		if n := int32(m.call("count", h, text, textLen)); n != 2 {
			t.Fatalf("%s: count = %d, want 2", when, n)
		}
	}
	countOK("first")
	if n := m.call("count", h, 0, 0); n != 0 {
		t.Errorf("count of nothing = %d", n)
	}
	if m.call("last_error") != 0 {
		t.Error("last_error without an error is not 0")
	}

	for _, tc := range []struct {
		name   string
		export string
		args   []uint64
		status int32
		code   string
	}{
		{"handle 0", "count", []uint64{0, text, textLen}, -3, "invalid_handle"},
		{"handle 99", "count", []uint64{99, text, textLen}, -3, "invalid_handle"},
		{"handle -1", "count", []uint64{uint64(uint32(0xFFFFFFFF)), text, textLen}, -3, "invalid_handle"},
		{"pointer inside a buffer", "count", []uint64{h, text + 1, 2}, -2, "invalid_argument"},
		{"pointer outside memory", "count", []uint64{h, 0xFFFFFFF0, 100}, -2, "invalid_argument"},
		{"length past the buffer", "count", []uint64{h, text, 1 << 20}, -2, "invalid_argument"},
		{"garbage table", "load_table", []uint64{text, textLen}, -4, "invalid_table"},
		{"truncated table", "load_table", func() []uint64 { p, _ := m.bytes(table[:len(table)/2]); return []uint64{p, uint64(len(table) / 2)} }(), -4, "invalid_table"},
		{"unknown encoding", "encoding_handle", func() []uint64 { p, n := m.bytes([]byte("o300k")); return []uint64{p, n} }(), -5, "unknown_encoding"},
		{"huge alloc", "alloc", []uint64{1 << 31}, 0, "invalid_argument"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if st := int32(m.call(tc.export, tc.args...)); st != tc.status {
				t.Errorf("%s = %d, want %d", tc.export, st, tc.status)
			}
			if code := m.errorCode(); code != tc.code {
				t.Errorf("last_error code = %q, want %q", code, tc.code)
			}
			countOK("after " + tc.name)
		})
	}

	m.call("free", 0)
	m.call("free", 12345)
	m.call("free", text+1)
	countOK("after bad frees")

	op, opLen := m.bytes([]byte("countTokens"))
	for _, tc := range []struct {
		name string
		args []uint64
		want string
	}{
		{"answer", func() []uint64 { p, n := m.bytes([]byte(`{"text":"Hello world"}`)); return []uint64{op, opLen, p, n} }(),
			`{"tokens":2,"upperBound":2,"encoding":"o200k_base","exact":true}`},
		{"empty request", []uint64{op, opLen, 0, 0}, `{"tokens":0,"upperBound":0,"encoding":"o200k_base","exact":true}`},
		{"bad op pointer", []uint64{op + 3, 2, 0, 0}, `"code":"invalid_argument"`},
		{"bad request pointer", []uint64{op, opLen, 7, 100}, `"code":"invalid_argument"`},
		{"unknown operation", func() []uint64 { p, n := m.bytes([]byte("explode")); return []uint64{p, n, 0, 0} }(), `"code":"unknown_operation"`},
		{"bad JSON", func() []uint64 { p, n := m.bytes([]byte(`{"text": [`)); return []uint64{op, opLen, p, n} }(), `"code":"invalid_request"`},
	} {
		t.Run("call/"+tc.name, func(t *testing.T) {
			got := m.take(m.call("call", tc.args...))
			if got != tc.want && !strings.Contains(got, tc.want) {
				t.Errorf("call = %s, want %s", got, tc.want)
			}
			countOK("after call " + tc.name)
		})
	}
}

// TestModule_RandomArguments calls every export with random arguments (and
// addresses near live buffers): no call may trap, and the instance must
// count right afterwards.
func TestModule_RandomArguments(t *testing.T) {
	m := newRawModule(t)
	table := core.EncodingTable("r50k_base")
	tp, tn := m.bytes(table)
	h := m.call("load_table", tp, tn)
	m.call("free", tp)
	text, textLen := m.bytes([]byte("Hello world"))
	r := rand.New(rand.NewPCG(4, 2))
	arg := func() uint64 {
		switch r.IntN(5) {
		case 0:
			return uint64(r.Uint32())
		case 1:
			return uint64(r.IntN(64))
		case 2:
			return text + uint64(r.IntN(7)) - 3 // near, rarely on, a live buffer
		case 3:
			return uint64(uint32(-r.IntN(10)))
		}
		return uint64(r.IntN(1 << 16))
	}
	exports := []struct {
		name string
		args int
	}{{"count", 3}, {"load_table", 2}, {"encoding_handle", 2}, {"call", 4}, {"free", 1}, {"last_error", 0}, {"alloc", 1}}
	for i := range 3000 {
		e := exports[r.IntN(len(exports))]
		args := make([]uint64, e.args)
		for j := range args {
			args[j] = arg()
		}
		if e.name == "alloc" {
			args[0] %= 1 << 20
		}
		if e.name == "free" && args[0] == text {
			continue
		}
		res, err := m.mod.ExportedFunction(e.name).Call(m.ctx, args...)
		if err != nil {
			t.Fatalf("call %d: %s%v trapped: %v", i, e.name, args, err)
		}
		if (e.name == "call" || e.name == "last_error") && res[0] != 0 {
			m.take(res[0])
		}
	}
	if n := int32(m.call("count", h, text, textLen)); n != 2 {
		t.Fatalf("count after random calls = %d, want 2", n)
	}
}
