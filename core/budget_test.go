package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

func budgetOf(t *testing.T, req string) Budget {
	t.Helper()
	var r BudgetRequest
	if err := decodeJSON([]byte(req), &r); err != nil {
		t.Fatalf("decode %s: %v", req, err)
	}
	b, err := CalculateBudget(DefaultRegistry(), r)
	if err != nil {
		t.Fatalf("CalculateBudget(%s): %v", req, err)
	}
	return b
}

// TestBudget_Seeds reproduces the numbers of both seed documents exactly.
func TestBudget_Seeds(t *testing.T) {
	t.Run("memory-budget-formula", func(t *testing.T) {
		b := budgetOf(t, `{"contextWindow": 150000, "outputReserve": 8192, "sections": {
			"system": {"tokens": 1200}, "procedure": {"tokens": 300}, "knowledge": {"tokens": 1500},
			"episodes": {"tokens": 400}, "current": {"tokens": 100}}}`)
		if b.HistoryBudget != 138308 {
			t.Errorf("historyBudget = %d, want 138,308", b.HistoryBudget)
		}
		if b.SafetyBuffer != 0 || b.ResponseReserve != 8192 {
			t.Errorf("reserve %d, safety %d; want 8,192 and 0", b.ResponseReserve, b.SafetyBuffer)
		}
	})
	t.Run("memory-budget-formula defaults", func(t *testing.T) {
		b := budgetOf(t, `{"sections": {"knowledge": {"tokens": 5000}, "episodes": {"tokens": 1500}}}`)
		if b.ContextWindow != 100000 || b.ResponseReserve != 4096 {
			t.Errorf("window %d, reserve %d; want 100,000 and 4,096", b.ContextWindow, b.ResponseReserve)
		}
		if k := b.Sections["knowledge"]; k.Tokens != 3000 || !k.Truncated || k.OriginalTokens != 5000 {
			t.Errorf("knowledge = %+v, want capped at 3,000 from 5,000", k)
		}
		if e := b.Sections["episodes"]; e.Tokens != 1000 || !e.Truncated {
			t.Errorf("episodes = %+v, want capped at 1,000", e)
		}
	})
	for _, tc := range []struct {
		model           string
		window, reserve int
		safety          int
		encoding        string
		fallback        bool
	}{
		{"gpt-4o", 128000, 4096, 6400, "o200k_base", false},
		{"gpt-4o-mini", 128000, 4096, 6400, "o200k_base", false},
		{"gpt-4-turbo", 128000, 4096, 6400, "cl100k_base", false},
		{"gpt-4", 8192, 1228, 409, "cl100k_base", false},
		{"gpt-3.5-turbo", 16385, 2457, 819, "cl100k_base", false},
		{"gpt-3.5-turbo-16k", 16385, 2457, 819, "cl100k_base", false},
		{"my-fine-tune", 8192, 1228, 409, "cl100k_base", true},
		{"tiny", 8192, 1228, 409, "cl100k_base", true},
	} {
		t.Run("budget-calculator-milestone/"+tc.model, func(t *testing.T) {
			b := budgetOf(t, fmt.Sprintf(`{"model": %q}`, tc.model))
			if b.ContextWindow != tc.window || b.ResponseReserve != tc.reserve || b.SafetyBuffer != tc.safety {
				t.Errorf("window/reserve/safety = %d/%d/%d, want %d/%d/%d",
					b.ContextWindow, b.ResponseReserve, b.SafetyBuffer, tc.window, tc.reserve, tc.safety)
			}
			if b.Encoding != tc.encoding || b.Fallback != tc.fallback {
				t.Errorf("encoding %s fallback %v, want %s %v", b.Encoding, b.Fallback, tc.encoding, tc.fallback)
			}
			if b.MemoryTokens != tc.window-tc.reserve-tc.safety {
				t.Errorf("memoryTokens = %d with nothing sent", b.MemoryTokens)
			}
		})
	}
	t.Run("reserve clamps at 500", func(t *testing.T) {
		b := budgetOf(t, `{"contextWindow": 2000}`)
		if b.ResponseReserve != 500 || b.SafetyBuffer != 100 {
			t.Errorf("reserve %d safety %d, want 500 and 100", b.ResponseReserve, b.SafetyBuffer)
		}
	})
	t.Run("memory is 0 when messages fill the window", func(t *testing.T) {
		var msgs []string
		for range 200 {
			msgs = append(msgs, fmt.Sprintf(`{"role": "user", "content": %q}`, strings.Repeat("lorem ipsum ", 40)))
		}
		b := budgetOf(t, `{"model": "gpt-4", "history": [`+strings.Join(msgs, ",")+`]}`)
		if b.MemoryTokens != 0 || !b.IsConstrained || b.Alert != "critical" {
			t.Errorf("memory %d constrained %v alert %s; want 0, true, critical", b.MemoryTokens, b.IsConstrained, b.Alert)
		}
	})
	t.Run("directive counted in full", func(t *testing.T) {
		directive := strings.Repeat("Always answer in French. ", 100)
		b := budgetOf(t, fmt.Sprintf(`{"model": "gpt-4o", "directive": %q}`, directive))
		enc, _ := GetEncoding("o200k_base")
		if b.Directive != enc.Count(directive) {
			t.Errorf("directive = %d, want %d", b.Directive, enc.Count(directive))
		}
		if b.MemoryTokens != 128000-4096-6400-b.Directive {
			t.Errorf("memoryTokens = %d", b.MemoryTokens)
		}
	})
	t.Run("constrained below 1,000", func(t *testing.T) {
		b := budgetOf(t, `{"model": "gpt-4", "sections": {"system": {"tokens": 5600}}}`)
		if b.MemoryTokens != 8192-1228-409-5600 || !b.IsConstrained {
			t.Errorf("memory %d constrained %v", b.MemoryTokens, b.IsConstrained)
		}
	})
}

