package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// TestParity sends the same requests to core natively and to the module
// through the host, and wants the same bytes back: the shared vectors of
// testdata/vectors, a representative request set for every operation, and
// malformed requests for every operation core lists (so operations added to
// core are covered the day they land).
func TestParity(t *testing.T) {
	ctx := context.Background()
	h := sharedHost(t)
	api := core.NewAPI()
	// The host's instances hold every table; load them natively too, so
	// that "encodings" (which reports what is loaded) answers alike.
	for _, name := range core.EncodingNames() {
		if _, err := core.GetEncoding(name); err != nil {
			t.Fatal(err)
		}
	}
	cases := representative()
	cases = append(cases, fromVectors(t)...)
	for _, op := range core.OperationNames() {
		for _, req := range []string{``, `{}`, `null`, `[1, 2]`, `{"text": `, `{"model": 7}`, `"text"`, `{} {}`} {
			cases = append(cases, call{op, req})
		}
	}
	cases = append(cases, call{"noSuchOperation", `{}`}, call{"", ``})
	for _, c := range cases {
		if c.op == "loadCatalog" {
			continue // the host's own (TestHost_LoadCatalogRefused)
		}
		want := api.Call(c.op, []byte(c.req))
		got, err := h.Call(ctx, c.op, []byte(c.req))
		if errors.Is(err, host.ErrNeedsInstance) {
			got, err = callOnInstance(ctx, h, c.op, []byte(c.req))
		}
		if err != nil {
			t.Fatalf("%s %.80s: %v", c.op, c.req, err)
		}
		if string(got) != string(want) {
			t.Errorf("%s %.200s\n wasm   %.300s\n native %.300s", c.op, c.req, got, want)
		}
	}
	t.Logf("%d requests answered alike", len(cases))
}

type call struct{ op, req string }

// callOnInstance runs one call on a checked-out instance (the live
// operations, which the pool refuses).
func callOnInstance(ctx context.Context, h *host.Host, op string, req []byte) ([]byte, error) {
	in, err := h.Instance(ctx)
	if err != nil {
		return nil, err
	}
	defer in.Release()
	return in.Call(ctx, op, req)
}

func representative() []call {
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. 自然语言处理 🎉 ", 200)
	text := func(s string) string { b, _ := json.Marshal(s); return string(b) }
	budgetSeed := `{"contextWindow": 150000, "outputReserve": 8192, "sections": {"system": {"tokens": 1200}, "procedure": {"tokens": 300}, "knowledge": {"tokens": 1500}, "episodes": {"tokens": 400}, "current": {"tokens": 100}}}`
	history := `[{"role": "user", "content": "Hi"}, {"role": "assistant", "content": "Hello! How can I help?"}, {"role": "user", "content": ` + text(long) + `}]`
	return []call{
		{"version", ``},
		{"encodings", ``},
		{"models", ``},
		{"models", `{"model": "gpt-4o-2024-08-06"}`},
		{"models", `{"model": "claude-sonnet-4-5"}`},
		{"models", `{"model": "acme-9000"}`},
		{"models", `{"model": "openrouter/qwen/qwen3-coder"}`},
		{"models", `{"provider": "xai", "minWindow": 1000000}`},
		{"priceUsage", `{"model": "claude-sonnet-4-5", "usage": {"input_tokens": 50, "cache_read_input_tokens": 8000, "output_tokens": 500}}`},
		{"priceUsage", `{"model": "gemini-2.5-pro", "usage": {"promptTokenCount": 1200, "cachedContentTokenCount": 1000, "thoughtsTokenCount": 30}}`},
		{"priceUsage", `{"model": "gpt-4o", "usage": {"prompt_tokens": -1}}`},
		{"countChat", `{"model": "gpt-4o", "max_tokens": 100, "cachedTokens": 2, "messages": [{"role": "user", "content": "Hi"}]}`},
		{"calculateBudget", `{"model": "tts-1"}`},
		{"countTokens", `{"text": "Hello world"}`},
		{"countTokens", `{"text": "Hello world", "model": "gpt-4o"}`},
		{"countTokens", `{"text": ` + text(long) + `, "encoding": "cl100k_base"}`},
		{"countTokens", `{"text": ` + text(long) + `, "encoding": "p50k_base"}`},
		{"countTokens", `{"text": ` + text(long) + `, "encoding": "r50k_base"}`},
		{"countTokens", `{"text": "<|endoftext|> and <|fim_prefix|>", "encoding": "cl100k_base"}`},
		{"countTokens", `{"text": "Hello", "model": "claude-sonnet-4-5"}`},
		{"countTokens", `{"text": "Hello", "model": "acme-9000"}`},
		{"countTokens", `{"text": "abcdefgh", "encoding": "chars4"}`},
		{"countTokens", `{"text": "abcdefghi", "encoding": "bytes4"}`},
		{"countTokens", `{"text": "\u0000\ud83d\ude00 \t\n\r\n  x"}`},
		{"countTokens", `{"text": 5}`},
		{"countTokens", `{"text": "x", "encoding": "o300k"}`},
		{"encode", `{"text": "Hello world", "encoding": "o200k_base"}`},
		{"encode", `{"text": ` + text(long[:500]) + `, "model": "gpt-3.5-turbo"}`},
		{"encode", `{"text": "x", "model": "claude-sonnet-4-5"}`},
		{"encode", `{"text": "x", "encoding": "chars4"}`},
		{"decode", `{"ids": [13225, 2375], "encoding": "o200k_base"}`},
		{"decode", `{"ids": [9468, 239], "encoding": "cl100k_base"}`},
		{"decode", `{"ids": [999999999], "encoding": "o200k_base"}`},
		{"decode", `{"ids": [-1]}`},
		{"decode", `{"ids": "1 2"}`},
		{"withinLimit", `{"text": "Hello world", "limit": 1}`},
		{"withinLimit", `{"text": ` + text(long) + `, "limit": 100000}`},
		{"withinLimit", `{"text": "Hello", "limit": 10, "model": "claude-sonnet-4-5"}`},
		{"withinLimit", `{"text": "Hello", "limit": -1}`},
		{"truncate", `{"text": "Hello world", "maxTokens": 1}`},
		{"truncate", `{"text": ` + text(long) + `, "maxTokens": 77, "keep": "end"}`},
		{"truncate", `{"text": ` + text(long) + `, "maxTokens": 50, "encoding": "chars4"}`},
		{"truncate", `{"text": "x", "maxTokens": 1, "keep": "middle"}`},
		{"truncate", `{"text": "x", "maxTokens": -5}`},
		{"calculateBudget", budgetSeed},
		{"calculateBudget", `{"model": "gpt-4o", "directive": "Be brief.", "history": ` + history + `}`},
		{"calculateBudget", `{"model": "gpt-4o", "contextWindow": 2000, "history": ` + history + `, "limits": {"minHistoryTokens": 10}}`},
		{"calculateBudget", `{"model": "claude-sonnet-4-5", "sections": {"system": "You are helpful.", "knowledge": ["a", "b", ` + text(long) + `]}, "limits": {"maxKnowledgeTokens": 100}}`},
		{"calculateBudget", `{"sections": {"nope": "x"}}`},
		{"calculateBudget", `{"contextWindow": -1}`},
		{"registerModels", `{"models": [{"id": "bad", "contextWindow": 0, "encoding": "o200k_base"}]}`},
		{"registerModels", `{"models": [{"id": "acme-1", "contextWindow": 32000, "maxOutput": 4000, "encoding": "o200k_base"}]}`},
		{"calculateBudget", `{"model": "acme-1-2026-01-01", "sections": {"system": "Hi"}}`},
		{"models", `{"model": "acme-1"}`},
	}
}

