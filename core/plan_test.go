package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/pretok"
)

// openAIEncodings are the encodings whose counts the planner relies on
// adding up.
var openAIEncodings = []string{"o200k_base", "cl100k_base", "p50k_base", "r50k_base"}

func mustEncoding(t testing.TB, name string) *Encoding {
	t.Helper()
	enc, err := GetEncoding(name)
	if err != nil {
		t.Fatal(err)
	}
	return enc
}

func mustPlan(t testing.TB, tok Tokenizer, req PlanRequest) Plan {
	t.Helper()
	p, err := PlanInjection(tok, req)
	if err != nil {
		t.Fatalf("PlanInjection: %v", err)
	}
	checkPlan(t, tok, req, p)
	return p
}

func tiersOf(p Plan) map[string]Tier {
	m := map[string]Tier{}
	for _, it := range p.Items {
		m[it.ID] = it.Tier
	}
	return m
}

func TestPlanner_Tiers(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	for _, tc := range []struct {
		kind       string
		activation float64
		want       Tier
		reason     string
	}{
		{"directive", 1, TierFull, "activation 1.00 ≥ 0.70"},
		{"directive", 0.7, TierFull, "activation 0.70 ≥ 0.70"},
		{"directive", math.Nextafter(0.7, 0), TierSummary, "≥ 0.30"},
		{"directive", 0.3, TierSummary, "activation 0.30 ≥ 0.30"},
		{"procedure", math.Nextafter(0.3, 0), TierNameOnly, "≥ 0.10"},
		{"procedure", 0.1, TierNameOnly, "activation 0.10 ≥ 0.10"},
		{"preference", math.Nextafter(0.1, 0), TierOmitted, "< 0.10"},
		{"preference", 0, TierOmitted, "activation 0.00 < 0.10"},
		{"directive", 0.695, TierSummary, "activation 0.695 ≥ 0.30"},
		{"constraint", 1, TierFull, "activation 1.00 ≥ 0.70"},
		{"constraint", 0.7, TierFull, "activation 0.70 ≥ 0.70"},
		{"constraint", 0.5, TierSummary, "activation 0.50 ≥ 0.30"},
		{"constraint", 0.2, TierSummary, "constraint: kept at summary (floor), though activation 0.20 < 0.30"},
		{"constraint", 0.05, TierSummary, "constraint: kept at summary (floor), though activation 0.05 < 0.30"},
		{"constraint", 0, TierSummary, "constraint: kept at summary (floor)"},
		{"Constraint", 0.05, TierSummary, "constraint: kept at summary (floor)"},
		{" CONSTRAINT ", 0.05, TierSummary, "constraint: kept at summary (floor)"},
	} {
		t.Run(fmt.Sprintf("%s/%v", tc.kind, tc.activation), func(t *testing.T) {
			p := mustPlan(t, enc, PlanRequest{Items: []PlanItem{{
				ID: "x", Name: "x", Kind: tc.kind, Activation: tc.activation,
				Content: "Keep answers short.", Summary: "Be brief.",
			}}})
			got := p.Items[0]
			if got.Tier != tc.want {
				t.Errorf("tier = %s, want %s", got.Tier, tc.want)
			}
			if !strings.Contains(got.Reason, tc.reason) {
				t.Errorf("reason = %q, want it to contain %q", got.Reason, tc.reason)
			}
		})
	}
}

func TestPlanner_CustomThresholds(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	th := Thresholds{Full: 0.9, Summary: 0.5, NameOnly: 0.5}
	items := []PlanItem{
		{ID: "a", Activation: 0.89, Content: "a"},
		{ID: "b", Activation: 0.9, Content: "b"},
		{ID: "c", Activation: 0.5, Content: "c"},
		{ID: "d", Activation: 0.49, Content: "d"},
		{ID: "k", Kind: "constraint", Activation: 0.49, Content: "k"},
	}
	p := mustPlan(t, enc, PlanRequest{Items: items, Thresholds: &th})
	want := map[string]Tier{"a": TierSummary, "b": TierFull, "c": TierSummary, "d": TierOmitted, "k": TierSummary}
	if got := tiersOf(p); !mapsEqual(got, want) {
		t.Errorf("tiers = %v, want %v", got, want)
	}
}

func mapsEqual[K comparable, V comparable](a, b map[K]V) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestPlanner_NameOnlyRendering(t *testing.T) {
	for _, tc := range []struct {
		name string
		item PlanItem
		want string
	}{
		{"tags", PlanItem{ID: "1", Name: "go-style", Kind: "directive", Tags: []string{"tag1", "tag2"}}, "- `go-style` [directive] #tag1 #tag2\n"},
		{"no tags", PlanItem{ID: "1", Name: "go-style", Kind: "procedure"}, "- `go-style` [procedure]\n"},
		{"empty tag list", PlanItem{ID: "1", Name: "n", Kind: "k", Tags: []string{}}, "- `n` [k]\n"},
		{"other kind", PlanItem{ID: "1", Name: "tabs", Kind: "preference", Tags: []string{"style"}}, "- `tabs` [preference] #style\n"},
		{"no name: the id", PlanItem{ID: "beh-42", Kind: "directive"}, "- `beh-42` [directive]\n"},
		{"no kind", PlanItem{ID: "1", Name: "n"}, "- `n` [directive]\n"},
		{"hash and empty tags", PlanItem{ID: "1", Name: "n", Kind: "k", Tags: []string{"#go", "", "  ", "a b"}}, "- `n` [k] #go #a b\n"},
		{"white space on one line", PlanItem{ID: "1", Name: " two\nlines\t", Kind: "k\r\n", Tags: []string{"x\n"}}, "- `two lines` [k] #x\n"},
		{"non-ASCII", PlanItem{ID: "1", Name: "日本語", Kind: "règle", Tags: []string{"ü"}}, "- `日本語` [règle] #ü\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := renderNameOnly(&tc.item); got != tc.want {
				t.Errorf("renderNameOnly = %q, want %q", got, tc.want)
			}
		})
	}
	// Through the planner: an item at the name-only tier shows exactly so.
	enc := mustEncoding(t, "o200k_base")
	p := mustPlan(t, enc, PlanRequest{Items: []PlanItem{
		{ID: "1", Name: "go-style", Kind: "directive", Tags: []string{"go", "style"}, Activation: 0.15, Content: "Run gofmt."},
	}})
	if want := "## Directives\n- `go-style` [directive] #go #style\n"; p.Text != want {
		t.Errorf("text = %q, want %q", p.Text, want)
	}
}

