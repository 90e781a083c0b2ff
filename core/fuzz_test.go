package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/internal/hostile"
)

// Fuzz targets. `make fuzz` runs each for a while (FUZZTIME, default 1m);
// inputs that found bugs stay in testdata/fuzz/ as seeds and run in every
// `go test`.

// FuzzAPI feeds any bytes to every operation: the answer is always JSON, an
// answer or a typed error, and the API keeps answering.
func FuzzAPI(f *testing.F) {
	for _, s := range []string{`{}`, `{"text": "Hello world", "model": "gpt-4o"}`, `[]`, `null`, `{"text": 5}`,
		`{"messages": [{"role": "user", "content": [{"type": "text", "text": "x"}]}]}`, `{"items": [{"id": "a", "activation": 2}]}`,
		`{"history": [{"role": "tool", "tool_call_id": "x"}], "contextWindow": 10}`, `{"ids": [-1, 1e30]}`, `{"maxTokens": -1}`,
		`{"text": "a", "maxTokens": 1, "overlap": 0}`, `{"model": "x", "estimate": 1, "reported": 1e300}`, "\xff\xfe", `{"a":` + strings.Repeat("[", 100)} {
		f.Add(s, uint8(0))
	}
	a := NewAPI()
	ops := OperationNames()
	// A valid request of every operation, for the fuzzer to mutate.
	for _, b := range hostile.Bases {
		f.Add(b.Request, uint8(slices.Index(ops, b.Op)))
	}
	f.Fuzz(func(t *testing.T, req string, op uint8) {
		name := ops[int(op)%len(ops)]
		out := a.Call(name, []byte(req))
		var v map[string]any
		if err := json.Unmarshal(out, &v); err != nil {
			t.Fatalf("%s(%q) = %q: not JSON", name, req, out)
		}
		if e, ok := v["error"].(map[string]any); ok && e["code"] == CodeInternal {
			t.Fatalf("%s(%q): internal error %v", name, req, e["message"])
		}
		if got := string(a.Call("countTokens", []byte(`{"text": "Hello world"}`))); !strings.Contains(got, `"tokens":2`) {
			t.Fatalf("after %s(%q) the API answers %s", name, req, got)
		}
	})
}

// FuzzBudget checks the budget's invariants on random requests.
func FuzzBudget(f *testing.F) {
	f.Add(uint64(1), 2000, 20, 300)
	f.Add(uint64(2), 150000, 200, 8192)
	f.Fuzz(func(t *testing.T, seed uint64, window, messages, reserve int) {
		rng := rand.New(rand.NewPCG(seed, 7))
		window = 100 + abs(window)%200000
		reserve = abs(reserve) % window
		req := BudgetRequest{ContextWindow: &window, OutputReserve: &reserve, KeepFrom: 0,
			Limits: Limits{MinHistoryTokens: ptr(rng.IntN(600))}}
		req.Sections.System = Section{Texts: []string{strings.Repeat("rule ", rng.IntN(200))}}
		req.Sections.Knowledge = Section{Texts: []string{strings.Repeat("fact ", rng.IntN(4000))}}
		req.Sections.Current = Section{Texts: []string{"question?"}}
		req.History = randomHistory(rng, abs(messages)%120)
		b, err := CalculateBudget(DefaultRegistry(), req)
		if err != nil {
			var fe *FieldError
			if errors.As(err, &fe) {
				return
			}
			t.Fatal(err)
		}
		checkBudget(t, req, b)
	})
}

func abs(x int) int {
	if x < 0 {
		if x == -x {
			return 0
		}
		return -x
	}
	return x
}

func randomHistory(rng *rand.Rand, n int) History {
	var h History
	open := 0
	for i := 0; i < n; i++ {
		switch {
		case rng.IntN(12) == 0:
			h = append(h, ChatMessage{Role: "system", Content: text("pinned " + strings.Repeat("x ", rng.IntN(30)))})
		case rng.IntN(5) == 0:
			k := 1 + rng.IntN(3)
			var calls []ToolCall
			for j := range k {
				calls = append(calls, ToolCall{ID: fmt.Sprint("c", i, j), Type: "function", Function: FunctionCall{Name: "f", Arguments: "{}"}})
			}
			h = append(h, ChatMessage{Role: "assistant", ToolCalls: calls})
			for j := range k {
				h = append(h, ChatMessage{Role: "tool", ToolCallID: fmt.Sprint("c", i, j), Content: text(strings.Repeat("result ", rng.IntN(80)))})
			}
			open++
		default:
			role := []string{"user", "assistant"}[rng.IntN(2)]
			h = append(h, ChatMessage{Role: role, Content: text(strings.Repeat("word ", rng.IntN(120)))})
		}
	}
	return h
}