// fromVectors turns the shared vectors into calls. A vector names its
// operation ("op"), or its file's name does: chat_* → countChat (the
// request with the vector's model), budget_* → calculateBudget, plan_* →
// planInjection, count_* and tokens_* → countTokens and encode.
func fromVectors(t *testing.T) []call {
	files, _ := filepath.Glob("../testdata/vectors/*.json")
	var out []call
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var vectors []map[string]json.RawMessage
		if err := json.Unmarshal(b, &vectors); err != nil {
			t.Logf("%s: not a list of vectors, skipped: %v", f, err)
			continue
		}
		base := filepath.Base(f)
		for _, v := range vectors {
			var op string
			json.Unmarshal(v["op"], &op)
			switch {
			case op != "":
				out = append(out, call{op, string(v["request"])})
			case strings.HasPrefix(base, "chat"):
				var req map[string]json.RawMessage
				if json.Unmarshal(v["request"], &req) != nil {
					continue
				}
				if m, ok := v["model"]; ok {
					req["model"] = m
				}
				body, _ := json.Marshal(req)
				out = append(out, call{"countChat", string(body)})
			case strings.HasPrefix(base, "budget"):
				out = append(out, call{"calculateBudget", string(v["request"])})
			case strings.HasPrefix(base, "plan"):
				out = append(out, call{"planInjection", string(v["request"])})
			case strings.HasPrefix(base, "count"), strings.HasPrefix(base, "tokens"):
				body, _ := json.Marshal(map[string]json.RawMessage{"text": v["text"], "encoding": v["encoding"]})
				out = append(out, call{"countTokens", string(body)}, call{"encode", string(body)})
			}
		}
	}
	return out
}

// TestHost_LoadCatalogRefused: the host loads core's catalog into its
// instances itself, when a call first needs it; a caller's loadCatalog
// would make pooled instances answer differently, so it is refused, with
// what to do instead, and the catalog's models still resolve.
func TestHost_LoadCatalogRefused(t *testing.T) {
	ctx := context.Background()
	h := sharedHost(t)
	_, err := h.Do(ctx, "loadCatalog", core.CatalogJSON())
	if !errors.Is(err, core.ErrUnknownOperation) || !strings.Contains(err.Error(), "registerModels") {
		t.Errorf("loadCatalog: %v", err)
	}
	out, err := h.Call(ctx, "countChat", []byte(`{"model": "openrouter/qwen/qwen3-coder", "messages": []}`))
	if err != nil || strings.Contains(string(out), `"fallback"`) || !strings.Contains(string(out), `"cost"`) {
		t.Errorf("a catalog model: %s %v", out, err)
	}
}