func TestPlanner_SummaryRendering(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	long := "Always write the changelog entry before tagging a release, in the imperative mood, with the issue number and the name of whoever reported it"
	cut, _ := enc.Truncate(long, truncatedSummaryTokens, KeepStart)
	if cut == long {
		t.Fatal("the long line should not fit the summary's tokens")
	}
	for _, tc := range []struct {
		name   string
		item   PlanItem
		want   string
		reason string
	}{
		{"its summary", PlanItem{Content: "Long content.\nMore.", Summary: "Short summary."}, "- Short summary.\n", "≥ 0.30"},
		{"blank summary: first line cut", PlanItem{Content: long + "\nSecond line.", Summary: " \n "}, "- " + strings.TrimRight(cut, " ") + "…\n", "cut to 20 tokens"},
		{"no summary: first line of several", PlanItem{Content: "\n\n  Tag the release.  \nPush it."}, "- Tag the release.…\n", "the first line of its content is shown"},
		{"no summary: one short line whole", PlanItem{Content: "  Be brief.\n\n"}, "- Be brief.\n", "shown whole"},
		{"nothing: the name", PlanItem{Name: "empty", Kind: "directive"}, "- `empty` [directive]\n", "its name is shown"},
		{"multi-line summary", PlanItem{Content: "x", Summary: "One.\r\nTwo."}, "- One.\n  Two.\n", "≥ 0.30"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			it := tc.item
			it.ID, it.Activation = "s", 0.5
			p := mustPlan(t, enc, PlanRequest{Items: []PlanItem{it}})
			if want := "## Directives\n" + tc.want; p.Text != want {
				t.Errorf("text = %q, want %q", p.Text, want)
			}
			if !strings.Contains(p.Items[0].Reason, tc.reason) {
				t.Errorf("reason = %q, want it to contain %q", p.Items[0].Reason, tc.reason)
			}
		})
	}
}

func TestPlanner_FullRendering(t *testing.T) {
	enc := mustEncoding(t, "cl100k_base")
	for _, tc := range []struct {
		name    string
		content string
		summary string
		want    string
	}{
		{"one line", "Run gofmt.", "", "- Run gofmt.\n"},
		{"lines indented, blank lines and trailing space dropped", "First.  \n\n\t\n  indented\r\nlast\t", "", "- First.\n    indented\n  last\n"},
		{"every line break", "a\rb\vc\fd\x1ce\u0085f\u2028g\u2029h", "", "- a\n  b\n  c\n  d\n  e\n  f\n  g\n  h\n"},
		{"no content: the summary", " \n", "Sum.", "- Sum.\n"},
		{"nothing: the name", "", "", "- `n` [directive]\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := mustPlan(t, enc, PlanRequest{Items: []PlanItem{{ID: "f", Name: "n", Kind: "directive", Activation: 0.9, Content: tc.content, Summary: tc.summary}}})
			if want := "## Directives\n" + tc.want; p.Text != want {
				t.Errorf("text = %q, want %q", p.Text, want)
			}
		})
	}
}

func TestPlanner_Sections(t *testing.T) {
	items := []PlanItem{
		{ID: "c1", Name: "no-secrets", Kind: "constraint", Activation: 0.9, Content: "Never print secrets."},
		{ID: "c2", Name: "ask", Kind: "constraint", Activation: 0.05, Content: "Ask before deleting files.", Summary: "Ask before deleting."},
		{ID: "d1", Name: "tests", Kind: "directive", Activation: 0.75, Content: "Prefer table tests.\n\nName tests plainly.  "},
		{ID: "d2", Name: "short", Kind: "style", Activation: 0.5, Content: "Keep functions short and focused.", Summary: "Short functions."},
		{ID: "d3", Name: "fmt", Kind: "directive", Activation: 0.95, Content: "Run gofmt."},
		{ID: "p1", Name: "release", Kind: "procedure", Activation: 0.2, Tags: []string{"ops", "#release"}, Content: "Tag, push, publish."},
		{ID: "p2", Name: "deploy", Kind: "procedure", Activation: 0.5, Content: "Tag.\nPush."},
		{ID: "x", Name: "unused", Kind: "directive", Activation: 0.05, Content: "Never shown."},
		{ID: "d4", Name: "tests", Activation: 0.15},
		{ID: "d5", Name: "tie", Kind: "directive", Activation: 0.75, Content: "Ties keep the request's order."},
	}
	want := "## Constraints\n" +
		"- Never print secrets.\n" +
		"- Ask before deleting.\n" +
		"## Directives\n" +
		"- Run gofmt.\n" +
		"- Prefer table tests.\n" +
		"  Name tests plainly.\n" +
		"- Ties keep the request's order.\n" +
		"- Short functions.\n" +
		"- `tests` [directive]\n" +
		"## Procedures\n" +
		"- Tag.…\n" +
		"- `release` [procedure] #ops #release\n"
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		t.Run(name, func(t *testing.T) {
			enc := mustEncoding(t, name)
			p := mustPlan(t, enc, PlanRequest{Items: items})
			if p.Text != want {
				t.Errorf("text:\n%s\nwant:\n%s", p.Text, want)
			}
			if got := p.Items[7]; got.ID != "x" || got.Tier != TierOmitted || got.Tokens != 0 {
				t.Errorf("items[7] = %+v, want x omitted with 0 tokens", got)
			}
			// Only sections with items show.
			p = mustPlan(t, enc, PlanRequest{Items: items[5:7]})
			if want := "## Procedures\n- Tag.…\n- `release` [procedure] #ops #release\n"; p.Text != want {
				t.Errorf("text = %q, want %q", p.Text, want)
			}
			p = mustPlan(t, enc, PlanRequest{Items: items[7:8]})
			if p.Text != "" || p.TotalTokens != 0 {
				t.Errorf("all omitted: text %q, %d tokens; want none", p.Text, p.TotalTokens)
			}
			p = mustPlan(t, enc, PlanRequest{})
			if p.Text != "" || p.TotalTokens != 0 || p.Items == nil || p.Demotions == nil {
				t.Errorf("no items: %+v", p)
			}
		})
	}
}

