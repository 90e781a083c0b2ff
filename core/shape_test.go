package core

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/tokenfit/tokenfit/internal/hostile"
)

type shapeVector struct {
	hostile.VectorCase
	Equivalent        json.RawMessage `json:"equivalent"`
	EquivalentHistory json.RawMessage `json:"equivalentHistory"`
}

func loadShapeVectors(t *testing.T) []shapeVector {
	t.Helper()
	b, err := os.ReadFile("../testdata/vectors/shapes.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Cases []shapeVector }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	if len(f.Cases) < 10 {
		t.Fatalf("shapes.json: %d cases", len(f.Cases))
	}
	return f.Cases
}

// TestShapes_Vectors runs testdata/vectors/shapes.json: each answer holds
// its expect, and a translated request counts as its OpenAI equivalent
// does, message by message.
func TestShapes_Vectors(t *testing.T) {
	a := NewAPI()
	for _, c := range loadShapeVectors(t) {
		t.Run(c.Name, func(t *testing.T) {
			out := a.Call(c.Op, c.Bytes())
			if err := hostile.Expect(c.Expect, out); err != nil {
				t.Fatalf("%v", err)
			}
			switch {
			case c.Equivalent != nil:
				var got, want ChatAnswer
				mustUnmarshal(t, out, &got)
				mustUnmarshal(t, a.Call("countChat", c.Equivalent), &want)
				if got.Total != want.Total || got.UpperBound != want.UpperBound || got.Tools != want.Tools || got.ToolChoice != want.ToolChoice || got.Images != want.Images {
					t.Errorf("translated %+v\nequivalent %+v", got.ChatCount, want.ChatCount)
				}
				sum := got.System
				for _, n := range got.PerMessage {
					sum += n
				}
				if sum != got.Messages || got.Messages != want.Messages {
					t.Errorf("perMessage %v + system %d = %d; messages %d, the equivalent's %d", got.PerMessage, got.System, sum, got.Messages, want.Messages)
				}
			case c.EquivalentHistory != nil:
				var req map[string]json.RawMessage
				mustUnmarshal(t, c.Request, &req)
				req["history"] = c.EquivalentHistory
				var got, want Budget
				mustUnmarshal(t, out, &got)
				eq, _ := json.Marshal(req)
				mustUnmarshal(t, a.Call("calculateBudget", eq), &want)
				if got.History.Tokens != want.History.Tokens || sumInts(got.History.PerMessage) != sumInts(want.History.PerMessage) {
					t.Errorf("history %+v\nequivalent %+v", got.History, want.History)
				}
			}
		})
	}
}

func mustUnmarshal(t *testing.T, b []byte, v any) {
	t.Helper()
	if err := json.Unmarshal(b, v); err != nil {
		t.Fatalf("%s: %v", b, err)
	}
}

func sumInts(v []int) int {
	n := 0
	for _, x := range v {
		n += x
	}
	return n
}

// TestShapes_ToolsAnyShape: a budget's tools cost the same in each shape.
func TestShapes_ToolsAnyShape(t *testing.T) {
	schema := `{"type":"object","properties":{"city":{"type":"string","description":"City name"}},"required":["city"]}`
	a := NewAPI()
	var want int
	for i, tools := range []string{
		`[{"type":"function","function":{"name":"get_weather","description":"Weather","parameters":` + schema + `}}]`,
		`[{"name":"get_weather","description":"Weather","input_schema":` + schema + `}]`,
		`[{"functionDeclarations":[{"name":"get_weather","description":"Weather","parameters":` + schema + `}]}]`,
		`{"get_weather":{"description":"Weather","inputSchema":{"jsonSchema":` + schema + `}}}`,
		`{"get_weather":{"description":"Weather","parameters":` + schema + `}}`,
	} {
		var b Budget
		mustUnmarshal(t, a.Call("calculateBudget", []byte(`{"model":"gpt-4o","tools":`+tools+`}`)), &b)
		if i == 0 {
			want = b.ToolTokens
		}
		if b.ToolTokens != want || want == 0 {
			t.Errorf("%s: toolTokens %d, want %d", tools, b.ToolTokens, want)
		}
	}
}