func TestBudget_CountHelloWorld(t *testing.T) {
	res, err := DefaultRegistry().Resolve("gpt-4o")
	if err != nil {
		t.Fatal(err)
	}
	if n := res.Tokenizer.Count("Hello world"); n != 2 {
		t.Errorf(`count("Hello world", gpt-4o) = %d, want 2`, n)
	}
}

func TestBudget_SectionTruncation(t *testing.T) {
	enc, _ := GetEncoding("o200k_base")
	long := strings.Repeat("The quick brown fox jumps over the lazy dog. ", 200)
	b := budgetOf(t, fmt.Sprintf(`{"sections": {"knowledge": %q}, "limits": {"maxKnowledgeTokens": 100}}`, long))
	k := b.Sections["knowledge"]
	if !k.Truncated || k.Tokens > 100 || k.Tokens < 95 || enc.Count(k.Text) != k.Tokens || !strings.HasPrefix(long, k.Text) {
		t.Errorf("knowledge = %d tokens (truncated %v), text %d tokens", k.Tokens, k.Truncated, enc.Count(k.Text))
	}
	if k.OriginalTokens != enc.Count(long) {
		t.Errorf("originalTokens = %d, want %d", k.OriginalTokens, enc.Count(long))
	}
	// A list keeps whole items first.
	b = budgetOf(t, `{"sections": {"episodes": ["`+strings.Repeat("a b ", 300)+`", "short", "more"]}, "limits": {"maxEpisodeTokens": 400}}`)
	e := b.Sections["episodes"]
	if !e.Truncated || e.KeptItems == nil || *e.KeptItems != 1 || e.Tokens > 400 {
		t.Errorf("episodes = %+v", e)
	}
}

func TestBudget_Errors(t *testing.T) {
	for _, tc := range []struct{ req, field string }{
		{`{"contextWindow": -5}`, "contextWindow"},
		{`{"contextWindow": 1000, "outputReserve": 1000}`, "outputReserve"},
		{`{"sections": {"system": 5}}`, "sections.system"},
		{`{"sections": {"knowlege": "x"}}`, "sections.knowlege"},
		{`{"sections": {"current": {"tokens": -1}}}`, "sections.current.tokens"},
		{`{"limits": {"minHistoryTokens": -1}}`, "limits.minHistoryTokens"},
		{`{"keepFrom": 3}`, "keepFrom"},
		{`{"alerts": {"warning": 0.95, "critical": 0.9}}`, "alerts"},
		{`{"reserve": {"ratio": 1.5}}`, "reserve.ratio"},
		{`{"encoding": "nope"}`, ""},
		{`{"history": [{"role": "user", "content": 5}]}`, "history[0].content"},
		{`{"history": [{"role": "wizard", "content": "x"}]}`, "history[0].role"},
	} {
		var r BudgetRequest
		err := decodeJSON([]byte(tc.req), &r)
		if err == nil {
			_, err = CalculateBudget(DefaultRegistry(), r)
		}
		var fe *FieldError
		switch {
		case err == nil:
			t.Errorf("%s: no error", tc.req)
		case tc.field == "":
			if !errors.Is(err, ErrUnknownEncoding) {
				t.Errorf("%s: %v, want unknown encoding", tc.req, err)
			}
		case !errors.As(err, &fe) || fe.Field != tc.field:
			t.Errorf("%s: %v, want a field error on %s", tc.req, err, tc.field)
		}
	}
}

