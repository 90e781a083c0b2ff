package core

import (
	"github.com/tokenfit/tokenfit/core/internal/format"

	"github.com/tokenfit/tokenfit/core/engine"
)

// Token budgets from the seed (tiered-injection). Which one applies, and
// whether a flag, the environment or a config file overrides it, is the
// host's business; core only plans within the budget it is given.
const (
	// DefaultTokenBudget is the budget of an ordinary injection.
	DefaultTokenBudget = 2000
	// DynamicContextTokenBudget is the budget of a hook-triggered
	// (dynamic-context) injection.
	DynamicContextTokenBudget = 500
)

// PlanRequest asks which items to inject, and how much of each, within a
// budget.
type PlanRequest struct {
	// Budget is the most tokens the text may hold; 0 means no limit.
	Budget int `json:"budget"`
	// Items are the candidates, each with its activation.
	Items []PlanItem `json:"items"`
	// Thresholds default to DefaultThresholds when nil.
	Thresholds *Thresholds `json:"thresholds,omitempty"`
	// Session, when given, paces injections over a session (see Session).
	Session *Session `json:"session,omitempty"`
}

// PlanItem is one candidate for injection: a behavior, a rule, a memory.
type PlanItem struct {
	// ID is unique within the request and not empty.
	ID string `json:"id"`
	// Name shows in the name-only form; the ID stands in when it is empty.
	Name string `json:"name,omitempty"`
	// Kind "constraint" (never below the summary tier, never demoted) goes
	// under Constraints, "procedure" under Procedures, any other kind under
	// Directives; the match ignores case. An empty kind shows as
	// "directive".
	Kind string `json:"kind,omitempty"`
	// Tags show in the name-only form as #tag.
	Tags []string `json:"tags,omitempty"`
	// Activation in [0, 1] decides the tier.
	Activation float64 `json:"activation"`
	// Content is injected whole at the full tier.
	Content string `json:"content,omitempty"`
	// Summary, optional, is injected at the summary tier; without it the
	// content's first line, cut short, is.
	Summary string `json:"summary,omitempty"`
}

// Plan is planInjection's answer: what to inject, each item's tier and why,
// and the compiled text.
type Plan struct {
	// Items are the request's items in their order.
	Items []PlannedItem `json:"items"`
	// TotalTokens is the Count of Text.
	TotalTokens int `json:"totalTokens"`
	// Budget is the budget the plan was made for: the request's, lowered by
	// the session's cap when there is a session; 0 means no limit (or, with
	// a session, that it allowed no injection at this prompt).
	Budget int `json:"budget"`
	// Text is the compiled prompt text: sections "## Constraints",
	// "## Directives" and "## Procedures", each listing its full, summary
	// and name-only items as "- …" lines; every line ends with "\n" and none
	// is blank. Empty when nothing is injected.
	Text string `json:"text"`
	// Demotions are the steps taken to fit the budget, in order.
	Demotions []Demotion `json:"demotions"`
	// OverBudget reports that the text does not fit the budget even with
	// every item that may be demoted omitted: the constraints alone exceed
	// it.
	OverBudget bool `json:"overBudget"`
	// Session is the session's report when the request had one.
	Session *SessionReport `json:"session,omitempty"`
	// Exact is false when the tokenizer is an estimate; the plan then fits
	// the budget by the estimate's upper bound.
	Exact bool `json:"exact"`
	// Encoding names the tokenizer.
	Encoding string `json:"encoding"`
}

// PlannedItem is one item's place in a plan.
type PlannedItem struct {
	ID   string `json:"id"`
	Tier Tier   `json:"tier"`
	// Reason says why the item got its tier, as a sentence.
	Reason string `json:"reason"`
	// Tokens is the Count of the item's line(s) in Text, trailing newline
	// included; 0 when omitted. For the OpenAI encodings these counts and
	// the section headers' add up to TotalTokens.
	Tokens int `json:"tokens"`
}

// Demotion is one step of fitting a plan to its budget.
type Demotion struct {
	ID   string `json:"id"`
	From Tier   `json:"from"`
	To   Tier   `json:"to"`
}

