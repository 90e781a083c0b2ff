package wasm_test

// Tests of the lean reactor (wasm/wasip1/lite): its
// exports against wasm/exports-lite.txt and ABI.md, and its answers against
// core/engine run natively. The full reactor is tested by package host.

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"unicode/utf16"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/api"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/internal/exportlist"
	"github.com/tokenfit/tokenfit/internal/postlink"
	"github.com/tokenfit/tokenfit/internal/tkptest"
)

var (
	liteOnce sync.Once
	liteWasm []byte
	liteErr  error
)

// liteModule builds the lean reactor as make wasm does, post-link step
// included (skipping when no go
// command is on PATH).
func liteModule(t *testing.T) []byte {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command on PATH")
	}
	liteOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tokenfit-lite-")
		if err != nil {
			liteErr = err
			return
		}
		defer os.RemoveAll(dir)
		out := filepath.Join(dir, "tokenfit-lite.wasm")
		cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w -buildid= -checklinkname=0", "-buildvcs=false",
			"-buildmode=c-shared", "-pgo=wasip1/default.pgo", "-o", out, "./wasip1/lite")
		cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
		if b, err := cmd.CombinedOutput(); err != nil {
			liteErr = &buildError{string(b)}
			return
		}
		if liteWasm, liteErr = os.ReadFile(out); liteErr == nil {
			liteWasm, liteErr = postlink.Apply(context.Background(), liteWasm)
		}
	})
	if liteErr != nil {
		t.Fatal(liteErr)
	}
	return liteWasm
}

type buildError struct{ out string }

func (e *buildError) Error() string { return "building the lean module: " + e.out }

// lite is one instance of the lean reactor.
type lite struct {
	t   *testing.T
	ctx context.Context
	mod api.Module
}

func newLite(t *testing.T) *lite {
	t.Helper()
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	t.Cleanup(func() { rt.Close(ctx) })
	wasi_snapshot_preview1.MustInstantiate(ctx, rt)
	m, err := rt.InstantiateWithConfig(ctx, liteModule(t), wazero.NewModuleConfig().WithStartFunctions("_initialize"))
	if err != nil {
		t.Fatal(err)
	}
	l := &lite{t: t, ctx: ctx, mod: m}
	if v := l.call("abi_version")[0]; v != 1 {
		t.Fatalf("abi_version = %d", v)
	}
	return l
}

func (l *lite) call(name string, args ...uint64) []uint64 {
	l.t.Helper()
	out, err := l.mod.ExportedFunction(name).Call(l.ctx, args...)
	if err != nil {
		l.t.Fatalf("%s: %v", name, err)
	}
	return out
}

// put copies b into a new buffer and returns its address.
func (l *lite) put(b []byte) uint64 {
	p := l.call("alloc", uint64(len(b)))[0]
	if !l.mod.Memory().Write(uint32(p), b) {
		l.t.Fatal("write outside memory")
	}
	return p
}

// take reads and frees a packed buffer.
func (l *lite) take(packed uint64) []byte {
	if packed == 0 {
		l.t.Fatalf("no buffer: %s", l.lastError())
	}
	p, n := uint32(packed>>32), uint32(packed)
	b, ok := l.mod.Memory().Read(p, n)
	if !ok {
		l.t.Fatal("read outside memory")
	}
	b = slices.Clone(b)
	l.call("free", uint64(p))
	return b
}

func (l *lite) lastError() string {
	packed := l.call("last_error")[0]
	if packed == 0 {
		return ""
	}
	return string(l.take(packed))
}

func (l *lite) load(name string) uint64 {
	table := core.EncodingTable(name)
	p := l.put(table)
	h := int32(l.call("load_table", p, uint64(len(table)))[0])
	l.call("free", p)
	if h <= 0 {
		l.t.Fatalf("load_table(%s) = %d: %s", name, h, l.lastError())
	}
	return uint64(h)
}