// demotionStages are items and the text after each step of the one
// demotion order the seed gives for them: the lowest activation first, one
// tier at a time, the constraint never.
func demotionStages() ([]PlanItem, []string, []Demotion) {
	items := []PlanItem{
		{ID: "K", Name: "no-secrets", Kind: "constraint", Activation: 0.8, Content: "Never print secrets, tokens or passwords."},
		{ID: "A", Name: "style", Kind: "directive", Tags: []string{"go"}, Activation: 0.9,
			Content: "Run gofmt and go vet before every commit.\nKeep functions short; name things plainly; write the reason for a change in its commit message.",
			Summary: "Format, vet, small functions, clear commits."},
		{ID: "B", Name: "tests", Kind: "directive", Activation: 0.5, Content: "Write table tests.", Summary: "Write table tests with plain names, one case per row."},
		{ID: "P", Name: "release", Kind: "procedure", Tags: []string{"ops"}, Activation: 0.2, Content: "Tag and push."},
		{ID: "Z", Name: "never", Kind: "directive", Activation: 0.01, Content: "Omitted from the start."},
	}
	k := "## Constraints\n- Never print secrets, tokens or passwords.\n"
	aFull := "- Run gofmt and go vet before every commit.\n  Keep functions short; name things plainly; write the reason for a change in its commit message.\n"
	aSum := "- Format, vet, small functions, clear commits.\n"
	aName := "- `style` [directive] #go\n"
	bSum := "- Write table tests with plain names, one case per row.\n"
	bName := "- `tests` [directive]\n"
	p := "## Procedures\n- `release` [procedure] #ops\n"
	dir := "## Directives\n"
	stages := []string{
		k + dir + aFull + bSum + p,
		k + dir + aFull + bSum,
		k + dir + aFull + bName,
		k + dir + aFull,
		k + dir + aSum,
		k + dir + aName,
		k,
	}
	steps := []Demotion{
		{"P", TierNameOnly, TierOmitted},
		{"B", TierSummary, TierNameOnly},
		{"B", TierNameOnly, TierOmitted},
		{"A", TierFull, TierSummary},
		{"A", TierSummary, TierNameOnly},
		{"A", TierNameOnly, TierOmitted},
	}
	return items, stages, steps
}

func TestPlanner_Demotion(t *testing.T) {
	items, stages, steps := demotionStages()
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		enc := mustEncoding(t, name)
		counts := make([]int, len(stages))
		for i, s := range stages {
			counts[i] = enc.Count(s)
			if i > 0 && counts[i] >= counts[i-1] {
				t.Fatalf("%s: stage %d has %d tokens, not fewer than stage %d's %d", name, i, counts[i], i-1, counts[i-1])
			}
		}
		type tc struct {
			budget     int
			stage      int
			overBudget bool
		}
		cases := []tc{{0, 0, false}, {counts[0] + 100, 0, false}}
		for i, c := range counts {
			cases = append(cases, tc{c, i, false})
			if i+1 < len(counts) {
				cases = append(cases, tc{c - 1, i + 1, false})
			}
		}
		cases = append(cases, tc{counts[len(counts)-1] - 1, len(stages) - 1, true}, tc{1, len(stages) - 1, true})
		for _, c := range cases {
			t.Run(fmt.Sprintf("%s/budget=%d", name, c.budget), func(t *testing.T) {
				p := mustPlan(t, enc, PlanRequest{Budget: c.budget, Items: items})
				if p.Text != stages[c.stage] {
					t.Errorf("text:\n%s\nwant stage %d:\n%s", p.Text, c.stage, stages[c.stage])
				}
				if !slices.Equal(p.Demotions, steps[:c.stage]) {
					t.Errorf("demotions = %v, want %v", p.Demotions, steps[:c.stage])
				}
				if p.TotalTokens != counts[c.stage] || p.OverBudget != c.overBudget || p.Budget != c.budget {
					t.Errorf("total %d overBudget %v budget %d, want %d %v %d", p.TotalTokens, p.OverBudget, p.Budget, counts[c.stage], c.overBudget, c.budget)
				}
				k := p.Items[0]
				if k.Tier != TierFull {
					t.Errorf("the constraint is %s, want full", k.Tier)
				}
				if c.overBudget != strings.Contains(k.Reason, "constraints are never demoted") {
					t.Errorf("constraint reason = %q", k.Reason)
				}
			})
		}
	}
	t.Run("reason", func(t *testing.T) {
		enc := mustEncoding(t, "o200k_base")
		budget := enc.Count(stages[4])
		p := mustPlan(t, enc, PlanRequest{Budget: budget, Items: items})
		want := fmt.Sprintf("activation 0.90 ≥ 0.70; demoted from full to summary to fit the budget of %d", budget)
		if got := p.Items[1].Reason; got != want {
			t.Errorf("reason = %q, want %q", got, want)
		}
		want = fmt.Sprintf("activation 0.50 ≥ 0.30; demoted from summary to omitted to fit the budget of %d", budget)
		if got := p.Items[2].Reason; got != want {
			t.Errorf("reason = %q, want %q", got, want)
		}
		if got := p.Items[4].Reason; got != "activation 0.01 < 0.10" {
			t.Errorf("reason = %q", got)
		}
	})
}

