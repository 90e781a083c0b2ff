package core

import (
	"encoding/json"
	"regexp"
	"slices"
	"strings"
	"testing"
)

// The OpenAI counts against what OpenAI billed: every request of
// testdata/billed/openai.json (Chat Completions and Responses API bodies)
// and the peer's billed rows (AI SDK requests, which the SDK sends to the
// Responses API).

// openaiExcluded are the billed OpenAI requests no rule is held to, and why.
var openaiExcluded = []struct{ id, why string }{
	// The Responses API's first weeks (cassettes of 2025-03-31 and
	// 2025-04-12) billed more than it has since: the request of
	// system-prompt-fe6025 billed 42 there and 24 two weeks later
	// (model-instructio-1807fa, the same request byte for byte).
	{"system-prompt-fe6025", "the Responses API's first weeks: the same request bills 18 less since"},
	{"responses-stream-391560", "the Responses API's first weeks (one tool: ~210 above today's counts)"},
	{"model-retry-2efa31-1", "the Responses API's first weeks (one tool: ~210 above today's counts)"},
	{"output-type-e9653d", "the Responses API's first weeks (one tool: ~210 above today's counts)"},
	{"reasoning-effort-760299", "the Responses API's first weeks (o3-mini: 59 above today's counts)"},
	{"model-retry-2efa31-0", "usage reported as 0"},
	{"reasoning-mode-p-06ca99", `reasoning.mode "pro" bills 1,531 hidden input tokens; the answer says it is not counted`},
}

func openaiExclusion(id string) string {
	for _, x := range openaiExcluded {
		if strings.Contains(id, x.id) {
			return x.why
		}
	}
	return ""
}

// countBilled counts one billed entry through the JSON API, as a user would.
func countBilled(t *testing.T, api *API, body []byte) ChatAnswer {
	t.Helper()
	out := api.Call("countChat", body)
	var a ChatAnswer
	if err := json.Unmarshal(out, &a); err != nil || a.Encoding == "" {
		t.Fatalf("countChat: %s", out)
	}
	return a
}

// TestBilledOpenAI_BoundAndExact: on every billed OpenAI request but the
// excluded, upperBound is at least the billed count, and an answer that
// says exact is the billed count.
func TestBilledOpenAI_BoundAndExact(t *testing.T) {
	api := NewAPI()
	var n, exact, within1 int
	for _, e := range loadBilled(t, "openai") {
		if why := openaiExclusion(e.ID); why != "" {
			t.Logf("%s: excluded: %s", e.ID, why)
			continue
		}
		a := countBilled(t, api, e.body(t))
		n++
		if a.UpperBound < e.Billed {
			t.Errorf("%s (%s): upper bound %d below the %d billed (total %d)", e.ID, e.Model, a.UpperBound, e.Billed, a.Total)
		}
		if a.Exact && a.Total != e.Billed {
			t.Errorf("%s (%s): exact, but %d where %d was billed", e.ID, e.Model, a.Total, e.Billed)
		}
		if a.Exact {
			exact++
		}
		if d := a.Total - e.Billed; d >= -1 && d <= 1 {
			within1++
		}
	}
	if n < 195 {
		t.Errorf("%d billed OpenAI requests checked", n)
	}
	t.Logf("%d billed OpenAI requests: %d counted exact, %d within one token", n, exact, within1)
}

// TestBilledOpenAI_ResponsesEqualsChat: a Responses request and the Chat
// Completions request it corresponds to read to the same messages, so the
// difference of their counts is the rules' alone.
func TestBilledOpenAI_ResponsesEqualsChat(t *testing.T) {
	resp := `{"model":"gpt-4o","instructions":"Be brief.","input":[{"role":"user","content":[{"type":"input_text","text":"Weather?"}]},` +
		`{"type":"function_call","call_id":"c1","name":"get_weather","arguments":"{\"city\":\"Paris\"}"},` +
		`{"type":"function_call_output","call_id":"c1","output":"sunny"},{"role":"assistant","content":[{"type":"output_text","text":"Sunny."}]}],` +
		`"tools":[{"type":"function","name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}],` +
		`"tool_choice":{"type":"function","name":"get_weather"},"text":{"format":{"type":"json_schema","name":"w","schema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}}`
	chat := `{"model":"gpt-4o","api":"responses","messages":[{"role":"system","content":"Be brief."},{"role":"user","content":[{"type":"text","text":"Weather?"}]},` +
		`{"role":"assistant","content":null,"tool_calls":[{"id":"c1","type":"function","function":{"name":"get_weather","arguments":"{\"city\":\"Paris\"}"}}]},` +
		`{"role":"tool","tool_call_id":"c1","content":"sunny"},{"role":"assistant","content":"Sunny."}],` +
		`"tools":[{"type":"function","function":{"name":"get_weather","description":"Weather","parameters":{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}}}],` +
		`"tool_choice":{"type":"function","function":{"name":"get_weather"}},"response_format":{"type":"json_schema","json_schema":{"name":"w","schema":{"type":"object","properties":{"ok":{"type":"boolean"}}}}}}`
	api := NewAPI()
	r, c := countBilled(t, api, []byte(resp)), countBilled(t, api, []byte(chat))
	if r.Shape != ShapeResponses || r.Total != c.Total || r.UpperBound != c.UpperBound || r.Rules != "gpt-4o/responses" {
		t.Errorf("responses %+v\nchat %+v", r, c)
	}
}

