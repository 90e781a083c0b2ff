package core

import (
	"strings"
	"testing"
)

// TestCalibrate_RecordedPairs records real pairs: a pretend provider whose
// hidden tokenizer is cl100k_base, estimated through an estimator over
// o200k_base, on the paragraphs of an English chat app's traffic (the
// English, chat and markdown corpus files). The bound must tighten as pairs
// arrive and the calibrated upper bound must cover every pair recorded so
// far. (One factor describes one kind of traffic: cl100k_base needs 3× the
// tokens of o200k_base for Hindi and 1.0× for English, so an app serving
// both keeps a wide bound, as it should.)
func TestCalibrate_RecordedPairs(t *testing.T) {
	reg, err := DefaultRegistry().With([]byte(`{
		"estimators": {"pretend": {"base": "o200k_base", "ratio": 1.0, "errorBound": 0.5}},
		"models": [{"id": "pretend-1", "contextWindow": 100000, "estimator": "pretend"}]}`))
	if err != nil {
		t.Fatal(err)
	}
	hidden, _ := GetEncoding("cl100k_base")
	texts := corpusTexts(t)
	var names []string // paragraphs, as requests
	for _, f := range []string{"en.txt", "chat.txt", "markdown.txt"} {
		for _, p := range strings.Split(texts[f], "\n\n") {
			if len(p) > 200 {
				texts[p] = p
				names = append(names, p)
			}
		}
	}
	var state Calibration
	var bounds []float64
	type pair struct{ estimate, reported int }
	var seen []pair
	for _, name := range names {
		est, err := reg.CountTokens(CountRequest{Target: Target{Model: "pretend-1"}, Text: texts[name]})
		if err != nil {
			t.Fatal(err)
		}
		reported := hidden.Count(texts[name])
		a, err := reg.Calibrate(CalibrateRequest{Calibration: state, Model: "pretend-1", Estimate: est.Tokens, Reported: reported})
		if err != nil {
			t.Fatal(err)
		}
		state = a.Calibration
		bounds = append(bounds, a.Current.ErrorBound)
		seen = append(seen, pair{est.Tokens, reported})
		// Never under-reserve on what was recorded.
		for _, p := range seen {
			upper := float64(p.estimate) * a.Current.Factor * (1 + a.Current.ErrorBound)
			if upper < float64(p.reported) {
				t.Fatalf("after %d pairs: upper %.0f < reported %d", len(seen), upper, p.reported)
			}
		}
	}
	first, last := bounds[0], bounds[len(bounds)-1]
	t.Logf("bound after 1 pair %.3f, after %d pairs %.3f; factor %.3f", first, len(bounds), last, state.Models["pretend-1"].Factor)
	if !(last < first/2 && last < bounds[4]) {
		t.Errorf("the bound did not tighten: %v", bounds)
	}
	// The calibrated count then budgets with the calibrated upper bound.
	b, err := CalculateBudget(reg, BudgetRequest{Model: "pretend-1", Sections: Sections{System: Section{Texts: []string{texts["en.txt"]}}}, Calibration: &state})
	if err != nil {
		t.Fatal(err)
	}
	if b.Sections["system"].Tokens < hidden.Count(texts["en.txt"]) {
		t.Errorf("calibrated budget counts %d, the provider %d", b.Sections["system"].Tokens, hidden.Count(texts["en.txt"]))
	}
}

func TestCalibrate_Errors(t *testing.T) {
	reg := DefaultRegistry()
	for _, req := range []CalibrateRequest{
		{Model: "", Estimate: 1, Reported: 1},
		{Model: "gpt-4o", Estimate: 0, Reported: 1},
		{Model: "gpt-4o", Estimate: 1, Reported: -1},
		{Model: "gpt-4o", Estimate: 1, Reported: 1, Calibration: Calibration{Models: map[string]ModelCalibration{"x": {Pairs: 1, MinLog: 2, MaxLog: 1}}}},
	} {
		if _, err := reg.Calibrate(req); err == nil {
			t.Errorf("%+v: no error", req)
		}
	}
}