func TestPlanner_DemotionTies(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	items := []PlanItem{
		{ID: "first", Activation: 0.5, Summary: "The first of two tied items."},
		{ID: "second", Activation: 0.5, Summary: "The second of two tied items."},
		{ID: "low", Activation: 0.4, Summary: "The lowest of the three, so the first to be demoted."},
	}
	full := mustPlan(t, enc, PlanRequest{Items: items})
	p := mustPlan(t, enc, PlanRequest{Budget: full.TotalTokens - 1, Items: items})
	if want := []Demotion{{"low", TierSummary, TierNameOnly}}; !slices.Equal(p.Demotions, want) {
		t.Fatalf("demotions = %v, want %v", p.Demotions, want)
	}
	p = mustPlan(t, enc, PlanRequest{Budget: 12, Items: items})
	want := []Demotion{
		{"low", TierSummary, TierNameOnly}, {"low", TierNameOnly, TierOmitted},
		{"first", TierSummary, TierNameOnly},
	}
	if len(p.Demotions) < 3 || !slices.Equal(p.Demotions[:3], want) {
		t.Fatalf("demotions = %v, want to start with %v", p.Demotions, want)
	}
}

func TestPlanner_Validation(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	ok := func() []PlanItem {
		return []PlanItem{{ID: "a", Activation: 0.5}, {ID: "b", Activation: 0.5}, {ID: "c"}, {ID: "d", Activation: 1}}
	}
	with := func(i int, f func(*PlanItem)) []PlanItem { items := ok(); f(&items[i]); return items }
	th := func(f, s, n float64) *Thresholds { return &Thresholds{f, s, n} }
	for _, tc := range []struct {
		name  string
		req   PlanRequest
		field string
	}{
		{"negative budget", PlanRequest{Budget: -1, Items: ok()}, "budget"},
		{"empty id", PlanRequest{Items: with(2, func(it *PlanItem) { it.ID = "" })}, "items[2].id"},
		{"duplicate id", PlanRequest{Items: with(3, func(it *PlanItem) { it.ID = "a" })}, "items[3].id"},
		{"NaN", PlanRequest{Items: with(3, func(it *PlanItem) { it.Activation = math.NaN() })}, "items[3].activation"},
		{"+Inf", PlanRequest{Items: with(1, func(it *PlanItem) { it.Activation = math.Inf(1) })}, "items[1].activation"},
		{"-Inf", PlanRequest{Items: with(1, func(it *PlanItem) { it.Activation = math.Inf(-1) })}, "items[1].activation"},
		{"above 1", PlanRequest{Items: with(0, func(it *PlanItem) { it.Activation = 1.0000001 })}, "items[0].activation"},
		{"below 0", PlanRequest{Items: with(0, func(it *PlanItem) { it.Activation = -0.01 })}, "items[0].activation"},
		{"thresholds out of order", PlanRequest{Items: ok(), Thresholds: th(0.3, 0.7, 0.1)}, "thresholds.summary"},
		{"nameOnly above summary", PlanRequest{Items: ok(), Thresholds: th(0.7, 0.3, 0.4)}, "thresholds.nameOnly"},
		{"threshold NaN", PlanRequest{Items: ok(), Thresholds: th(math.NaN(), 0.3, 0.1)}, "thresholds.full"},
		{"threshold above 1", PlanRequest{Items: ok(), Thresholds: th(1.5, 0.3, 0.1)}, "thresholds.full"},
		{"threshold below 0", PlanRequest{Items: ok(), Thresholds: th(0.7, 0.3, -0.1)}, "thresholds.nameOnly"},
		{"session", PlanRequest{Items: ok(), Session: &Session{Config: SessionConfig{3000, 500, 0}}}, "session.config.backoffMultiplier"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := PlanInjection(enc, tc.req)
			var fe *FieldError
			if !errors.As(err, &fe) || !errors.Is(err, ErrInvalidRequest) || Code(err) != CodeInvalidRequest {
				t.Fatalf("err = %v, want a *FieldError wrapping ErrInvalidRequest", err)
			}
			if fe.Field != tc.field {
				t.Errorf("field = %q, want %q (%v)", fe.Field, tc.field, err)
			}
		})
	}
	if _, err := PlanInjection(nil, PlanRequest{}); !errors.Is(err, ErrInvalidRequest) {
		t.Errorf("nil tokenizer: err = %v", err)
	}
	// Edges that are valid.
	for _, tc := range []PlanRequest{
		{Items: ok(), Thresholds: th(0, 0, 0)},
		{Items: ok(), Thresholds: th(1, 1, 1)},
		{Items: with(0, func(it *PlanItem) { it.ID = " " })},
	} {
		if _, err := PlanInjection(enc, tc); err != nil {
			t.Errorf("%+v: %v", tc, err)
		}
	}
}

