package core_test

import (
	"fmt"

	"github.com/tokenfit/tokenfit/core"
)

func ExampleGetEncoding() {
	enc, _ := core.GetEncoding("o200k_base")
	fmt.Println(enc.Count("Hello world"), enc.Encode("Hello world"))
	// Output: 2 [13225 2375]
}

// The memory-budget formula: 150,000 − 1,200 − 300 − 1,500 − 400 − 100 −
// 8,192 leaves 138,308 tokens of history.
func ExampleCalculateBudget() {
	window, reserve := 150000, 8192
	tokens := func(n int) core.Section { return core.Section{Tokens: &n} }
	b, _ := core.CalculateBudget(core.DefaultRegistry(), core.BudgetRequest{
		ContextWindow: &window, OutputReserve: &reserve,
		Sections: core.Sections{System: tokens(1200), Procedure: tokens(300), Knowledge: tokens(1500),
			Episodes: tokens(400), Current: tokens(100)},
	})
	fmt.Println(b.HistoryBudget, b.Alert, len(b.Remedies))
	// Output: 138308 none 0
}

func ExamplePlanInjection() {
	enc, _ := core.GetEncoding("o200k_base")
	p, _ := core.PlanInjection(enc, core.PlanRequest{Items: []core.PlanItem{
		{ID: "style", Name: "terse", Kind: "directive", Activation: 0.9, Content: "Answer briefly.", Summary: "Be brief."},
		{ID: "tabs", Name: "tabs", Kind: "preference", Activation: 0.15, Content: "Indent with tabs."},
	}})
	for _, it := range p.Items {
		fmt.Println(it.ID, it.Tier)
	}
	fmt.Print(p.Text)
	// Output:
	// style full
	// tabs nameOnly
	// ## Directives
	// - Answer briefly.
	// - `tabs` [preference]
}

func ExampleAPI_Call() {
	api := core.NewAPI()
	fmt.Println(string(api.Call("countTokens", []byte(`{"text": "Hello world", "model": "gpt-4o"}`))))
	fmt.Println(string(api.Call("countTokens", []byte(`{"text": "Hello world", "model": "gpt-5-chat-preview"}`))))
	// Output:
	// {"tokens":2,"upperBound":2,"encoding":"o200k_base","model":"gpt-4o","exact":true,"cost":{"currency":"USD","input":0.000005,"output":0,"total":0.000005,"tokens":{"input":2,"output":0},"price":{"input":2.5,"cachedInput":1.25,"output":10,"source":"models.dev","date":"2026-07-02"}}}
	// {"tokens":2,"upperBound":2,"encoding":"o200k_base","model":"gpt-5-chat-preview","exact":true,"fallback":true,"resolvedBy":"family","family":"gpt-5"}
}

func ExampleRegistry_Resolve() {
	for _, name := range []string{"gpt-35-turbo", "gpt-4o-2025-01-31", "gpt-5-chat", "daybreak-red-latest", "gpt-5.9-nova", "acme-9"} {
		res, _ := core.DefaultRegistry().Resolve(name)
		fmt.Println(name, res.Model.ID, res.How, res.Tokenizer.Name(), res.Model.ContextWindow)
	}
	// Output:
	// gpt-35-turbo gpt-3.5-turbo alias cl100k_base 16385
	// gpt-4o-2025-01-31 gpt-4o snapshot o200k_base 128000
	// gpt-5-chat gpt-5-chat-latest alias o200k_base 128000
	// daybreak-red-latest gpt-5.6-cyber alias o200k_base 400000
	// gpt-5.9-nova gpt-5.9-nova family o200k_base 8192
	// acme-9 acme-9 unknown cl100k_base 8192
}

func ExampleLiveCounter() {
	enc, _ := core.GetEncoding("o200k_base")
	live := enc.NewLiveCounter(core.UTF16)
	live.Reset("Hello world")
	n, _ := live.Edit(11, 0, "!")
	fmt.Println(n, live.Count())
	// Output: 3 3
}