// heldOut are the peer's models whose rows chose no constant: each shares
// its rules with a model whose rows did (gpt-4o-mini and gpt-4.1-mini with
// gpt-4o and gpt-4.1, o3-mini with o1, the rest of the harmony families
// with gpt-5, gpt-5-mini and o3), so their accuracy is a check of the fit.
var heldOut = []string{"openai/gpt-4o-mini", "openai/gpt-4.1-mini", "openai/o3-mini", "openai/gpt-5-codex", "openai/gpt-5-pro",
	"openai/gpt-5-nano", "openai/gpt-5.1-codex", "openai/gpt-5.1-codex-mini", "openai/gpt-5.1-instant", "openai/gpt-5.1-thinking", "openai/o4-mini"}

// TestBilledOpenAI_Peer holds countChat to issue 31's goals on the peer's
// OpenAI rows: at least 99 % of the billed count at ~500 tokens and 99.5 %
// at ~5k and ~50k, an upper bound at least the billed count, and no worse
// than the peer's own count where that is not already 99.9 %. The gpt-oss
// rows are open-weight models served by other providers through the
// gateway, billed by their templates: they are the chat template's, not
// these rules'.
func TestBilledOpenAI_Peer(t *testing.T) {
	api := NewAPI()
	var fit, held []float64
	for _, r := range loadPeerRows(t) {
		if !strings.HasPrefix(r.PeerModel, "openai/") || strings.Contains(r.PeerModel, "gpt-oss") {
			continue
		}
		a, _ := r.count(t, api)
		acc, peer := accuracy(a.Total, r.Billed), accuracy(r.PeerPredicted, r.Billed)
		goal := 0.995
		if r.Size == "small" {
			goal = 0.99
		}
		if acc < goal {
			t.Errorf("%s %s: %d for %d billed, accuracy %.4f below %.3f", r.PeerModel, r.Size, a.Total, r.Billed, acc, goal)
		}
		if peer < 0.999 && acc <= peer {
			t.Errorf("%s %s: accuracy %.4f does not beat the peer's %.4f", r.PeerModel, r.Size, acc, peer)
		}
		if a.UpperBound < r.Billed {
			t.Errorf("%s %s: upper bound %d below the %d billed", r.PeerModel, r.Size, a.UpperBound, r.Billed)
		}
		if slices.Contains(heldOut, r.PeerModel) {
			held = append(held, acc)
		} else {
			fit = append(fit, acc)
		}
	}
	if len(fit) < 20 || len(held) < 30 {
		t.Fatalf("%d fitted and %d held-out rows", len(fit), len(held))
	}
	t.Logf("peer rows: fitted %d (worst %.4f), held out %d (worst %.4f)", len(fit), slices.Min(fit), len(held), slices.Min(held))
}

// heldOutBilled are the billed requests that chose no constant: the
// harmony rules' Responses constants were chosen on gpt-5 and gpt-5-mini,
// their Chat preamble on gpt-5-mini's tool-choice matrix.
var heldOutBilled = regexp.MustCompile(`^gpt-5\.[2-6]|^gpt-5\.4-mini|^gpt-5-2025|^gpt-5$`)

// TestBilledOpenAI_HeldOut: on the held-out billed requests with
// definitions (the part these rules fit), every count is within 3 tokens
// of the bill.
func TestBilledOpenAI_HeldOut(t *testing.T) {
	api := NewAPI()
	worst, n := 0, 0
	for _, e := range loadBilled(t, "openai") {
		if openaiExclusion(e.ID) != "" || !heldOutBilled.MatchString(e.Model) || !strings.Contains(string(e.Request), `"tools"`) {
			continue
		}
		a := countBilled(t, api, e.body(t))
		d := a.Total - e.Billed
		if strings.Contains(e.ID, "custom-tool") || strings.Contains(e.ID, "history-with-com") {
			continue // counts the rules do not claim: a custom tool, a call to an undeclared function
		}
		n++
		worst = max(worst, d, -d)
		if d > 3 || d < -3 {
			t.Errorf("%s (%s): %d for %d billed", e.ID, e.Model, a.Total, e.Billed)
		}
	}
	t.Logf("%d held-out billed requests with definitions: worst %d tokens", n, worst)
}