func TestPlanner_JSON(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	in := `{
		"budget": 40,
		"items": [
			{"id": "k", "name": "no-secrets", "kind": "constraint", "tags": ["security"], "activation": 0.05, "content": "Never print secrets."},
			{"id": "d", "name": "fmt", "kind": "directive", "activation": 0.75, "content": "Run gofmt before every commit, and go vet, and the tests.", "summary": "gofmt, vet, tests."},
			{"id": "p", "name": "release", "kind": "procedure", "tags": ["ops"], "activation": 0.35, "content": "Tag and push."}
		],
		"thresholds": {"full": 0.8}
	}`
	var req PlanRequest
	if err := json.Unmarshal([]byte(in), &req); err != nil {
		t.Fatal(err)
	}
	if want := (Thresholds{0.8, 0.3, 0.1}); *req.Thresholds != want {
		t.Errorf("thresholds = %+v, want %+v (absent fields keep their defaults)", *req.Thresholds, want)
	}
	p := mustPlan(t, enc, req)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	var out map[string]any
	if err := json.Unmarshal(b, &out); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"items", "totalTokens", "budget", "text", "demotions", "overBudget", "exact", "encoding"} {
		if _, ok := out[k]; !ok {
			t.Errorf("answer has no %q: %s", k, b)
		}
	}
	if _, ok := out["session"]; ok {
		t.Errorf("answer has a session without one asked: %s", b)
	}
	item := out["items"].([]any)[1].(map[string]any)
	for _, k := range []string{"id", "tier", "reason", "tokens"} {
		if _, ok := item[k]; !ok {
			t.Errorf("item has no %q: %v", k, item)
		}
	}
	if item["tier"] != "summary" {
		t.Errorf("tier = %v, want summary (0.75 < full threshold 0.8)", item["tier"])
	}
	if out["exact"] != true || out["encoding"] != "o200k_base" {
		t.Errorf("exact/encoding = %v/%v", out["exact"], out["encoding"])
	}
	// The answer decodes back to the same plan.
	var back Plan
	if err := json.Unmarshal(b, &back); err != nil {
		t.Fatal(err)
	}
	if back.Text != p.Text || !slices.Equal(back.Items, p.Items) || !slices.Equal(back.Demotions, p.Demotions) {
		t.Errorf("round trip: %+v, want %+v", back, p)
	}
	// Tier names.
	for tier := TierFull; tier <= TierOmitted; tier++ {
		b, _ := json.Marshal(tier)
		var got Tier
		if err := json.Unmarshal(b, &got); err != nil || got != tier {
			t.Errorf("tier %d: %s → %d, %v", tier, b, got, err)
		}
	}
	var bad Tier
	if err := json.Unmarshal([]byte(`"huge"`), &bad); err == nil {
		t.Error(`"huge" decoded as a tier`)
	}
	if _, err := json.Marshal(Tier(9)); err == nil {
		t.Error("Tier(9) encoded")
	}
}

// TestPlanner_SpaceClass checks that unicode.IsSpace, which trims the ends of
// segments, is exactly the pre-tokenizers' \s: for "rrx", the GPT-2 pattern
// ends its first piece after one r exactly when r is white space.
func TestPlanner_SpaceClass(t *testing.T) {
	for r := rune(0); r <= unicode.MaxRune; r++ {
		if r >= 0xD800 && r <= 0xDFFF {
			continue
		}
		s := string(r) + string(r) + "x"
		if space := pretok.GPT2(s, 0) == utf8.RuneLen(r); space != unicode.IsSpace(r) {
			t.Errorf("U+%04X: pre-tokenizer space %v, unicode.IsSpace %v", r, space, unicode.IsSpace(r))
		}
	}
}

// TestPlanner_SegmentsAdd checks on many random items, for all four OpenAI
// encodings, that the count of the text is the sum of its segments' counts,
// so the fast path never needs its fallback.
func TestPlanner_SegmentsAdd(t *testing.T) {
	n := 400
	if testing.Short() {
		n = 50
	}
	for _, name := range openAIEncodings {
		t.Run(name, func(t *testing.T) {
			enc := mustEncoding(t, name)
			rng := rand.New(rand.NewPCG(1, uint64(len(name))))
			for i := range n {
				req := randomRequest(rng, 1+rng.IntN(12), "", "")
				req.Budget = 0
				if i%2 == 1 {
					req.Budget = rng.IntN(300)
				}
				plan := mustPlan(t, enc, req)
				if sum := segmentSum(enc, plan); sum != plan.TotalTokens {
					t.Fatalf("Σ segments %d, total %d:\n%q", sum, plan.TotalTokens, plan.Text)
				}
				if want := referencePlan(enc, req); !samePlan(plan, want) {
					t.Fatalf("plan differs from the reference:\n got %+v\nwant %+v", plan, want)
				}
			}
		})
	}
}

// segmentSum is the sum of a plan's item counts and its section headers'
// counts: its TotalTokens when the counts add up, as they do for an
// *Encoding (the planner then never counts the text after a demotion).
func segmentSum(tok Tokenizer, plan Plan) int {
	sum := 0
	for _, it := range plan.Items {
		sum += it.Tokens
	}
	for s := range numSections {
		if strings.Contains(plan.Text, sectionHeaders[s]) {
			sum += tok.Count(sectionHeaders[s])
		}
	}
	return sum
}