func TestLite_Exports(t *testing.T) {
	ctx := context.Background()
	rt := wazero.NewRuntime(ctx)
	defer rt.Close(ctx)
	m, err := rt.CompileModule(ctx, liteModule(t))
	if err != nil {
		t.Fatal(err)
	}
	built := exportlist.Of(m)
	listed, err := exportlist.ReadFile("exports-lite.txt")
	if err != nil {
		t.Fatal(err)
	}
	documented, err := exportlist.ReadABITable("ABI.md", "## The lean reactor")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(built, listed) {
		t.Errorf("the lean module's exports differ from wasm/exports-lite.txt\nmodule: %q\nlisted: %q", built, listed)
	}
	if !slices.Equal(documented, listed) {
		t.Errorf("ABI.md's lean export table differs from wasm/exports-lite.txt\nABI.md: %q\nlisted: %q", documented, listed)
	}
	// The lean module imports WASI only, like the full one.
	for _, f := range m.ImportedFunctions() {
		if mod, _, _ := f.Import(); mod != "wasi_snapshot_preview1" {
			t.Errorf("imports from %q", mod)
		}
	}
}

var texts = []string{
	"", "Hello world", "I'm here, they'll go", "你好，世界。日本語のテキスト", "👨‍👩‍👧‍👦 🇫🇷 ❤️", "<|endoftext|>",
	strings.Repeat("a", 3000), "func main() {\n\tfmt.Println(\"hi\")\n}\n", strings.Repeat(" \n", 300), "bad \xff\xe4\xbd",
}

// TestLite_SameAsEngine runs every export on the shared texts and random
// ones, against core/engine natively.
func TestLite_SameAsEngine(t *testing.T) {
	l := newLite(t)
	r := rand.New(rand.NewPCG(3, 4))
	for _, name := range engine.Names() {
		h := l.load(name)
		if again := l.load(name); again != h {
			t.Errorf("%s loaded twice: handles %d, %d", name, h, again)
		}
		e, err := engine.Load(core.EncodingTable(name))
		if err != nil {
			t.Fatal(err)
		}
		all := slices.Clone(texts)
		for k := 0; k < 30; k++ {
			all = append(all, randomText(r, []int{10, 100, 1000}[k%3]))
		}
		for i, text := range all {
			p := l.put([]byte(text))
			n := uint64(len(text))
			if got, want := int32(l.call("count", h, p, n)[0]), e.Count(text); int(got) != want {
				t.Errorf("%s: count(texts[%d]) = %d, want %d", name, i, got, want)
			}
			ids := l.take(l.call("encode", h, p, n)[0])
			want := e.AppendEncode(nil, text)
			if len(ids) != 4*len(want) {
				t.Fatalf("%s: encode(texts[%d]): %d bytes for %d ids", name, i, len(ids), len(want))
			}
			for k, id := range want {
				if got := binary.LittleEndian.Uint32(ids[4*k:]); got != id {
					t.Fatalf("%s: encode(texts[%d])[%d] = %d, want %d", name, i, k, got, id)
				}
			}
			ip := l.put(ids)
			dec := l.take(l.call("decode", h, ip, uint64(len(ids)))[0])
			l.call("free", ip)
			var wantText string // as the full module's JSON answer has it
			js, _ := json.Marshal(text)
			json.Unmarshal(js, &wantText)
			if string(dec) != wantText {
				t.Errorf("%s: decode(encode(texts[%d])) = %q, want %q", name, i, dec, wantText)
			}
			for _, limit := range []int{0, 1, 7, 100} {
				got := int(int32(l.call("within_limit", h, p, n, uint64(limit))[0]))
				wn, wok := e.WithinLimit(text, limit)
				if got != wn || (got <= limit) != wok {
					t.Errorf("%s: within_limit(texts[%d], %d) = %d, want %d (%v)", name, i, limit, got, wn, wok)
				}
				for _, end := range []uint64{0, 1} {
					res := int64(l.call("truncate", h, p, n, uint64(limit), end)[0])
					kept, tokens := int(res>>32), int(res&0xffffffff)
					side := engine.KeepStart
					if end == 1 {
						side = engine.KeepEnd
					}
					ws, wt := e.Truncate(text, limit, side)
					if kept != len(ws) || tokens != wt {
						t.Errorf("%s: truncate(texts[%d], %d, %d) = %d bytes %d tokens, want %d %d", name, i, limit, end, kept, tokens, len(ws), wt)
					}
				}
			}
			l.call("free", p)
		}
	}
}