// checkBudget asserts the invariants of an answer.
func checkBudget(t *testing.T, req BudgetRequest, b Budget) {
	t.Helper()
	if b.InputBudget != max(0, b.ContextWindow-b.ResponseReserve-b.SafetyBuffer) {
		t.Fatalf("inputBudget %d ≠ window %d − reserve %d − safety %d", b.InputBudget, b.ContextWindow, b.ResponseReserve, b.SafetyBuffer)
	}
	// Sections, reserves and kept history fit the window unless the answer
	// says it overflows, which only the floors (fixed sections, min history)
	// can cause.
	used := b.FixedTokens + b.History.KeptTokens
	if used+b.ResponseReserve+b.SafetyBuffer > b.ContextWindow && b.OverflowTokens == 0 {
		t.Fatalf("uses %d + reserves > window %d without overflow", used, b.ContextWindow)
	}
	if b.OverflowTokens > 0 && len(b.History.Dropped) > 0 {
		// Something was dropped yet it overflows: only allowed when the
		// floor (min history) stopped the pruning or fixed sections alone overflow.
		kept := 0
		for _, i := range b.History.Kept {
			if req.History[i].Role != "system" && req.History[i].Role != "developer" {
				kept += b.History.PerMessage[i]
			}
		}
		if kept > *req.Limits.MinHistoryTokens+maxTurn(req.History, b.History.PerMessage) && b.FixedTokens < b.InputBudget {
			t.Fatalf("overflows by %d with %d unpinned tokens kept (floor %d)", b.OverflowTokens, kept, *req.Limits.MinHistoryTokens)
		}
	}
	kept := map[int]bool{}
	for _, i := range b.History.Kept {
		kept[i] = true
	}
	if len(b.History.Kept)+len(b.History.Dropped) != len(req.History) {
		t.Fatalf("kept %d + dropped %d ≠ %d messages", len(b.History.Kept), len(b.History.Dropped), len(req.History))
	}
	for i, m := range req.History {
		if (m.Role == "system" || m.Role == "developer") && !kept[i] {
			t.Fatalf("pinned message %d dropped", i)
		}
		if m.Role == "tool" && i > 0 && kept[i] != kept[i-1] {
			t.Fatalf("tool result %d split from its call (kept %v, before it %v)", i, kept[i], kept[i-1])
		}
	}
	for _, i := range b.History.Summarize {
		if !kept[i] {
			t.Fatalf("proposes to summarize dropped message %d", i)
		}
	}
	if b.Utilization < 0 || b.MemoryTokens < 0 || b.MemoryTokens > b.InputBudget {
		t.Fatalf("utilization %v memory %d", b.Utilization, b.MemoryTokens)
	}
}

// maxTurn is the largest atom's tokens: pruning stops a whole atom short.
func maxTurn(h History, per []int) int {
	m, cur := 0, 0
	for i := range h {
		if i > 0 && h[i].Role != "tool" {
			cur = 0
		}
		cur += per[i]
		m = max(m, cur)
	}
	return m
}

// FuzzChunk checks chunks on arbitrary text.
func FuzzChunk(f *testing.F) {
	f.Add("Hello world. This is a test.\n\nNew paragraph.", 5, 1)
	f.Add("😀😀😀\n\n漢字", 1, 0)
	f.Add("DON'T I'M He'S", 1, 0) // " I'": one token of the whole text, two on its own
	f.Add("DON'T I'M He'S", 2, 1)
	f.Fuzz(func(t *testing.T, text string, maxTokens, overlap int) {
		maxTokens = 1 + abs(maxTokens)%200
		overlap = abs(overlap) % (maxTokens/2 + 1)
		req := ChunkRequest{Text: text, MaxTokens: maxTokens, Overlap: overlap}
		a, err := DefaultRegistry().Chunk(req)
		if err != nil {
			t.Fatal(err)
		}
		enc, _ := GetEncoding(DefaultEncoding)
		checkChunks(t, "fuzz", enc, text, req, a)
	})
}

// FuzzValidUTF8 holds the one rule for bytes that are not UTF-8 (each
// becomes U+FFFD first): for any bytes, Count equals len(Encode), the JSON
// API's count of the same bytes in a string, WithinLimit, Truncate, a live
// counter and the chunks; and decode gives back ValidUTF8 of the text.
func FuzzValidUTF8(f *testing.F) {
	for _, s := range []string{"\x80\x80\x80", "caf\xc3", "a\xffb \xe2\x82 end", "\xed\xa0\x80", "ok \ufffd\xff", "\xf0\x9f\x98"} {
		f.Add(s, uint8(0))
	}
	a := NewAPI()
	f.Fuzz(func(t *testing.T, text string, which uint8) {
		name := EncodingNames()[int(which)%len(EncodingNames())]
		e, err := GetEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		n := e.Count(text)
		ids := e.Encode(text)
		if len(ids) != n {
			t.Fatalf("%s %q: Count %d, Encode %d ids", name, text, n, len(ids))
		}
		body, _ := json.Marshal(map[string]string{"text": text, "encoding": name})
		var got CountAnswer
		if err := json.Unmarshal(a.Call("countTokens", body), &got); err != nil || got.Tokens != n {
			t.Fatalf("%s %q: countTokens %+v (%v), Count %d", name, text, got, err, n)
		}
		if c, ok := e.WithinLimit(text, n); c != n || !ok {
			t.Fatalf("%s %q: WithinLimit %d %v, Count %d", name, text, c, ok, n)
		}
		if part, c := e.Truncate(text, n, KeepStart); c != n || part != ValidUTF8(text) {
			t.Fatalf("%s %q: Truncate kept %q (%d tokens), Count %d", name, text, part, c, n)
		}
		if c := e.NewLiveCounter(Bytes).Reset(text); c != n {
			t.Fatalf("%s %q: live %d, Count %d", name, text, c, n)
		}
		dec, err := e.Decode(ids)
		if err != nil || dec != ValidUTF8(text) {
			t.Fatalf("%s %q: Decode(Encode) = %q, want %q", name, text, dec, ValidUTF8(text))
		}
	})
}