// testEstimate is a Tokenizer whose counts do not add: about four bytes a token,
// and an upper bound a quarter above.
type testEstimate struct{}

func (testEstimate) Name() string          { return "estimate:test" }
func (testEstimate) Exact() bool           { return false }
func (testEstimate) Count(text string) int { return (len(text) + 3) / 4 }
func (testEstimate) Upper(count int) int   { return count + (count+3)/4 }
func (testEstimate) Truncate(text string, maxTokens int, keep Side) (string, int) {
	n := min(len(text), 4*max(0, maxTokens))
	for n > 0 && n < len(text) && !utf8.RuneStart(text[n]) {
		n--
	}
	if keep == KeepEnd {
		return text[len(text)-n:], (n + 3) / 4
	}
	return text[:n], (n + 3) / 4
}

func TestPlanner_Estimate(t *testing.T) {
	items, _, _ := demotionStages()
	var tok testEstimate
	full := mustPlan(t, tok, PlanRequest{Items: items})
	if full.Exact || full.Encoding != "estimate:test" {
		t.Errorf("exact %v encoding %q", full.Exact, full.Encoding)
	}
	rng := rand.New(rand.NewPCG(7, 7))
	fellBack := false
	for b := 1; b <= tok.Upper(full.TotalTokens)+2; b++ {
		req := PlanRequest{Budget: b, Items: items}
		p := mustPlan(t, tok, req)
		if want := referencePlan(tok, req); !samePlan(p, want) {
			t.Fatalf("budget %d: %+v, want %+v", b, p, want)
		}
		fellBack = fellBack || segmentSum(tok, p) != p.TotalTokens
	}
	if !fellBack {
		t.Error("the estimate's counts added up: the fallback went untested")
	}
	for range 100 {
		req := randomRequest(rng, 1+rng.IntN(10), "", "")
		req.Budget = rng.IntN(200)
		p := mustPlan(t, tok, req)
		if want := referencePlan(tok, req); !samePlan(p, want) {
			t.Fatalf("%+v, want %+v", p, want)
		}
	}
}

// checkPlan checks the invariants every plan keeps.
func checkPlan(t testing.TB, tok Tokenizer, req PlanRequest, p Plan) {
	t.Helper()
	if p.TotalTokens != tok.Count(p.Text) {
		t.Fatalf("totalTokens %d != Count(text) %d", p.TotalTokens, tok.Count(p.Text))
	}
	fits := p.Budget == 0 || tok.Upper(p.TotalTokens) <= p.Budget
	if p.OverBudget == fits {
		t.Fatalf("overBudget %v with %d tokens (upper %d) for a budget of %d", p.OverBudget, p.TotalTokens, tok.Upper(p.TotalTokens), p.Budget)
	}
	if req.Session == nil && p.Budget != req.Budget {
		t.Fatalf("budget %d, asked %d", p.Budget, req.Budget)
	}
	if req.Session != nil && req.Budget > 0 && p.Budget > req.Budget {
		t.Fatalf("budget %d above the request's %d", p.Budget, req.Budget)
	}
	if len(p.Items) != len(req.Items) {
		t.Fatalf("%d items, asked %d", len(p.Items), len(req.Items))
	}
	if p.Exact != tok.Exact() || p.Items == nil || p.Demotions == nil {
		t.Fatalf("exact %v, items nil %v, demotions nil %v", p.Exact, p.Items == nil, p.Demotions == nil)
	}
	if p.Text != "" && !strings.HasSuffix(p.Text, "\n") {
		t.Fatalf("text does not end with a newline: %q", p.Text)
	}
	for _, line := range strings.Split(strings.TrimSuffix(p.Text, "\n"), "\n") {
		if p.Text == "" {
			break
		}
		if strings.TrimFunc(line, isSpaceOrBreak) == "" {
			t.Fatalf("blank line in %q", p.Text)
		}
		if !strings.HasPrefix(line, "## ") && !strings.HasPrefix(line, "- ") && !strings.HasPrefix(line, "  ") {
			t.Fatalf("line %q is not a header, an item or a continuation", line)
		}
	}
	if req.Session != nil {
		if p.Session == nil {
			t.Fatal("no session report")
		}
		if !p.Session.Allowed {
			// A refused prompt: nothing at all.
			if p.Text != "" || len(p.Demotions) > 0 || p.Session.Injected {
				t.Fatalf("refused, yet %+v", p)
			}
			for _, it := range p.Items {
				if it.Tier != TierOmitted || it.Tokens != 0 {
					t.Fatalf("refused, yet %+v", it)
				}
			}
			return
		}
		if p.Budget <= 0 || p.Budget > p.Session.Budget {
			t.Fatalf("budget %d beyond the session's %d", p.Budget, p.Session.Budget)
		}
		if p.Session.Injected != (p.TotalTokens > 0) {
			t.Fatalf("injected %v with %d tokens", p.Session.Injected, p.TotalTokens)
		}
	} else if p.Session != nil {
		t.Fatal("a session report without a session")
	}
	th := DefaultThresholds()
	if req.Thresholds != nil {
		th = *req.Thresholds
	}
	// Replay the demotions from the tiers the activations give.
	tier := make([]Tier, len(req.Items))
	constraint := make([]bool, len(req.Items))
	index := map[string]int{}
	for i, it := range req.Items {
		index[it.ID] = i
		constraint[i] = strings.EqualFold(strings.TrimSpace(it.Kind), "constraint")
		tier[i] = th.tier(it.Activation)
		if constraint[i] {
			tier[i] = min(tier[i], TierSummary)
		}
		if p.Items[i].ID != it.ID {
			t.Fatalf("items[%d] is %q, want %q", i, p.Items[i].ID, it.ID)
		}
		if p.Items[i].Reason == "" {
			t.Fatalf("items[%d] has no reason", i)
		}
	}
	if len(p.Demotions) > 0 && p.Budget == 0 {
		t.Fatalf("demotions without a budget: %v", p.Demotions)
	}
	for _, d := range p.Demotions {
		i, ok := index[d.ID]
		if !ok || constraint[i] || tier[i] != d.From || d.To != d.From+1 {
			t.Fatalf("demotion %v: unknown, a constraint, or not one tier down from %s", d, tier[i])
		}
		for j, it := range req.Items {
			if j != i && !constraint[j] && tier[j] < TierOmitted {
				a, b := it.Activation, req.Items[i].Activation
				if a < b || a == b && j < i {
					t.Fatalf("demotion %v while %q has a lower activation", d, it.ID)
				}
			}
		}
		tier[i] = d.To
	}
	for i, it := range p.Items {
		if it.Tier != tier[i] {
			t.Fatalf("items[%d] is %s, demotions give %s", i, it.Tier, tier[i])
		}
		if constraint[i] && it.Tier > TierSummary {
			t.Fatalf("constraint %q at %s", it.ID, it.Tier)
		}
		if (it.Tier == TierOmitted) != (it.Tokens == 0) {
			t.Fatalf("items[%d] %s with %d tokens", i, it.Tier, it.Tokens)
		}
		if p.OverBudget && !constraint[i] && it.Tier != TierOmitted {
			t.Fatalf("over budget with %q still at %s", it.ID, it.Tier)
		}
	}
}

