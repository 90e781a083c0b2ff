package core

import (
	"cmp"

	"slices"
)

// A budget that overflows explains itself: which fixed parts are at fault,
// whether the history minimum is, and what would make the request fit.

// SectionShare is one fixed part of a request and its tokens.
type SectionShare struct {
	// Section is a section's name, "directive" or "tools".
	Section string `json:"section"`
	Tokens  int    `json:"tokens"`
}

// Remedy is one action that frees room in a request that overflows.
type Remedy struct {
	// Action is one of:
	//   - "summarizeHistory": replace Messages with a summary (Tokens is
	//     what they hold; the summary costs some of it back);
	//   - "dropHistory": drop Messages although limits.minHistoryTokens
	//     keeps them (lower the minimum);
	//   - "capSection": cap Section (knowledge or episodes) at MaxTokens;
	//   - "truncate": cut Section (current) to MaxTokens with truncate, or
	//     send it in pieces of MaxTokens with chunk;
	//   - "largerModel": use Model, whose window (ContextWindow) is the
	//     smallest in the same family that takes the request.
	//genjson:ts 'summarizeHistory' | 'dropHistory' | 'capSection' | 'truncate' | 'largerModel'
	Action   string `json:"action"`
	Section  string `json:"section,omitempty"`
	Messages []int  `json:"messages,omitempty"`
	// MaxTokens is the size that frees Tokens.
	MaxTokens *int `json:"maxTokens,omitempty"`
	// Model and ContextWindow name the larger model.
	Model         string `json:"model,omitempty"`
	ContextWindow int    `json:"contextWindow,omitempty"`
	// Tokens is what the action frees on its own (for largerModel, the
	// input budget it adds).
	Tokens int `json:"tokens"`
	// Fits says whether the action alone makes the request fit.
	Fits bool `json:"fits"`
}

// budgetState is what CalculateBudget hands explain.
type budgetState struct {
	items      []histItem
	pruned     pruneResult
	room       int // what unpinned history may use
	lowWater   float64
	keepRecent int
	policy     ReservePolicy
	model      Model
	res        Resolution
}

// explain fills the answer's overflow fields and remedies. Cost: O(history
// + models).
func explain(reg *Registry, b *Budget, req BudgetRequest, st budgetState) {
	b.Remedies = []Remedy{}
	if b.HistoryBudget < 0 {
		b.FixedOverflowTokens = -b.HistoryBudget
		b.OverflowSections = fixedShares(b)
	}
	// The minimum kept more than the budget: what pruning to the budget
	// alone would have kept is less.
	free := prune(st.items, req.KeepFrom, st.room, int(float64(st.room)*st.lowWater), 0)
	keptUnpinned, freeUnpinned := unpinned(st.items, st.pruned.kept), unpinned(st.items, free.kept)
	if keptUnpinned > freeUnpinned && keptUnpinned > max(0, st.room) {
		b.MinHistoryExcess = b.History.KeptTokens - max(0, b.HistoryBudget)
	}
	over := b.OverflowTokens
	if over <= 0 {
		return
	}
	add := func(r Remedy) {
		if r.Tokens > 0 {
			r.Fits = r.Tokens >= over
			b.Remedies = append(b.Remedies, r)
		}
	}
	// 1. Summarize the oldest kept turns (only as many as the overflow
	// needs), and 2. drop what only the minimum kept; neither when the
	// fixed parts alone overflow.
	if b.FixedOverflowTokens == 0 {
		msgs, n := proposeSummary(st.items, st.pruned.keepFrom, over, st.keepRecent)
		add(Remedy{Action: "summarizeHistory", Messages: msgs, Tokens: n})
	}
	if b.FixedOverflowTokens == 0 && keptUnpinned > freeUnpinned {
		var extra []int
		for _, i := range free.dropped {
			if !slices.Contains(st.pruned.dropped, i) {
				extra = append(extra, i)
			}
		}
		add(Remedy{Action: "dropHistory", Messages: extra, Tokens: keptUnpinned - freeUnpinned})
	}
	// 3-5. Cap the capped sections, then cut the current message.
	for _, s := range []struct{ name, action string }{{"knowledge", "capSection"}, {"episodes", "capSection"}, {"current", "truncate"}} {
		have := b.Sections[s.name].Tokens
		freed := min(have, over)
		keep := have - freed
		add(Remedy{Action: s.action, Section: s.name, MaxTokens: &keep, Tokens: freed})
	}
	// 6. A larger window in the same family.
	if m, ok := largerModel(reg, st, b.FixedTokens+b.History.KeptTokens, req); ok {
		budget, _, _ := inputBudget(req, st.policy, m)
		add(Remedy{Action: "largerModel", Model: m.ID, ContextWindow: m.ContextWindow, Tokens: budget - b.InputBudget})
	}
}

// fixedShares lists the fixed parts with tokens, largest first.
func fixedShares(b *Budget) []SectionShare {
	var out []SectionShare
	for _, name := range sectionNames {
		if n := b.Sections[name].Tokens; n > 0 {
			out = append(out, SectionShare{name, n})
		}
	}
	if b.Directive > 0 {
		out = append(out, SectionShare{"directive", b.Directive})
	}
	if b.ToolTokens > 0 {
		out = append(out, SectionShare{"tools", b.ToolTokens})
	}
	slices.SortStableFunc(out, func(x, y SectionShare) int { return cmp.Compare(y.Tokens, x.Tokens) })
	return out
}

// unpinned sums the tokens of the unpinned messages among idx.
func unpinned(items []histItem, idx []int) int {
	n := 0
	for _, i := range idx {
		if !items[i].Pinned {
			n += items[i].Tokens
		}
	}
	return n
}

// largerModel returns the registry model of the request's family, counted
// with the same tokenizer, with the smallest window whose input budget
// takes need tokens; failing that, the largest window of the family above
// the request's. None for a model the registry does not place in a family.
func largerModel(reg *Registry, st budgetState, need int, req BudgetRequest) (Model, bool) {
	if req.Model == "" || req.Encoding != "" {
		return Model{}, false
	}
	fam, ok := familyOf(normalizeName(st.res.Model.ID))
	if !ok {
		return Model{}, false
	}
	var best Model
	bestFits := false
	for _, m := range reg.models {
		if m.Provider != st.res.Model.Provider || m.Kind != "" {
			continue
		}
		f, ok := familyOf(normalizeName(m.ID))
		if !ok || f.prefix != fam.prefix || m.Encoding != st.res.Model.Encoding || m.Estimator != st.res.Model.Estimator ||
			m.ContextWindow <= st.model.ContextWindow {
			continue
		}
		budget, _, _ := inputBudget(req, st.policy, m)
		fits := budget >= need
		switch {
		case fits && (!bestFits || m.ContextWindow < best.ContextWindow),
			!fits && !bestFits && m.ContextWindow > best.ContextWindow:
			best, bestFits = m, fits
		}
	}
	return best, best.ID != ""
}
