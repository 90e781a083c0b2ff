package core

import (
	"encoding/json"
	"strings"
	"testing"
)

// The prices these tests use are the providers' published ones, as the
// pinned catalogs carry them: gpt-4o $2.50 / $1.25 cached / $10 per
// million (OpenAI's pricing page, models.dev); claude-sonnet-4-5 $3 / $0.30
// cache read / $3.75 cache write / $15 (Anthropic's pricing page);
// gemini-2.5-pro $1.25 / $0.125 cached / $10 (Google's, up to 200k tokens).

func TestCost_Prices(t *testing.T) {
	for _, tc := range []struct {
		model                string
		in, cached, write, o float64
	}{
		{"gpt-4o", 2.5, 1.25, 0, 10},
		{"claude-sonnet-4-5", 3, 0.3, 3.75, 15},
		{"gemini-2.5-pro", 1.25, 0.125, 0, 10},
	} {
		m, ok := DefaultRegistry().Lookup(tc.model)
		if !ok || m.Price == nil {
			t.Fatalf("%s: no price", tc.model)
		}
		p := *m.Price
		if p.Input != tc.in || p.CachedInput != tc.cached || p.CacheWrite != tc.write || p.Output != tc.o || p.Source == "" || p.Date == "" {
			t.Errorf("%s: %+v", tc.model, p)
		}
	}
}

// TestCost_Usage prices each provider's usage shape by its documented
// semantics: OpenAI's prompt_tokens and input_tokens include the cached
// tokens and completion_tokens the reasoning ones; Anthropic's input_tokens
// excludes cache reads and writes; Gemini's promptTokenCount includes
// cachedContentTokenCount, and thoughtsTokenCount is billed as output
// beside candidatesTokenCount.
func TestCost_Usage(t *testing.T) {
	for _, tc := range []struct {
		model, usage string
		want         CostTokens
		total        float64
	}{
		{"gpt-4o", `{"prompt_tokens": 1000, "completion_tokens": 200, "total_tokens": 1200, "prompt_tokens_details": {"cached_tokens": 400}}`,
			CostTokens{Input: 600, CachedInput: 400, Output: 200}, 600*2.5e-6 + 400*1.25e-6 + 200*10e-6},
		{"gpt-4o", `{"input_tokens": 1000, "output_tokens": 300, "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 100}}`,
			CostTokens{Input: 1000, Output: 300, Reasoning: 100}, 1000*2.5e-6 + 300*10e-6},
		{"claude-sonnet-4-5", `{"input_tokens": 50, "cache_creation_input_tokens": 2000, "cache_read_input_tokens": 8000, "output_tokens": 500}`,
			CostTokens{Input: 50, CachedInput: 8000, CacheWrite: 2000, Output: 500}, 50*3e-6 + 8000*0.3e-6 + 2000*3.75e-6 + 500*15e-6},
		{"gemini-2.5-pro", `{"promptTokenCount": 1200, "cachedContentTokenCount": 1000, "candidatesTokenCount": 100, "thoughtsTokenCount": 300, "totalTokenCount": 1600}`,
			CostTokens{Input: 200, CachedInput: 1000, Output: 400, Reasoning: 300}, 200*1.25e-6 + 1000*0.125e-6 + 400*10e-6},
		{"gpt-4o", `{"inputTokens": 10, "outputTokens": 5, "cachedInputTokens": 4}`,
			CostTokens{Input: 6, CachedInput: 4, Output: 5}, 6*2.5e-6 + 4*1.25e-6 + 5*10e-6},
		// An aborted stream: what arrived so far.
		{"gpt-4o", `{"prompt_tokens": 10}`, CostTokens{Input: 10}, 10 * 2.5e-6},
	} {
		a, err := DefaultRegistry().PriceUsage(UsageRequest{Model: tc.model, Usage: RawJSON(tc.usage)})
		if err != nil {
			t.Fatal(err)
		}
		if a.Cost == nil || a.Cost.Tokens != tc.want || !near(a.Cost.Total, tc.total) {
			t.Errorf("%s %s: %+v, want %+v total %g", tc.model, tc.usage, a.Cost, tc.want, tc.total)
		}
	}
	for _, bad := range []string{`{"prompt_tokens": -1}`, `{"prompt_tokens": 1.5}`, `{"prompt_tokens": "9"}`, `[]`, `5`} {
		if _, err := DefaultRegistry().PriceUsage(UsageRequest{Model: "gpt-4o", Usage: RawJSON(bad)}); err == nil || Code(err) != CodeInvalidRequest {
			t.Errorf("%s: %v, want invalid_request", bad, err)
		}
	}
	if a, err := DefaultRegistry().PriceUsage(UsageRequest{Model: "acme-9", Usage: RawJSON(`{"prompt_tokens": 9}`)}); err != nil || a.Cost != nil || !a.Fallback {
		t.Errorf("unknown model: %+v %v", a, err)
	}
}

func near(a, b float64) bool { return a-b < 1e-9 && b-a < 1e-9 }