// referencePlan is the seed's procedure done the plain way: assemble the
// text, count it, demote the lowest-activation non-constraint item one tier,
// and again, until it fits.
func referencePlan(tok Tokenizer, req PlanRequest) Plan {
	th := DefaultThresholds()
	if req.Thresholds != nil {
		th = *req.Thresholds
	}
	type entry struct {
		i          int
		it         PlanItem
		sec        int
		constraint bool
		tier       Tier
	}
	var es []*entry
	for i, it := range req.Items {
		e := &entry{i: i, it: it, sec: 1, tier: th.tier(it.Activation)}
		switch strings.ToLower(strings.TrimSpace(it.Kind)) {
		case "constraint":
			e.sec, e.constraint = 0, true
			e.tier = min(e.tier, TierSummary)
		case "procedure":
			e.sec = 2
		}
		es = append(es, e)
	}
	text := func() string {
		sorted := slices.Clone(es)
		slices.SortStableFunc(sorted, func(a, b *entry) int {
			switch {
			case a.sec != b.sec:
				return a.sec - b.sec
			case a.tier != b.tier:
				return int(a.tier) - int(b.tier)
			case a.it.Activation > b.it.Activation:
				return -1
			case a.it.Activation < b.it.Activation:
				return 1
			}
			return a.i - b.i
		})
		var b strings.Builder
		last := -1
		for _, e := range sorted {
			if e.tier == TierOmitted {
				continue
			}
			if e.sec != last {
				b.WriteString([]string{"## Constraints\n", "## Directives\n", "## Procedures\n"}[e.sec])
				last = e.sec
			}
			seg, _ := renderItem(tok, &e.it, e.tier)
			b.WriteString(seg)
		}
		return b.String()
	}
	p := Plan{Budget: req.Budget, Demotions: []Demotion{}}
	p.Text = text()
	p.TotalTokens = tok.Count(p.Text)
	for req.Budget > 0 && tok.Upper(p.TotalTokens) > req.Budget {
		var low *entry
		for _, e := range es {
			if !e.constraint && e.tier < TierOmitted && (low == nil || e.it.Activation < low.it.Activation) {
				low = e
			}
		}
		if low == nil {
			p.OverBudget = true
			break
		}
		p.Demotions = append(p.Demotions, Demotion{low.it.ID, low.tier, low.tier + 1})
		low.tier++
		p.Text = text()
		p.TotalTokens = tok.Count(p.Text)
	}
	for _, e := range es {
		p.Items = append(p.Items, PlannedItem{ID: e.it.ID, Tier: e.tier})
	}
	return p
}

func samePlan(got, want Plan) bool {
	if got.Text != want.Text || got.TotalTokens != want.TotalTokens || got.OverBudget != want.OverBudget ||
		!slices.Equal(got.Demotions, want.Demotions) || len(got.Items) != len(want.Items) {
		return false
	}
	for i := range got.Items {
		if got.Items[i].ID != want.Items[i].ID || got.Items[i].Tier != want.Items[i].Tier {
			return false
		}
	}
	return true
}

// Pools for random items: plain and non-ASCII text, white space of every
// kind, the characters that pre-tokenizers treat specially, and bytes that
// are not UTF-8.
var (
	poolWords = []string{
		"the", "Run", "gofmt", "tests", "x", "naïve", "café", "日本語", "你好世界", "Привет", "مرحبا", "नमस्ते",
		"🙂", "👩‍💻", "e\u0301", "\u0301", "123", "4567", "٣٤", "'s", "'T", "'ll", "'", "''", "/", "//", "/*", "*/",
		"-", "--", "#", "##", "`", "[k]", "...", "…", "!", "?", "<|endoftext|>", "\xff", "\xe2\x80", "\xc3", "ſ", "'ſ",
		"Ａｂ", "ǅ", "ᾈ", "\u00ad", "\u200b", "\ufeff", "\x00", "\x1f", "\x7f",
	}
	poolSpaces = []string{
		" ", "  ", "\t", "\n", "\n\n", "\r\n", "\r", " \n ", "\v", "\f", "\u00a0", "\u0085", "\u2028", "\u2029",
		"\u3000", "\u2003", "\u1680", "\x1c", "\x1e", " \t\r\n\v\f ",
	}
	poolKinds = []string{"constraint", "directive", "procedure", "preference", "", "Constraint", " procedure ", "ru\nle"}
)

