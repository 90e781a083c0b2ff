package core

import (
	"encoding/json"
	"math"
	"strings"
	"testing"
)

func TestAPI_Operations(t *testing.T) {
	a := NewAPI()
	for _, tc := range []struct{ op, req, want string }{
		{"countTokens", `{"text": "Hello world", "model": "gpt-4o"}`, `{"tokens":2,"upperBound":2,"encoding":"o200k_base","model":"gpt-4o","exact":true,"cost":{"currency":"USD","input":0.000005,"output":0,"total":0.000005,"tokens":{"input":2,"output":0},"price":{"input":2.5,"cachedInput":1.25,"output":10,"source":"models.dev","date":"2026-07-02"}}}`},
		{"countTokens", `{"text": "Hello world"}`, `{"tokens":2,"upperBound":2,"encoding":"o200k_base","exact":true}`},
		{"countTokens", `{"text": "Hello world", "model": "acme-9"}`, `{"tokens":2,"upperBound":2,"encoding":"cl100k_base","model":"acme-9","exact":true,"fallback":true,"resolvedBy":"unknown"}`},
		{"countTokens", `{"text": "<|endoftext|>", "encoding": "cl100k_base"}`, `{"tokens":7,"upperBound":7,"encoding":"cl100k_base","exact":true}`},
		{"countTokens", `{"text": "abcdefgh", "encoding": "chars4"}`, `{"tokens":2,"upperBound":3,"encoding":"chars4","exact":false}`},
		{"countTokens", `{"text": "abcdefghi", "encoding": "bytes4"}`, `{"tokens":3,"upperBound":4,"encoding":"bytes4","exact":false}`},
		{"encode", `{"text": "Hello world", "encoding": "o200k_base"}`, `{"ids":[13225,2375],"encoding":"o200k_base","exact":true}`},
		{"decode", `{"ids": [13225, 2375], "encoding": "o200k_base"}`, `{"text":"Hello world","valid":true,"encoding":"o200k_base","exact":true}`},
		// 👍's first two tokens (F0 9F, then 91) are one cut character: one U+FFFD, as tiktoken's decode gives.
		{"decode", `{"ids": [9468, 239], "encoding": "cl100k_base"}`, `{"text":"�","valid":false,"encoding":"cl100k_base","exact":true}`},
		{"withinLimit", `{"text": "Hello world", "limit": 1}`, `{"within":false,"tokens":2,"encoding":"o200k_base","exact":true}`},
		{"truncate", `{"text": "Hello world", "maxTokens": 1}`, `{"text":"Hello","tokens":1,"truncated":true,"encoding":"o200k_base","exact":true}`},
		{"truncate", `{"text": "Hello world", "maxTokens": 1, "keep": "end"}`, `{"text":" world","tokens":1,"truncated":true,"encoding":"o200k_base","exact":true}`},
		{"version", ``, `{"version":"` + Version + `"}`},
		{"countTokens", `{"text": 5}`, `{"error":{"code":"invalid_request","message":"tokenfit: invalid request: text: expected string, got JSON number","field":"text"}}`},
		{"countTokens", `{"text": "x", "encoding": "o300k"}`, `{"error":{"code":"unknown_encoding","message":"tokenfit: unknown encoding \"o300k\" (known: o200k_base, cl100k_base, p50k_base, r50k_base) (heuristics: chars4, bytes4)"}}`},
		{"decode", `{"ids": [999999999], "encoding": "o200k_base"}`, `{"error":{"code":"invalid_token","message":"tokenfit: invalid token: 999999999 at index 0 is not a o200k_base token"}}`},
		{"nope", `{}`, ``},
		{"countTokens", `{"text": "x"`, ``},
		{"countTokens", `[1,2]`, ``},
		{"encode", `{"text": "x", "model": "claude-sonnet-4-5"}`, ``},
	} {
		got := string(a.Call(tc.op, []byte(tc.req)))
		if tc.want == "" {
			var e ErrorAnswer
			if json.Unmarshal([]byte(got), &e) != nil || e.Error.Code == "" || e.Error.Message == "" {
				t.Errorf("%s %s = %s, want an error", tc.op, tc.req, got)
			}
			continue
		}
		if got != tc.want {
			t.Errorf("%s %s\n got %s\nwant %s", tc.op, tc.req, got, tc.want)
		}
	}
}