// PlanInjection decides each item's tier and compiles the text (see Plan).
//
// Tiers follow activation (Thresholds); constraints never go below the
// summary tier. While the text does not fit the budget (by tok.Upper of its
// count), the non-constraint item with the lowest activation (ties: the
// earlier in the request) is demoted one tier — full → summary → name only
// → omitted — and the text counted again; constraints are never demoted.
// With a Session the call counts one prompt; when backoff or an exhausted
// session budget refuses the injection, the plan is empty and says why.
//
// BPE counts do not add up in general, but the text is built so that they
// do here: every line group (a header or an item) starts with '#' or '-' and
// ends with a non-space character before its "\n", and the pre-tokenizers of
// all four OpenAI encodings always split right after such a "\n" (see the
// comment in planFit). So with an *Encoding each item's count at each tier
// is taken once, a demotion costs O(1), and the final text is counted once
// to confirm the sum. Cost: O(n + k log k) for n bytes of items and k items.
// Other tokenizers (estimates) promise no such thing, so the text is counted
// again after every demotion: O(n + d·(n + k)) for d demotions.
func PlanInjection(tok Tokenizer, req PlanRequest) (Plan, error) {
	if tok == nil {
		return Plan{}, format.Errorf("%w: no tokenizer", ErrInvalidRequest)
	}
	if err := validatePlanRequest(&req); err != nil {
		return Plan{}, err
	}
	th := DefaultThresholds()
	if req.Thresholds != nil {
		th = *req.Thresholds
	}
	plan := Plan{
		Items:     make([]PlannedItem, len(req.Items)),
		Demotions: []Demotion{},
		Budget:    req.Budget,
		Exact:     tok.Exact(),
		Encoding:  tok.Name(),
	}

	var sess Session
	var decision SessionDecision
	if req.Session != nil {
		sess = *req.Session
		decision = sess.Admit()
		if !decision.Allowed {
			for i, it := range req.Items {
				plan.Items[i] = PlannedItem{ID: it.ID, Tier: TierOmitted, Reason: "no injection at this prompt: " + decision.Reason}
			}
			plan.Budget = 0
			r := sess.report(decision, false, decision.Reason)
			plan.Session = &r
			return plan, nil
		}
		if plan.Budget == 0 || decision.Budget < plan.Budget {
			plan.Budget = decision.Budget
		}
	}

	planItems(tok, &plan, req.Items, th)

	if req.Session != nil {
		used := 0
		if plan.TotalTokens > 0 {
			used = tok.Upper(plan.TotalTokens)
		}
		sess.Record(used)
		reason := decision.Reason
		if used == 0 {
			reason += "; nothing to inject, so nothing recorded"
		} else {
			reason += format.Sprintf("; recorded %d tokens", used)
			if plan.OverBudget {
				reason += " (over the budget: the constraints alone exceed it)"
			}
		}
		r := sess.report(decision, used > 0, reason)
		plan.Session = &r
	}
	return plan, nil
}

// planItems plans items within plan.Budget, filling in the rest of plan.
func planItems(tok Tokenizer, plan *Plan, items []PlanItem, th Thresholds) {
	entries := newPlanEntries(tok, items, th)
	planFit(tok, plan, entries)
	for _, e := range entries {
		plan.Items[e.idx] = PlannedItem{
			ID:     e.item.ID,
			Tier:   e.tier,
			Reason: e.reason(th, plan.Budget, plan.OverBudget),
			Tokens: e.tokens[e.tier],
		}
	}
}

func validatePlanRequest(req *PlanRequest) error {
	if req.Budget < 0 {
		return fieldErr("budget", "must not be negative, got %d", req.Budget)
	}
	if req.Thresholds != nil {
		if err := req.Thresholds.validate(); err != nil {
			return err
		}
	}
	seen := make(map[string]int, len(req.Items))
	for i := range req.Items {
		it := &req.Items[i]
		if it.ID == "" {
			return fieldErr(format.Sprintf("items[%d].id", i), "must not be empty")
		}
		if j, dup := seen[it.ID]; dup {
			return fieldErr(format.Sprintf("items[%d].id", i), "%q is also the id of items[%d]; ids must be unique", engine.Clip(it.ID), j)
		}
		seen[it.ID] = i
		if a := it.Activation; !(a >= 0 && a <= 1) { // also false for NaN
			return fieldErr(format.Sprintf("items[%d].activation", i), "must be a number in [0, 1], got %v", a)
		}
	}
	if req.Session != nil {
		return req.Session.Validate()
	}
	return nil
}
