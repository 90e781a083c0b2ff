package wasm_test

import (
	"os"
	"reflect"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
)

// TestTSTypes_MirrorCore holds each interface of the npm package's types
// (js/src/index.d.ts) to the core type of the same name: the same JSON
// field names, no more and no fewer. Types whose JSON is custom (Section,
// ToolChoice, Tier, message content) are type aliases there and not listed.
func TestTSTypes_MirrorCore(t *testing.T) {
	b, err := os.ReadFile("../js/src/index.d.ts")
	if err != nil {
		t.Fatal(err)
	}
	ts := parseInterfaces(string(b))
	for name, v := range map[string]any{
		"Target": core.Target{}, "Counted": core.Counted{}, "CountAnswer": core.CountAnswer{},
		"EncodeAnswer": core.EncodeAnswer{}, "DecodeAnswer": core.DecodeAnswer{}, "LimitAnswer": core.LimitAnswer{},
		"TruncateAnswer": core.TruncateAnswer{}, "Chunk": core.Chunk{}, "ChunkAnswer": core.ChunkAnswer{},
		"ImageURL": core.ImageURL{}, "ContentPart": core.ContentPart{}, "FunctionCall": core.FunctionCall{},
		"ToolCall": core.ToolCall{}, "ChatMessage": core.ChatMessage{}, "FunctionDef": core.FunctionDef{},
		"ChatTool": core.ChatTool{}, "ChatRequest": core.ChatRequest{}, "ChatCount": core.ChatCount{},
		"ChatAnswer": core.ChatAnswer{}, "Sections": core.Sections{}, "Limits": core.Limits{}, "Alerts": core.Alerts{},
		"ReservePolicy": core.ReservePolicy{}, "BudgetRequest": core.BudgetRequest{}, "SectionBudget": core.SectionBudget{},
		"HistoryBudget": core.HistoryBudget{}, "Budget": core.Budget{}, "Thresholds": core.Thresholds{},
		"PlanItem": core.PlanItem{}, "SessionConfig": core.SessionConfig{}, "SessionState": core.SessionState{},
		"Session": core.Session{}, "PlanRequest": core.PlanRequest{}, "PlanCall": core.PlanCall{},
		"PlannedItem": core.PlannedItem{}, "Demotion": core.Demotion{}, "SessionReport": core.SessionReport{},
		"Plan": core.Plan{}, "ModelCalibration": core.ModelCalibration{}, "Calibration": core.Calibration{},
		"CalibrateRequest": core.CalibrateRequest{}, "CalibrateAnswer": core.CalibrateAnswer{}, "Model": core.Model{},
		"Estimator": core.Estimator{}, "ModelInfo": core.ModelInfo{}, "ModelsRequest": core.ModelsRequest{},
		"EncodingInfo": core.EncodingInfo{}, "Resolved": core.Resolved{}, "SectionShare": core.SectionShare{},
		"Remedy": core.Remedy{}, "TokenizerInfo": core.TokenizerInfo{}, "Price": core.Price{}, "Cost": core.Cost{},
		"CostTokens": core.CostTokens{}, "UsageRequest": core.UsageRequest{}, "UsageAnswer": core.UsageAnswer{},
		"CatalogInfo":    core.CatalogInfo{},
		"ResponseFormat": core.ResponseFormat{}, "JSONSchemaFormat": core.JSONSchemaFormat{},
	} {
		want := jsonNames(reflect.TypeOf(v))
		// countChat reads tokenfit's calibration and cachedTokens beside
		// OpenAI's fields, and the output limit its cost prices.
		if name == "ChatRequest" {
			want = append(want, "calibration", "cachedTokens", "max_tokens", "max_completion_tokens")
		}
		slices.Sort(want)
		got, ok := ts[name]
		if !ok {
			t.Errorf("index.d.ts has no interface %s", name)
			continue
		}
		slices.Sort(got)
		if !slices.Equal(got, want) {
			t.Errorf("interface %s has fields %q; core.%s has %q", name, got, name, want)
		}
	}
}

// jsonNames lists a struct's JSON field names, embedded structs flattened.
func jsonNames(t reflect.Type) []string {
	var out []string
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		switch {
		case tag == "-" || !f.IsExported():
		case f.Anonymous && tag == "" && f.Type.Kind() == reflect.Struct:
			out = append(out, jsonNames(f.Type)...)
		case tag != "":
			out = append(out, tag)
		default:
			out = append(out, f.Name)
		}
	}
	return out
}

// parseInterfaces reads "export interface Name extends A, B { field?: …; }"
// blocks: each interface's property names, inherited ones included.
func parseInterfaces(src string) map[string][]string {
	block := regexp.MustCompile(`(?ms)^export interface (\w+)(?: extends ([\w, ]+))? \{(\}|.*?^\})`)
	prop := regexp.MustCompile(`(?m)^  (?:readonly )?(\w+)\??: `)
	own := map[string][]string{}
	parents := map[string][]string{}
	for _, m := range block.FindAllStringSubmatch(src, -1) {
		for _, p := range prop.FindAllStringSubmatch(m[3], -1) {
			own[m[1]] = append(own[m[1]], p[1])
		}
		if own[m[1]] == nil {
			own[m[1]] = []string{}
		}
		for _, p := range strings.Split(m[2], ",") {
			if p = strings.TrimSpace(p); p != "" {
				parents[m[1]] = append(parents[m[1]], p)
			}
		}
	}
	var all func(string) []string
	all = func(n string) []string {
		out := slices.Clone(own[n])
		for _, p := range parents[n] {
			out = append(out, all(p)...)
		}
		return out
	}
	res := map[string][]string{}
	for n := range own {
		res[n] = all(n)
	}
	return res
}
