// Package wasmtimetest runs tokenfit's wasip1 module in wasmtime, through
// its Go bindings (github.com/bytecodealliance/wasmtime-go), and the raw ABI
// of wasm/ABI.md alone: proof that the module needs nothing of wazero's or
// the npm package's. The shared vectors and a sample of the hostile cases
// must pass, each answer byte for byte what core answers natively.
//
// What wasmtime needed: a Linker with DefineWasi, a Store with a default
// WasiConfig (no preopens, args or environment), and a call of the
// reactor's _initialize before any other export. Its Go bindings need cgo
// and link the static library the module ships (linux, macOS and Windows
// on x86-64 and arm64).
package wasmtimetest

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/bytecodealliance/wasmtime-go/v39"
	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// TestMain runs from the repository's root, where the shared test data
// and the built module are (internal/hostile finds them from the nearest
// go.mod, and this directory has its own).
func TestMain(m *testing.M) {
	if err := os.Chdir("../.."); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	os.Exit(m.Run())
}

// instance is one instance of the module in wasmtime, with the four
// encodings loaded.
type instance struct {
	t       *testing.T
	store   *wasmtime.Store
	inst    *wasmtime.Instance
	mem     *wasmtime.Memory
	handles map[string]int32
}

func start(t *testing.T) *instance {
	t.Helper()
	wasm, err := os.ReadFile(filepath.Join("build", "wasm", "tokenfit.wasm"))
	if err != nil {
		t.Fatalf("%v (make wasm builds it)", err)
	}
	engine := wasmtime.NewEngine()
	module, err := wasmtime.NewModule(engine, wasm)
	if err != nil {
		t.Fatal(err)
	}
	linker := wasmtime.NewLinker(engine)
	if err := linker.DefineWasi(); err != nil {
		t.Fatal(err)
	}
	store := wasmtime.NewStore(engine)
	store.SetWasi(wasmtime.NewWasiConfig())
	inst, err := linker.Instantiate(store, module)
	if err != nil {
		t.Fatal(err)
	}
	in := &instance{t: t, store: store, inst: inst, mem: inst.GetExport(store, "memory").Memory(), handles: map[string]int32{}}
	in.call("_initialize")
	if v := in.call("abi_version"); v != int32(1) {
		t.Fatalf("abi_version = %v", v)
	}
	for _, name := range core.EncodingNames() {
		table, err := os.ReadFile(filepath.Join("core", "tables", name+".tkt"))
		if err != nil {
			t.Fatal(err)
		}
		p := in.put(table)
		h := in.call("load_table", p, int32(len(table))).(int32)
		in.call("free", p)
		if h <= 0 {
			t.Fatalf("load_table %s: %d: %s", name, h, in.take(in.call("last_error").(int64)))
		}
		in.handles[name] = h
	}
	return in
}

// call calls an export; a trap fails the test (the module never traps).
func (in *instance) call(name string, args ...any) any {
	in.t.Helper()
	f := in.inst.GetFunc(in.store, name)
	if f == nil {
		in.t.Fatalf("no export %s", name)
	}
	v, err := f.Call(in.store, args...)
	if err != nil {
		in.t.Fatalf("%s trapped: %v", name, err)
	}
	return v
}

// put copies b into a new buffer of the module's.
func (in *instance) put(b []byte) int32 {
	in.t.Helper()
	p := in.call("alloc", int32(len(b))).(int32)
	if p == 0 && len(b) > 0 {
		in.t.Fatalf("alloc(%d) failed", len(b))
	}
	copy(in.mem.UnsafeData(in.store)[uint32(p):], b)
	return p
}

// take copies out and frees a packed buffer.
func (in *instance) take(packed int64) []byte {
	in.t.Helper()
	p, n := uint32(uint64(packed)>>32), uint32(packed)
	if packed == 0 {
		return nil
	}
	out := append([]byte(nil), in.mem.UnsafeData(in.store)[p:p+n]...)
	in.call("free", int32(p))
	return out
}

// json runs one operation of the JSON API.
func (in *instance) json(op string, req []byte) []byte {
	in.t.Helper()
	o, r := in.put([]byte(op)), in.put(req)
	out := in.take(in.call("call", o, int32(len(op)), r, int32(len(req))).(int64))
	in.call("free", o)
	in.call("free", r)
	return out
}

// count is the fast path: an encoding's handle, then count; an error is
// the error answer, as the Go hosts give it.
func (in *instance) count(encoding string, text []byte) []byte {
	in.t.Helper()
	h, ok := in.handles[encoding]
	if !ok {
		p := in.put([]byte(encoding))
		h = in.call("encoding_handle", p, int32(len(encoding))).(int32)
		in.call("free", p)
		if h < 0 {
			return in.take(in.call("last_error").(int64))
		}
	}
	p := in.put(text)
	n := in.call("count", h, p, int32(len(text))).(int32)
	in.call("free", p)
	if n < 0 {
		return in.take(in.call("last_error").(int64))
	}
	return hostile.CountAnswer(int(n))
}