func TestAPI_RegisterModels(t *testing.T) {
	a := NewAPI()
	out := string(a.Call("registerModels", []byte(`{"models": [{"id": "acme-1", "contextWindow": 32000, "maxOutput": 4000, "encoding": "o200k_base"}]}`)))
	if strings.Contains(out, "error") {
		t.Fatal(out)
	}
	got := string(a.Call("calculateBudget", []byte(`{"model": "acme-1-2026-01-01"}`)))
	if !strings.Contains(got, `"contextWindow":32000`) || strings.Contains(got, `"fallback"`) {
		t.Errorf("budget after registering: %s", got)
	}
	// A bad registration names the field and changes nothing.
	out = string(a.Call("registerModels", []byte(`{"models": [{"id": "bad", "contextWindow": 0, "encoding": "o200k_base"}]}`)))
	if !strings.Contains(out, `"field":"models[0].contextWindow"`) {
		t.Errorf("bad registration: %s", out)
	}
	// The default registry is untouched.
	if _, ok := DefaultRegistry().Lookup("acme-1"); ok {
		t.Error("registerModels changed the default registry")
	}
}

// TestAPI_ModelsAnswerRegistersBack: the models answer, given back to a
// fresh API as one registration, rebuilds the registry it lists (the same
// models answer, byte for byte): the npm package carries what registrations
// added up to into another module that way (js/src/upgrade.js).
func TestAPI_ModelsAnswerRegistersBack(t *testing.T) {
	a := NewAPI()
	for _, req := range []string{
		`{"models": [{"id": "acme-1", "contextWindow": 32000, "maxOutput": 4000, "encoding": "o200k_base", "aliases": ["acme"]}]}`,
		`{"estimators": {"acme": {"base": "cl100k_base", "ratio": 1.1, "errorBound": 0.15, "note": "n"}}, "models": [{"id": "acme-2", "contextWindow": 8000, "estimator": "acme", "reasoning": true}]}`,
		`{"models": [{"id": "ACME-1", "contextWindow": 64000, "encoding": "cl100k_base"}, {"id": "acme-1", "contextWindow": 16000, "maxInput": 1000, "encoding": "p50k_base"}]}`,
		`{"models": [{"id": "gpt-4o", "contextWindow": 1000, "encoding": "o200k_base", "tokenizer": "hf:x/y", "chatTemplate": "qwen3"}]}`,
		`{"estimators": {"claude": {"base": "o200k_base", "ratio": 1.3333333333333333, "errorBound": 0.2}}}`,
	} {
		if out := a.Call("registerModels", []byte(req)); strings.Contains(string(out), "error") {
			t.Fatal(req, string(out))
		}
	}
	want := a.Call("models", []byte(`{}`))
	var answer struct {
		Models     []json.RawMessage          `json:"models"`
		Estimators map[string]json.RawMessage `json:"estimators"`
	}
	if err := json.Unmarshal(want, &answer); err != nil {
		t.Fatal(err)
	}
	back, _ := json.Marshal(answer)
	b := NewAPI()
	if out := b.Call("registerModels", back); strings.Contains(string(out), "error") {
		t.Fatal(string(out))
	}
	if got := b.Call("models", []byte(`{}`)); string(got) != string(want) {
		t.Errorf("registered back:\n got %s\nwant %s", got, want)
	}
}

func TestAPI_Models(t *testing.T) {
	a := NewAPI()
	out := string(a.Call("models", []byte(`{"model": "gpt-4o-2024-08-06"}`)))
	for _, want := range []string{`"id":"gpt-4o"`, `"contextWindow":128000`, `"maxOutput":16384`, `"responseReserve":4096`, `"effectiveInputBudget":117504`} {
		if !strings.Contains(out, want) {
			t.Errorf("models gpt-4o: %s lacks %s", out, want)
		}
	}
	out = string(a.Call("models", []byte(`{"model": "o3"}`)))
	if !strings.Contains(out, `"responseReserve":25000`) {
		t.Errorf("a reasoning model reserves 25,000: %s", out)
	}
}

