package core

import (
	"strings"
	"testing"
)

// TestErrors_QuoteClipped: an error quotes at most a clipped piece of its
// input (engine.Clip), so a 1 MB name gives a short message, whichever
// operation and field it came through.
func TestErrors_QuoteClipped(t *testing.T) {
	huge := strings.Repeat("é", 1<<19) // 1 MB
	api := NewAPI()
	for _, tc := range []struct{ op, req string }{
		{huge, `{}`},
		{"countTokens", `{"encoding": "` + huge + `", "text": "x"}`},
		{"registerModels", `{"models": [{"id": "m", "contextWindow": 10, "encoding": "` + huge + `"}]}`},
		{"registerModels", `{"models": [{"id": "m", "contextWindow": 10, "estimator": "` + huge + `"}]}`},
		{"registerModels", `{"estimators": {"` + huge + `": {"base": "nope", "ratio": 1, "errorBound": 0}}}`},
		{"countChat", `{"model": "gpt-4o", "messages": [{"role": "` + huge + `", "content": "x"}]}`},
		{"countChat", `{"model": "gpt-4o", "messages": [], "tool_choice": "` + huge + `"}`},
		{"planInjection", `{"model": "gpt-4o", "budget": 10, "items": [{"id": "` + huge + `", "content": "a", "activation": 0.5}, {"id": "` + huge + `", "content": "b", "activation": 0.5}]}`},
	} {
		out := api.Call(tc.op, []byte(tc.req))
		if !strings.HasPrefix(string(out), `{"error"`) {
			t.Errorf("%.40s %.80s: not an error: %.200s", tc.op, tc.req, out)
			continue
		}
		if len(out) > 1024 {
			t.Errorf("%.40s %.80s: a %d-byte error answer: %.300s", tc.op, tc.req, len(out), out)
		}
	}
}