func randomText(rng *rand.Rand, words int, extra string) string {
	var b strings.Builder
	for range words {
		switch r := rng.IntN(10); {
		case r < 5:
			b.WriteString(poolWords[rng.IntN(len(poolWords))])
		case r < 8:
			b.WriteString(poolSpaces[rng.IntN(len(poolSpaces))])
		case r < 9 && extra != "":
			i, j := rng.IntN(len(extra)+1), rng.IntN(len(extra)+1)
			b.WriteString(extra[min(i, j):max(i, j)])
		default:
			b.WriteByte(byte(rng.IntN(256)))
		}
	}
	return b.String()
}

// randomRequest makes n items; extraText and extraName, from a fuzzer, are
// mixed into their strings.
func randomRequest(rng *rand.Rand, n int, extraText, extraName string) PlanRequest {
	req := PlanRequest{}
	acts := []float64{0, 0.05, 0.1, 0.3, 0.5, 0.7, 0.9, 1, math.Nextafter(0.7, 0), math.Nextafter(0.3, 0)}
	for i := range n {
		it := PlanItem{
			ID:   fmt.Sprintf("i%d", i),
			Name: randomText(rng, rng.IntN(3), extraName),
			Kind: poolKinds[rng.IntN(len(poolKinds))],
		}
		if rng.IntN(3) == 0 {
			it.Activation = acts[rng.IntN(len(acts))]
		} else {
			it.Activation = rng.Float64()
		}
		for range rng.IntN(3) {
			it.Tags = append(it.Tags, randomText(rng, rng.IntN(3), extraName))
		}
		switch rng.IntN(6) {
		case 0: // empty
		case 1:
			it.Content = randomText(rng, 1+rng.IntN(4), extraText)
		default:
			it.Content = randomText(rng, rng.IntN(60), extraText)
		}
		if rng.IntN(2) == 0 {
			it.Summary = randomText(rng, rng.IntN(10), extraText)
		}
		req.Items = append(req.Items, it)
	}
	if rng.IntN(4) == 0 {
		f := rng.Float64()
		s := f * rng.Float64()
		req.Thresholds = &Thresholds{Full: f, Summary: s, NameOnly: s * rng.Float64()}
	}
	return req
}

func FuzzPlan(f *testing.F) {
	f.Add(uint64(1), uint16(0), uint8(4), "Run gofmt.\nThen vet.", "go-style")
	f.Add(uint64(2), uint16(50), uint8(12), "  \n\t\r\n ", "")
	f.Add(uint64(3), uint16(1), uint8(20), "日本語 'll // \xff", "`x` [k] #t")
	f.Add(uint64(4), uint16(300), uint8(8), "", "\n")
	encs := []*Encoding{mustEncoding(f, "o200k_base"), mustEncoding(f, "cl100k_base"), mustEncoding(f, "p50k_base"), mustEncoding(f, "r50k_base")}
	f.Fuzz(func(t *testing.T, seed uint64, budget uint16, n uint8, text, name string) {
		rng := rand.New(rand.NewPCG(seed, uint64(n)))
		req := randomRequest(rng, int(n%24), text, name)
		req.Budget = int(budget % 2000)
		if budget%3 == 0 {
			req.Budget = 0
		}
		var tok Tokenizer = encs[seed%uint64(len(encs))]
		if seed%7 == 0 {
			tok = testEstimate{}
		}
		p := mustPlan(t, tok, req)
		if want := referencePlan(tok, req); !samePlan(p, want) {
			t.Fatalf("plan differs from the reference:\n got %+v\nwant %+v", p, want)
		}
		if tok.Exact() && segmentSum(tok, p) != p.TotalTokens {
			t.Fatalf("counts did not add for %q", p.Text)
		}
	})
}

// recounting hides that it is an *Encoding, so the planner recounts the text
// after every demotion: the cost the sum of segments saves.
type recounting struct{ *Encoding }

func BenchmarkPlanInjection(b *testing.B) {
	enc := mustEncoding(b, "o200k_base")
	rng := rand.New(rand.NewPCG(3, 3))
	for _, n := range []int{10, 100, 1000} {
		req := PlanRequest{Budget: DefaultTokenBudget}
		size := 0
		for i := range n {
			content := strings.Repeat("Keep the change small and say why in the commit message. ", 1+rng.IntN(8))
			req.Items = append(req.Items, PlanItem{
				ID: fmt.Sprint(i), Name: fmt.Sprint("item-", i), Kind: poolKinds[i%4], Tags: []string{"go"},
				Activation: rng.Float64(), Content: content, Summary: "Small changes, clear reasons.",
			})
			size += len(content)
		}
		for _, tc := range []struct {
			name string
			tok  Tokenizer
		}{{"sum", enc}, {"recount", recounting{enc}}} {
			b.Run(fmt.Sprint(n, "items/", tc.name), func(b *testing.B) {
				b.SetBytes(int64(size))
				for b.Loop() {
					if _, err := PlanInjection(tc.tok, req); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