// history builds n user/assistant messages of about size tokens each.
func history(n int, words int) History {
	var h History
	for i := range n {
		role := "user"
		if i%2 == 1 {
			role = "assistant"
		}
		h = append(h, ChatMessage{Role: role, Content: text(fmt.Sprintf("message %d: %s", i, strings.Repeat("word ", words)))})
	}
	return h
}

func TestBudget_PruningHysteresis(t *testing.T) {
	reg := DefaultRegistry()
	req := BudgetRequest{ContextWindow: ptr(4000), OutputReserve: ptr(500), Limits: Limits{MinHistoryTokens: ptr(200)}}
	keepFrom := 0
	var starts []int
	for turn := 10; turn <= 120; turn++ {
		req.History = history(turn, 40)
		req.KeepFrom = keepFrom
		b, err := CalculateBudget(reg, req)
		if err != nil {
			t.Fatal(err)
		}
		if b.History.KeptTokens > b.HistoryBudget {
			t.Fatalf("turn %d: kept %d > budget %d", turn, b.History.KeptTokens, b.HistoryBudget)
		}
		if b.History.KeepFrom != keepFrom {
			starts = append(starts, b.History.KeepFrom)
		}
		keepFrom = b.History.KeepFrom
	}
	// ~47 tokens a message, a 3,500-token history budget: the start should
	// move a few times in big steps, not on every turn.
	if len(starts) == 0 || len(starts) > 10 {
		t.Errorf("the kept prefix moved %d times: %v", len(starts), starts)
	}
}

func TestBudget_ToolPairsStayTogether(t *testing.T) {
	var h History
	h = append(h, ChatMessage{Role: "system", Content: text("pinned rules")})
	call := func(id string) ToolCall {
		return ToolCall{ID: id, Type: "function", Function: FunctionCall{Name: "lookup", Arguments: `{"q":"x"}`}}
	}
	for i := range 30 {
		h = append(h,
			ChatMessage{Role: "user", Content: text(strings.Repeat("ask ", 30))},
			ChatMessage{Role: "assistant", ToolCalls: []ToolCall{call(fmt.Sprint("a", i)), call(fmt.Sprint("b", i))}},
			ChatMessage{Role: "tool", ToolCallID: fmt.Sprint("a", i), Content: text(strings.Repeat("result ", 30))},
			ChatMessage{Role: "tool", ToolCallID: fmt.Sprint("b", i), Content: text(strings.Repeat("result ", 30))},
			ChatMessage{Role: "assistant", Content: text(strings.Repeat("answer ", 20))})
	}
	b, err := CalculateBudget(DefaultRegistry(), BudgetRequest{ContextWindow: ptr(3000), OutputReserve: ptr(200), History: h, Limits: Limits{MinHistoryTokens: ptr(500)}})
	if err != nil {
		t.Fatal(err)
	}
	kept := map[int]bool{}
	for _, i := range b.History.Kept {
		kept[i] = true
	}
	if !kept[0] {
		t.Error("the pinned system message was dropped")
	}
	if len(b.History.Dropped) == 0 {
		t.Fatal("nothing was dropped")
	}
	for i, m := range h {
		if m.Role == "tool" && kept[i] != kept[i-1] && h[i-1].Role == "assistant" {
			t.Errorf("message %d (tool result) kept=%v but its call kept=%v", i, kept[i], kept[i-1])
		}
		if m.Role == "tool" && h[i-1].Role == "tool" && kept[i] != kept[i-1] {
			t.Errorf("tool results %d and %d split", i-1, i)
		}
	}
}