// TestWasmtime_Vectors: token counts and ids (testdata/vectors/tokens.json,
// from the official tiktoken), every API-billed chat, and the budget, plan
// and request-shape vectors.
func TestWasmtime_Vectors(t *testing.T) {
	in := start(t)
	var tokens struct {
		Cases []struct {
			Name, Text, File string
			Counts           map[string]int
			IDs              map[string][]int
		}
	}
	readJSON(t, "testdata/vectors/tokens.json", &tokens)
	checked := 0
	for _, c := range tokens.Cases {
		if c.File != "" || c.Text == "" {
			continue // files and repetitions: core's and the JS tests' (their texts are large)
		}
		for enc, want := range c.Counts {
			if got := string(in.count(enc, []byte(c.Text))); got != string(hostile.CountAnswer(want)) {
				t.Errorf("%s %s: count %s, tiktoken %d", enc, c.Name, got, want)
			}
			checked++
			if ids, ok := c.IDs[enc]; ok {
				req, _ := json.Marshal(map[string]any{"text": c.Text, "encoding": enc})
				var a struct{ IDs []int }
				if err := json.Unmarshal(in.json("encode", req), &a); err != nil || fmt.Sprint(a.IDs) != fmt.Sprint(ids) {
					t.Errorf("%s %s: encode %v, tiktoken %v (%v)", enc, c.Name, a.IDs, ids, err)
				}
			}
		}
	}
	var chats []struct {
		Name, Model, ResolvedModel string
		Request                    map[string]any
		PromptTokens               int `json:"prompt_tokens"`
		KnownMismatch              any
	}
	readJSON(t, "testdata/vectors/chat_api_verified.json", &chats)
	for _, c := range chats {
		model := c.ResolvedModel
		if model == "" {
			model = c.Model
		}
		c.Request["model"] = model
		req, _ := json.Marshal(c.Request)
		var a struct{ Total int }
		if err := json.Unmarshal(in.json("countChat", req), &a); err != nil {
			t.Fatal(err)
		}
		if c.KnownMismatch == nil && a.Total != c.PromptTokens {
			t.Errorf("%s: countChat %d, the API billed %d", c.Name, a.Total, c.PromptTokens)
		}
	}
	api := core.NewAPI()
	vectors := 0
	for _, file := range []string{"budget", "plan", "shapes"} {
		cases, err := hostile.Vectors(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			got := in.json(c.Op, c.Bytes())
			if err := hostile.Expect(c.Expect, got); err != nil {
				t.Errorf("%s.json %q: %v", file, c.Name, err)
			} else if want := api.Call(c.Op, c.Bytes()); string(got) != string(want) {
				t.Errorf("%s.json %q:\n wasmtime %.300s\n native   %.300s", file, c.Name, got, want)
			}
			vectors++
		}
	}
	t.Logf("%d token counts, %d chats, %d budget, plan and shape vectors", checked, len(chats), vectors)
	if checked < 100 || len(chats) < 100 || vectors < 20 {
		t.Fatal("too few vectors")
	}
}

// TestWasmtime_Hostile: every 5th hostile case (huge ones scaled down as in
// make test), each answer as expected and byte for byte core's natively,
// and the probe after each on the same instance.
func TestWasmtime_Hostile(t *testing.T) {
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range core.EncodingNames() {
		if _, err := core.GetEncoding(e); err != nil { // "encodings" reports what is loaded
			t.Fatal(err)
		}
	}
	in := start(t)
	api := core.NewAPI()
	for _, s := range f.Setup {
		if out := in.json(s.Op, s.Request); hostile.IsErrorAnswer(out) {
			t.Fatalf("setup %s: %s", s.Op, out)
		}
		api.Call(s.Op, s.Request)
	}
	native := func(c hostile.Case, body []byte) []byte {
		if c.Op != "count" {
			return api.Call(c.Op, body)
		}
		e, err := core.GetEncoding(c.Encoding)
		if err != nil {
			return core.ErrorJSON(err)
		}
		return hostile.CountAnswer(e.Count(string(body)))
	}
	ran := 0
	for i, c := range f.Cases {
		if i%5 != 0 {
			continue
		}
		body := c.Bytes(f.Scale)
		var got []byte
		if c.Op == "count" {
			got = in.count(c.Encoding, body)
		} else {
			got = in.json(c.Op, body)
		}
		if err := c.Check(got); err != nil {
			t.Errorf("%s: %v", c.Name, err)
		} else if want := native(c, body); string(got) != string(want) {
			t.Errorf("%s:\n wasmtime %.300s\n native   %.300s", c.Name, got, want)
		}
		if err := f.Probe.CheckProbe(in.json(f.Probe.Op, f.Probe.Request)); err != nil {
			t.Fatalf("after %s: probe: %v", c.Name, err)
		}
		if got := in.count(f.Probe.Count.Encoding, []byte(f.Probe.Count.Text)); string(got) != string(hostile.CountAnswer(f.Probe.Count.Tokens)) {
			t.Fatalf("after %s: probe count %s", c.Name, got)
		}
		ran++
	}
	t.Logf("%d of %d hostile cases; memory %d MB", ran, len(f.Cases), in.mem.DataSize(in.store)>>20)
}

func readJSON(t *testing.T, path string, v any) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