// TestCost_Answers: countTokens, countChat and calculateBudget carry the
// cost of their model, with the cached part and the output reserve.
func TestCost_Answers(t *testing.T) {
	api := NewAPI()
	call := func(op, req string) map[string]any {
		var v map[string]any
		if err := json.Unmarshal(api.Call(op, []byte(req)), &v); err != nil {
			t.Fatal(err)
		}
		return v
	}
	cost := func(v map[string]any) map[string]any {
		c, _ := v["cost"].(map[string]any)
		if c == nil {
			t.Fatalf("no cost in %v", v)
		}
		return c
	}
	// Counted text alone: input only.
	c := cost(call("countTokens", `{"model": "gpt-4o", "text": "Hello world", "cachedTokens": 1}`))
	if c["input"] != 2.5e-6 || c["cachedInput"] != 1.25e-6 || c["output"] != 0.0 {
		t.Errorf("countTokens: %v", c)
	}
	// A chat: its max_tokens at the output price.
	v := call("countChat", `{"model": "gpt-4o", "max_tokens": 100, "messages": [{"role": "user", "content": "Hello world"}]}`)
	c = cost(v)
	if n := v["total"].(float64); !near(c["input"].(float64), n*2.5e-6) || c["output"] != 100*10e-6 {
		t.Errorf("countChat: %v", v)
	}
	// Gemini's output limit, and a null one (as if absent).
	v = call("countChat", `{"model": "gemini-2.5-pro", "generationConfig": {"maxOutputTokens": 50}, "contents": [{"role": "user", "parts": [{"text": "Hi"}]}]}`)
	if c := cost(v); c["tokens"].(map[string]any)["output"] != 50.0 {
		t.Errorf("generationConfig.maxOutputTokens: %v", c)
	}
	v = call("countChat", `{"model": "gpt-4o", "max_tokens": null, "messages": []}`)
	if c := cost(v); c["tokens"].(map[string]any)["output"] != 4096.0 {
		t.Errorf("max_tokens null: %v", c)
	}
	if out := string(api.Call("countChat", []byte(`{"model": "gpt-4o", "max_tokens": -1, "messages": []}`))); !strings.Contains(out, `"field":"max_tokens"`) {
		t.Errorf("max_tokens -1: %s", out)
	}
	// Anthropic's cache breakpoint: system and the first message are cached.
	v = call("countChat", `{"model": "claude-sonnet-4-5", "max_tokens": 10, "system": [{"type": "text", "text": "You are terse.", "cache_control": {"type": "ephemeral"}}],
		"messages": [{"role": "user", "content": [{"type": "text", "text": "A long document", "cache_control": {"type": "ephemeral"}}]}, {"role": "assistant", "content": "ok"}, {"role": "user", "content": "and?"}]}`)
	tokens := cost(v)["tokens"].(map[string]any)
	per := v["perMessage"].([]any)
	if want := v["system"].(float64) + per[0].(float64); tokens["cachedInput"] != want || tokens["input"] != v["total"].(float64)-want {
		t.Errorf("breakpoint: cached %v, want system + first message = %v (%v)", tokens["cachedInput"], want, v)
	}
	// A budget: the request after pruning, and the response reserve.
	v = call("calculateBudget", `{"model": "gpt-4o", "sections": {"system": "Be brief."}, "history": [{"role": "user", "content": "hi"}]}`)
	c = cost(v)
	if !near(c["output"].(float64), v["responseReserve"].(float64)*10e-6) || !near(c["input"].(float64), v["usedAfterPruning"].(float64)*2.5e-6) {
		t.Errorf("calculateBudget: %v", v)
	}
	// No price, no cost.
	if v := call("countTokens", `{"model": "acme-9", "text": "x"}`); v["cost"] != nil {
		t.Errorf("unknown model: %v", v)
	}
}

// TestKinds: the models that take no chat say what they are, and a budget
// for one without a window says so instead of inventing one.
func TestKinds(t *testing.T) {
	for name, kind := range map[string]string{"tts-1": "speech", "whisper-1": "transcription", "gpt-image-1": "image",
		"dall-e-3": "image", "text-embedding-3-small": "embedding", "omni-moderation-latest": "moderation", "sora-2": "video",
		"gpt-4o-transcribe": "transcription", "gpt-4o": ""} {
		m, ok := DefaultRegistry().Lookup(name)
		if !ok || m.Kind != kind {
			t.Errorf("%s: kind %q (found %v), want %q", name, m.Kind, ok, kind)
		}
	}
	out := string(NewAPI().Call("calculateBudget", []byte(`{"model": "tts-1"}`)))
	if !strings.Contains(out, `"invalid_request"`) || !strings.Contains(out, "a speech model") {
		t.Errorf("budget for tts-1: %s", out)
	}
	out = string(NewAPI().Call("calculateBudget", []byte(`{"model": "tts-1", "contextWindow": 4096}`)))
	if !strings.Contains(out, `"kind":"speech"`) {
		t.Errorf("budget for tts-1 with a window: %s", out)
	}
}
