package chat

import (
	"math/rand"
	"testing"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/randtext"
	_ "github.com/tokenfit/tokenfit/core/tables" // the tables, compiled in
)

// TestChat_UpperBoundCoversCandidates is the property upperBound promises:
// for every family's rules, on random requests with every fitted part, the
// upper bound is at least the count of each candidate rendering, and the
// total is the family's own count.
func TestChat_UpperBoundCoversCandidates(t *testing.T) {
	enc, err := engine.Get("o200k_base")
	if err != nil {
		t.Fatal(err)
	}
	families := []ChatRules{defaultChatRules}
	for _, row := range chatRulesTable {
		families = append(families, row.rules)
		if id := append(row.ids, row.prefixes...)[0]; row.responses != nil {
			families = append(families, RulesFor(id, APIResponses))
		}
	}
	rng := rand.New(rand.NewSource(11))
	raised := 0
	for range 60 {
		body := randtext.ChatRequest(rng)
		var req ChatRequest
		if err := req.UnmarshalJSON([]byte(body)); err != nil {
			t.Fatalf("%v\n%s", err, body)
		}
		for _, rules := range families {
			got, err := CountChat(enc, req, rules)
			if err != nil {
				t.Fatalf("%s: %v\n%s", rules.Family, err, body)
			}
			if got.UpperBound > got.Total {
				raised++
			}
			for _, v := range candidateRules(rules) {
				alt, err := CountChat(enc, req, v)
				if err != nil {
					t.Fatal(err)
				}
				if alt.Total > got.UpperBound {
					t.Errorf("%s: a candidate (params %s, undescribed %d, legacy calls %v, priming %d) counts %d, above the upper bound %d (total %d)\n%s",
						rules.Family, v.Tools.Params, v.Tools.Undescribed, v.ToolCalls.Legacy, v.Messages.ReplyPriming, alt.Total, got.UpperBound, got.Total, body)
				}
			}
			if got.Exact && got.UpperBound != got.Total {
				t.Errorf("%s: exact, but the upper bound %d is not the total %d", rules.Family, got.UpperBound, got.Total)
			}
		}
	}
	if raised == 0 {
		t.Error("no request raised an upper bound: the generator misses the fitted parts")
	}
}

// candidateRules returns the rules a request could be billed by when the
// family's own are only fitted: rules with each combination of the
// candidate reply priming, tool-call rule, parameter rendering and
// undescribed-property adjustment. ChatCount.UpperBound is at least the
// Total of each (TestChat_UpperBoundCoversCandidates).
func candidateRules(r ChatRules) []ChatRules {
	var out []ChatRules
	for _, m := range candidateMessages {
		for _, calls := range candidateCalls {
			for _, style := range []ParamStyle{ParamsIndented, ParamsFlat} {
				for _, und := range candidateUndescribed {
					v := r
					if !r.Messages.Exact {
						v.Messages.ReplyPriming = m.ReplyPriming
					}
					if !r.ToolCalls.Measured {
						v.ToolCalls = calls
					}
					if !r.Tools.Measured && (!r.Tools.Exact || !r.Tools.NestedExact || r.Tools.Undescribed != 0) {
						v.Tools.Params, v.Tools.Undescribed = style, und
					}
					out = append(out, v)
				}
			}
		}
	}
	return out
}