func TestBudget_SummarizeProposal(t *testing.T) {
	// 75% full: warning, and the oldest turns are proposed.
	req := BudgetRequest{ContextWindow: ptr(10000), OutputReserve: ptr(1000), History: history(150, 40), Limits: Limits{MinHistoryTokens: ptr(500)}}
	b, err := CalculateBudget(DefaultRegistry(), req)
	if err != nil {
		t.Fatal(err)
	}
	if b.Alert == "none" || len(b.History.Summarize) == 0 {
		t.Fatalf("alert %s, utilization %.2f, summarize %v", b.Alert, b.UtilizationAfter, b.History.Summarize)
	}
	if b.History.Summarize[0] != b.History.KeepFrom {
		t.Errorf("proposal starts at %d, want the oldest kept message %d", b.History.Summarize[0], b.History.KeepFrom)
	}
	after := float64(b.UsedAfterPruning-b.History.SummarizeTokens) / float64(b.InputBudget)
	if after > DefaultSummarizeTarget+0.05 {
		t.Errorf("summarizing frees %d tokens, leaving %.2f", b.History.SummarizeTokens, after)
	}
	last := b.History.Summarize[len(b.History.Summarize)-1]
	if last >= len(req.History)-DefaultKeepRecent {
		t.Errorf("proposal reaches the %d most recent messages", DefaultKeepRecent)
	}
}

func TestBudget_EstimatedModelUsesUpperBound(t *testing.T) {
	text := strings.Repeat("Budgets subtract the upper bound of an estimate. ", 50)
	b := budgetOf(t, fmt.Sprintf(`{"model": "claude-sonnet-4-5", "sections": {"system": %q}}`, text))
	enc, _ := GetEncoding("o200k_base")
	if b.Exact || b.Sections["system"].Tokens <= enc.Count(text) {
		t.Errorf("exact %v, system %d tokens vs o200k %d", b.Exact, b.Sections["system"].Tokens, enc.Count(text))
	}
	if b.ContextWindow != 200000 {
		t.Errorf("window %d", b.ContextWindow)
	}
}

func TestBudget_JSONShape(t *testing.T) {
	b := budgetOf(t, `{"model": "gpt-4o", "history": [{"role": "user", "content": "hi"}]}`)
	out, err := json.Marshal(b)
	if err != nil {
		t.Fatal(err)
	}
	for _, field := range []string{`"historyBudget"`, `"responseReserve"`, `"safetyBuffer"`, `"memoryTokens"`,
		`"isConstrained"`, `"utilization"`, `"alert"`, `"kept"`, `"dropped"`, `"summarize"`} {
		if !strings.Contains(string(out), field) {
			t.Errorf("answer lacks %s: %s", field, out)
		}
	}
}

func ptr[T any](v T) *T { return &v }

func text(s string) ChatContent { return ChatContent{Text: s} }