func TestLite_LiveRandomEdits(t *testing.T) {
	l := newLite(t)
	h := l.load("o200k_base")
	e, _ := engine.Get("o200k_base")
	id := l.call("live_new", h)[0]
	if int32(id) <= 0 {
		t.Fatalf("live_new = %d: %s", int32(id), l.lastError())
	}
	r := rand.New(rand.NewPCG(9, 10))
	var text []uint16
	for i := 0; i < 1500; i++ {
		at := r.IntN(len(text) + 1)
		del := r.IntN(min(6, len(text)-at) + 1)
		ins := randomText(r, r.IntN(10))
		p := l.put([]byte(ins))
		got := int32(l.call("live_edit", id, uint64(at), uint64(del), p, uint64(len(ins)))[0])
		l.call("free", p)
		if inPair(text, at) || inPair(text, at+del) {
			if got != -7 {
				t.Fatalf("edit %d inside a surrogate pair = %d, want -7 (invalid_request)", i, got)
			}
			if msg := l.lastError(); !strings.Contains(msg, `"invalid_request"`) {
				t.Fatalf("error answer %s", msg)
			}
			continue
		}
		text = append(append(append([]uint16{}, text[:at]...), utf16.Encode([]rune(ins))...), text[at+del:]...)
		s := string(utf16.Decode(text))
		if want := e.Count(s); int(got) != want {
			t.Fatalf("edit %d: live %d, recount %d", i, got, want)
		}
	}
	if s := string(l.take(l.call("live_text", id)[0])); s != string(utf16.Decode(text)) {
		t.Errorf("live_text differs from the edited text")
	}
	p := l.put([]byte("Hello world"))
	if n := int32(l.call("live_reset", id, p, 11)[0]); n != 2 {
		t.Errorf("live_reset = %d", n)
	}
	l.call("live_free", id)
	if n := int32(l.call("live_edit", id, 0, 0, 0, 0)[0]); n != -3 {
		t.Errorf("edit after live_free = %d, want -3 (invalid_handle)", n)
	}
	l.lastError()
}

func inPair(u []uint16, at int) bool {
	return at > 0 && at < len(u) && u[at] >= 0xDC00 && u[at] < 0xE000 && u[at-1] >= 0xD800 && u[at-1] < 0xDC00
}

// TestLite_Errors: every fault is a status and an error answer, and the
// instance keeps answering.
func TestLite_Errors(t *testing.T) {
	l := newLite(t)
	p := l.put([]byte("cl100k_base"))
	if h := int32(l.call("encoding_handle", p, 11)[0]); h != -6 {
		t.Errorf("encoding_handle(unloaded) = %d, want -6", h)
	}
	if msg := l.lastError(); !strings.Contains(msg, `"code":"encoding_not_loaded"`) || !strings.Contains(msg, "cl100k_base: load its table first") {
		t.Errorf("error answer %s", msg)
	}
	p2 := l.put([]byte("nope"))
	if h := int32(l.call("encoding_handle", p2, 4)[0]); h != -5 {
		t.Errorf("encoding_handle(unknown) = %d, want -5", h)
	}
	l.lastError()
	h := l.load("r50k_base")
	for _, c := range []struct {
		name string
		res  func() int64
		want int64
		code string
	}{
		{"bad handle", func() int64 { return int64(int32(l.call("count", 99, p, 3)[0])) }, -3, "invalid_handle"},
		{"bad pointer", func() int64 { return int64(int32(l.call("count", h, p+1, 3)[0])) }, -2, "invalid_argument"},
		{"too long", func() int64 { return int64(int32(l.call("count", h, p, 1000)[0])) }, -2, "invalid_argument"},
		{"negative limit", func() int64 { return int64(int32(l.call("within_limit", h, p, 3, uint64(0xffffffff))[0])) }, -7, "invalid_request"},
		{"negative max", func() int64 { return int64(l.call("truncate", h, p, 3, uint64(0xffffffff), 0)[0]) }, -7, "invalid_request"},
		{"bad token", func() int64 {
			ids := l.put([]byte{1, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f})
			return int64(l.call("decode", h, ids, 8)[0])
		}, 0, "invalid_token"},
		{"odd id bytes", func() int64 { return int64(l.call("decode", h, p, 3)[0]) }, 0, "invalid_argument"},
		{"bad table", func() int64 { return int64(int32(l.call("load_table", p, 11)[0])) }, -4, "invalid_table"},
		{"huge alloc", func() int64 { return int64(l.call("alloc", 1<<31)[0]) }, 0, "invalid_argument"},
	} {
		if got := c.res(); got != c.want {
			t.Errorf("%s = %d, want %d", c.name, got, c.want)
		}
		var ans struct {
			Error struct{ Code, Message string }
		}
		msg := l.lastError()
		if err := json.Unmarshal([]byte(msg), &ans); err != nil || ans.Error.Code != c.code || ans.Error.Message == "" {
			t.Errorf("%s: error answer %s, want code %s", c.name, msg, c.code)
		}
	}
	q := l.put([]byte("Hello world"))
	if n := int32(l.call("count", h, q, 11)[0]); n != 2 {
		t.Errorf("after the faults, count = %d", n)
	}
}

