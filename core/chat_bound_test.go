package core

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"
)

// randomChatRequest builds a request with the parts whose rules are fitted:
// nested, anyOf and undescribed parameters, tool calls (parallel, with and
// without content), tool results, names, and a system message.
func randomChatRequest(rng *rand.Rand) string {
	words := []string{"weather", "city", "unit", "Paris", "x", "deep", "name", "日本", "é", "42", " ", "{", "\n"}
	word := func() string {
		var b strings.Builder
		for range 1 + rng.Intn(3) {
			b.WriteString(words[rng.Intn(len(words))])
		}
		return b.String()
	}
	var schema func(depth int) string
	schema = func(depth int) string {
		desc := ""
		if rng.Intn(2) == 0 {
			desc = fmt.Sprintf(`, "description": %q`, word())
		}
		switch k := rng.Intn(6); {
		case k == 0 && depth < 3:
			var props []string
			for i := range 1 + rng.Intn(3) {
				props = append(props, fmt.Sprintf(`"p%d": %s`, i, schema(depth+1)))
			}
			return fmt.Sprintf(`{"type": "object", "properties": {%s}%s}`, strings.Join(props, ", "), desc)
		case k == 1 && depth < 3:
			return fmt.Sprintf(`{"type": "array", "items": %s%s}`, schema(depth+1), desc)
		case k == 2:
			return fmt.Sprintf(`{"type": "string", "enum": [%q, %q]%s}`, word(), word(), desc)
		case k == 3 && depth < 3:
			return fmt.Sprintf(`{"anyOf": [{"type": "string"}, {"type": "number"}]%s}`, desc)
		case k == 4:
			return fmt.Sprintf(`{"type": "number"%s}`, desc)
		}
		return fmt.Sprintf(`{"type": "string"%s}`, desc)
	}
	var tools []string
	for i := range rng.Intn(3) {
		var props []string
		for j := range 1 + rng.Intn(3) {
			props = append(props, fmt.Sprintf(`"a%d": %s`, j, schema(1)))
		}
		tools = append(tools, fmt.Sprintf(`{"type": "function", "function": {"name": "f%d", "description": %q, "parameters": {"type": "object", "properties": {%s}}}}`,
			i, word(), strings.Join(props, ", ")))
	}
	var msgs []string
	if rng.Intn(2) == 0 {
		msgs = append(msgs, fmt.Sprintf(`{"role": "system", "content": %q}`, word()))
	}
	msgs = append(msgs, fmt.Sprintf(`{"role": "user", "content": %q}`, word()))
	if len(tools) > 0 && rng.Intn(3) > 0 {
		var calls []string
		for i := range 1 + rng.Intn(3) {
			calls = append(calls, fmt.Sprintf(`{"id": "c%d", "type": "function", "function": {"name": "f0", "arguments": "{\"a0\": %d}"}}`, i, i))
		}
		content := "null"
		if rng.Intn(2) == 0 {
			content = fmt.Sprintf("%q", word())
		}
		msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "content": %s, "tool_calls": [%s]}`, content, strings.Join(calls, ", ")))
		for i := range calls {
			msgs = append(msgs, fmt.Sprintf(`{"role": "tool", "tool_call_id": "c%d", "content": %q}`, i, word()))
		}
	}
	if rng.Intn(3) == 0 {
		msgs = append(msgs, fmt.Sprintf(`{"role": "user", "name": "bob", "content": [{"type": "text", "text": %q}, {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]}`, word()))
	}
	req := fmt.Sprintf(`{"messages": [%s]`, strings.Join(msgs, ", "))
	if len(tools) > 0 {
		req += fmt.Sprintf(`, "tools": [%s]`, strings.Join(tools, ", "))
	}
	return req + "}"
}

// TestChat_UpperBoundCoversCandidates is the property upperBound promises:
// for every family's rules, on random requests with every fitted part, the
// upper bound is at least the count of each candidate rendering, and the
// total is the family's own count.
func TestChat_UpperBoundCoversCandidates(t *testing.T) {
	enc, err := GetEncoding("o200k_base")
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
		body := randomChatRequest(rng)
		var req ChatRequest
		if err := decodeJSON([]byte(body), &req); err != nil {
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

// TestChat_UpperBoundCoversTheAPI: on every request whose billed count was
// published, the upper bound is at least what the API billed.
func TestChat_UpperBoundCoversTheAPI(t *testing.T) {
	for _, v := range loadChatVectors(t) {
		var req ChatRequest
		if err := decodeJSON(v.Request, &req); err != nil {
			t.Fatal(err)
		}
		got, err := CountChat(encodingForTest(t, v.model()), req, ChatRulesFor(v.model()))
		if err != nil {
			t.Fatal(err)
		}
		if got.UpperBound < v.PromptTokens {
			t.Errorf("%s (%s): upper bound %d below the %d billed (total %d, exact %v)", v.Name, v.model(), got.UpperBound, v.PromptTokens, got.Total, got.Exact)
		}
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