func TestAPI_ChatAndPlan(t *testing.T) {
	a := NewAPI()
	out := string(a.Call("countChat", []byte(`{"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello world"}], "temperature": 0.2}`)))
	// 3 per message + "user" (1) + "Hello world" (2) + 3 reply priming.
	if !strings.Contains(out, `"total":9,"upperBound":9,`) || !strings.Contains(out, `"exact":true`) {
		t.Errorf("countChat: %s", out)
	}
	// An estimate's bound: Claude's estimator allows 20 %.
	out = string(a.Call("countChat", []byte(`{"model": "claude-sonnet-4-5", "messages": [{"role": "user", "content": "Hello world, and a few more words to count"}]}`)))
	var est ChatAnswer
	if err := json.Unmarshal([]byte(out), &est); err != nil {
		t.Fatal(out, err)
	}
	if want := int(math.Ceil(float64(est.Total) * 1.2)); est.Exact || est.UpperBound != want || want <= est.Total {
		t.Errorf("countChat for claude: exact %v, upper bound %d, want %d (total %d)", est.Exact, est.UpperBound, want, est.Total)
	}
	out = string(a.Call("countChat", []byte(`{"model": "gpt-4o", "messages": [{"role": "user", "content": [{"type": "video"}]}]}`)))
	if !strings.Contains(out, `"field":"messages[0].content[0].type"`) {
		t.Errorf("countChat bad part: %s", out)
	}
	out = string(a.Call("planInjection", []byte(`{"model": "gpt-4o", "budget": 500, "items": [
		{"id": "a", "name": "no-secrets", "kind": "constraint", "activation": 0.05, "content": "Never print secrets.", "summary": "No secrets."},
		{"id": "b", "name": "tests", "kind": "directive", "tags": ["go"], "activation": 0.2, "content": "Write table tests."}]}`)))
	for _, want := range []string{`"tier":"summary"`, `"tier":"nameOnly"`, "`tests` [directive] #go", `"encoding":"o200k_base"`} {
		if !strings.Contains(out, want) {
			t.Errorf("planInjection lacks %s: %s", want, out)
		}
	}
}

func TestAPI_Live(t *testing.T) {
	a := NewAPI()
	out := string(a.Call("liveNew", []byte(`{"model": "gpt-4o", "text": "Hello"}`)))
	if out != `{"id":1,"tokens":1,"length":5,"encoding":"o200k_base","model":"gpt-4o","exact":true}` {
		t.Fatalf("liveNew: %s", out)
	}
	out = string(a.Call("liveEdit", []byte(`{"id": 1, "at": 5, "insert": " world 😀"}`)))
	if out != `{"id":1,"tokens":3,"length":14,"encoding":"o200k_base","exact":true}` {
		t.Errorf("liveEdit: %s", out)
	}
	// Inside the surrogate pair of 😀: an error, and the counter is unchanged.
	out = string(a.Call("liveEdit", []byte(`{"id": 1, "at": 13, "delete": 1}`)))
	if !strings.Contains(out, `"code":"invalid_request"`) {
		t.Errorf("liveEdit in a surrogate pair: %s", out)
	}
	out = string(a.Call("liveGet", []byte(`{"id": 1}`)))
	if !strings.Contains(out, `"text":"Hello world 😀"`) || !strings.Contains(out, `"tokens":3`) {
		t.Errorf("liveGet: %s", out)
	}
	a.Call("liveFree", []byte(`{"id": 1}`))
	if out = string(a.Call("liveEdit", []byte(`{"id": 1, "at": 0}`))); !strings.Contains(out, `"field":"id"`) {
		t.Errorf("edit after free: %s", out)
	}
}

func TestAPI_ChunkAndCalibrate(t *testing.T) {
	a := NewAPI()
	out := string(a.Call("chunk", []byte(`{"text": "One. Two. Three. Four.", "maxTokens": 4}`)))
	if !strings.Contains(out, `"chunks":[{"text":"One. Two.","start":0,"end":9,"tokens":4,"cut":"sentence"}`) {
		t.Errorf("chunk: %s", out)
	}
	out = string(a.Call("calibrate", []byte(`{"model": "claude-sonnet-4-5", "estimate": 100, "reported": 110}`)))
	if !strings.Contains(out, `"model":"claude-sonnet-4-5"`) || !strings.Contains(out, `"factor":1.1`) {
		t.Errorf("calibrate: %s", out)
	}
	// The state goes back in with the next count.
	var cal struct {
		Calibration json.RawMessage `json:"calibration"`
	}
	json.Unmarshal([]byte(out), &cal)
	plain := string(a.Call("countTokens", []byte(`{"model": "claude-sonnet-4-5", "text": "Hello there, how are you today?"}`)))
	calibrated := string(a.Call("countTokens", []byte(`{"model": "claude-sonnet-4-5", "text": "Hello there, how are you today?", "calibration": `+string(cal.Calibration)+`}`)))
	if plain == calibrated || !strings.Contains(calibrated, `+calibrated`) {
		t.Errorf("calibration not applied:\n%s\n%s", plain, calibrated)
	}
}