var frags = []string{" ", "  ", "\n", "\t", "the", " the", "Hello", "'s", "123", "你好", "😀", "👍🏽", "é", "\u0301", ".", "//", "<|endoftext|>"}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(frags[r.IntN(len(frags))])
	}
	return b.String()
}

// TestLite_LiveBound: the lean module keeps at most engine.MaxLiveCounters
// live counters, as the full one does; one more is invalid_request until
// one is freed.
func TestLite_LiveBound(t *testing.T) {
	l := newLite(t)
	h := l.load("r50k_base")
	var last uint64
	for i := range engine.MaxLiveCounters {
		last = l.call("live_new", h)[0]
		if int32(last) <= 0 {
			t.Fatalf("counter %d: %d, %s", i+1, int32(last), l.lastError())
		}
	}
	if st := int32(l.call("live_new", h)[0]); st != -7 || !strings.Contains(l.lastError(), `"code":"invalid_request"`) {
		t.Fatalf("counter %d: status %d", engine.MaxLiveCounters+1, st)
	}
	l.call("live_free", last)
	if id := int32(l.call("live_new", h)[0]); id <= 0 {
		t.Errorf("after a free: %d, %s", id, l.lastError())
	}
}

// TestLite_LoadPacked: load_packed expands a .tkp in the module to the
// encoding load_table loads from the .tkt; a damaged .tkp is invalid_table
// and the instance keeps answering (wasm/ABI.md, load_packed).
func TestLite_LoadPacked(t *testing.T) {
	l := newLite(t)
	tkp, err := tkptest.Pack(core.EncodingTable("cl100k_base"))
	if err != nil {
		t.Fatal(err)
	}
	packed := func(b []byte) int32 {
		p := l.put(b)
		defer l.call("free", p)
		return int32(l.call("load_packed", p, uint64(len(b)))[0])
	}
	for _, b := range [][]byte{tkp[:len(tkp)-100], tkp[:20], func() []byte { c := slices.Clone(tkp); c[len(c)/3] ^= 4; return c }(),
		core.EncodingTable("cl100k_base")} {
		if h := packed(b); h != -4 || !strings.Contains(l.lastError(), "invalid_table") {
			t.Errorf("a damaged .tkp of %d bytes: %d", len(b), h)
		}
	}
	h := packed(tkp)
	if h <= 0 {
		t.Fatalf("load_packed = %d: %s", h, l.lastError())
	}
	if again := l.load("cl100k_base"); again != uint64(h) {
		t.Errorf("load_table after load_packed: handle %d, want %d", again, h)
	}
	text := l.put([]byte("Hello world, hello tokens"))
	if c := int32(l.call("count", uint64(h), text, 25)[0]); c != 5 {
		t.Errorf("count = %d, want 5", c)
	}
}
