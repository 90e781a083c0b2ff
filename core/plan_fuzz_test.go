package core

import (
	"math/rand/v2"
	"strings"
	"testing"
)

// FuzzPlanInvariants checks the plan's promises one by one, without a
// reference planner: the text fits the budget (or every item that may be
// demoted is omitted and the plan says it is over), its count is
// TotalTokens, constraints stay at the summary tier or above and are never
// demoted, each demotion takes the lowest-activation item that can still
// go down (ties: the earlier) one tier, replaying the demotions from the
// tiers by activation gives the plan's tiers, and a higher activation never
// ends at a lower tier than a lower one.
func FuzzPlanInvariants(f *testing.F) {
	f.Add(uint64(1), uint16(0), uint8(4), "Run gofmt.\nThen vet.", "go-style", uint8(0))
	f.Add(uint64(2), uint16(50), uint8(12), "  \n\t\r\n ", "", uint8(1))
	f.Add(uint64(3), uint16(1), uint8(20), "日本語 'll // \xff", "`x` [k] #t", uint8(2))
	f.Add(uint64(4), uint16(300), uint8(8), "", "\n", uint8(3))
	encs := []*Encoding{mustEncoding(f, "o200k_base"), mustEncoding(f, "cl100k_base"), mustEncoding(f, "p50k_base"), mustEncoding(f, "r50k_base")}
	f.Fuzz(func(t *testing.T, seed uint64, budget uint16, n uint8, text, name string, enc uint8) {
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		req := randomRequest(rng, int(n%24), text, name)
		req.Budget = int(budget % 1500)
		tok := encs[int(enc)%len(encs)]
		p := mustPlan(t, tok, req)
		th := DefaultThresholds()
		if req.Thresholds != nil {
			th = *req.Thresholds
		}
		if got := tok.Count(p.Text); got != p.TotalTokens {
			t.Fatalf("TotalTokens %d, the text counts %d", p.TotalTokens, got)
		}
		constraint := func(i int) bool { return strings.EqualFold(strings.TrimSpace(req.Items[i].Kind), "constraint") }
		// Replay the demotions from the tiers by activation.
		tiers := make([]Tier, len(req.Items))
		for i, it := range req.Items {
			tiers[i] = th.tier(it.Activation)
			if constraint(i) {
				tiers[i] = min(tiers[i], TierSummary)
			}
		}
		index := map[string]int{}
		for i, it := range req.Items {
			index[it.ID] = i
		}
		for k, d := range p.Demotions {
			i, ok := index[d.ID]
			if !ok || constraint(i) || d.From != tiers[i] || d.To != d.From+1 {
				t.Fatalf("demotion %d %+v: item %d (constraint %v) is at %v", k, d, i, constraint(i), tiers[i])
			}
			for j := range req.Items {
				if j == i || constraint(j) || tiers[j] == TierOmitted {
					continue
				}
				if a, b := req.Items[j].Activation, req.Items[i].Activation; a < b || a == b && j < i {
					t.Fatalf("demotion %d took %s (activation %v) before %s (activation %v)", k, d.ID, b, req.Items[j].ID, a)
				}
			}
			tiers[i]++
		}
		for i, it := range p.Items {
			if it.Tier != tiers[i] {
				t.Fatalf("item %s ends at %v, the demotions give %v", it.ID, it.Tier, tiers[i])
			}
			if constraint(i) && it.Tier > TierSummary {
				t.Fatalf("constraint %s at %v", it.ID, it.Tier)
			}
		}
		for i := range req.Items {
			for j := range req.Items {
				if !constraint(i) && !constraint(j) && req.Items[i].Activation > req.Items[j].Activation && tiers[i] > tiers[j] {
					t.Fatalf("%s (activation %v) at %v, below %s (activation %v) at %v", req.Items[i].ID, req.Items[i].Activation, tiers[i],
						req.Items[j].ID, req.Items[j].Activation, tiers[j])
				}
			}
		}
		switch {
		case req.Budget == 0:
			if len(p.Demotions) > 0 || p.OverBudget {
				t.Fatalf("no budget, yet %d demotions (over %v)", len(p.Demotions), p.OverBudget)
			}
		case p.OverBudget:
			if p.TotalTokens <= req.Budget {
				t.Fatalf("over the budget %d with %d tokens", req.Budget, p.TotalTokens)
			}
			for i := range req.Items {
				if !constraint(i) && tiers[i] != TierOmitted {
					t.Fatalf("over the budget with %s still at %v", req.Items[i].ID, tiers[i])
				}
			}
		case p.TotalTokens > req.Budget:
			t.Fatalf("%d tokens over the budget %d, and the plan does not say so", p.TotalTokens, req.Budget)
		}
	})
}