// TestBudget_Explains: a budget that overflows names the parts at fault and
// what would make it fit, in the order to try; one that fits has no remedy.
func TestBudget_Explains(t *testing.T) {
	history := func(n int) string {
		var msgs []string
		for i := range n {
			role := []string{"user", "assistant"}[i%2]
			msgs = append(msgs, fmt.Sprintf(`{"role": %q, "content": %q}`, role, strings.Repeat("word ", 30)))
		}
		return "[" + strings.Join(msgs, ", ") + "]"
	}
	actions := func(b Budget) []string {
		var out []string
		for _, r := range b.Remedies {
			out = append(out, r.Action+":"+r.Section+r.Model)
		}
		return out
	}

	t.Run("fits", func(t *testing.T) {
		b := budgetOf(t, `{"model": "gpt-4o", "sections": {"system": "Be brief.", "current": "Hi"}, "history": `+history(6)+`}`)
		if b.Remedies == nil || len(b.Remedies) != 0 || b.FixedOverflowTokens != 0 || b.OverflowSections != nil || b.MinHistoryExcess != 0 {
			t.Errorf("a budget that fits: remedies %v, fixed overflow %d %v, min excess %d", b.Remedies, b.FixedOverflowTokens, b.OverflowSections, b.MinHistoryExcess)
		}
	})

	// The 1 MB current message on gpt-4o: the fixed parts alone
	// overflow; summarizing is no cure, cutting the current message is.
	t.Run("fixed parts overflow", func(t *testing.T) {
		b := budgetOf(t, `{"model": "gpt-4o", "sections": {"system": "Be brief.", "knowledge": {"tokens": 2000}, "current": {"tokens": 290000}},
			"history": `+history(120)+`}`)
		if b.HistoryBudget >= 0 || b.FixedOverflowTokens != -b.HistoryBudget {
			t.Fatalf("historyBudget %d, fixedOverflowTokens %d", b.HistoryBudget, b.FixedOverflowTokens)
		}
		if len(b.OverflowSections) != 3 || b.OverflowSections[0] != (SectionShare{"current", 290000}) || b.OverflowSections[1] != (SectionShare{"knowledge", 2000}) {
			t.Errorf("overflowSections %v", b.OverflowSections)
		}
		if len(b.History.Summarize) != 0 || b.History.SummarizeTokens != 0 {
			t.Errorf("summarize %v offered although the fixed parts overflow", b.History.Summarize)
		}
		want := []string{"capSection:knowledge", "truncate:current"}
		if got := actions(b); !slices.Equal(got, want) {
			t.Fatalf("remedies %v, want %v", got, want)
		}
		cut := b.Remedies[1]
		if !cut.Fits || cut.Tokens != b.OverflowTokens || *cut.MaxTokens != 290000-b.OverflowTokens || b.Remedies[0].Fits {
			t.Errorf("truncate %+v (overflow %d); knowledge %+v", cut, b.OverflowTokens, b.Remedies[0])
		}
		// Applying the remedy makes it fit.
		after := budgetOf(t, fmt.Sprintf(`{"model": "gpt-4o", "sections": {"system": "Be brief.", "knowledge": {"tokens": 2000}, "current": {"tokens": %d}},
			"history": %s}`, *cut.MaxTokens, history(120)))
		if after.OverflowTokens != 0 || len(after.Remedies) != 0 {
			t.Errorf("after the remedy: overflow %d, remedies %v", after.OverflowTokens, after.Remedies)
		}
	})

	// The window 3,000 with reserve 500: the 4,000-token minimum
	// keeps more history than the budget has room for, and says so.
	t.Run("minimum history", func(t *testing.T) {
		b := budgetOf(t, `{"contextWindow": 3000, "outputReserve": 500, "sections": {"system": "Be brief."}, "history": `+history(120)+`}`)
		if b.MinHistoryExcess <= 0 || b.MinHistoryExcess != b.History.KeptTokens-b.HistoryBudget || b.FixedOverflowTokens != 0 {
			t.Errorf("minHistoryExcess %d, kept %d, historyBudget %d", b.MinHistoryExcess, b.History.KeptTokens, b.HistoryBudget)
		}
		want := []string{"summarizeHistory:", "dropHistory:"}
		if got := actions(b); !slices.Equal(got, want) {
			t.Fatalf("remedies %v, want %v", got, want)
		}
		for _, r := range b.Remedies {
			if !r.Fits || r.Tokens < b.OverflowTokens || len(r.Messages) == 0 {
				t.Errorf("%+v does not free the overflow %d", r, b.OverflowTokens)
			}
		}
		if len(b.History.Summarize) == 0 {
			t.Error("summarizing can make this fit, but no summary was proposed")
		}
	})

	t.Run("larger model", func(t *testing.T) {
		b := budgetOf(t, `{"model": "gpt-5-chat-latest", "sections": {"current": {"tokens": 150000}}}`)
		var got *Remedy
		for i := range b.Remedies {
			if b.Remedies[i].Action == "largerModel" {
				got = &b.Remedies[i]
			}
		}
		if got == nil || !got.Fits || got.ContextWindow <= 128000 || !strings.HasPrefix(got.Model, "gpt-5") {
			t.Fatalf("remedies %+v", b.Remedies)
		}
		if after := budgetOf(t, `{"model": "`+got.Model+`", "sections": {"current": {"tokens": 150000}}}`); after.OverflowTokens != 0 {
			t.Errorf("%s does not take the request: overflow %d", got.Model, after.OverflowTokens)
		}
	})
}
