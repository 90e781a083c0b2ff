package core

import "testing"

// TestStructuredOutput_AISDK: an AI SDK request's responseFormat counts as
// the provider behind the SDK receives it (AI SDK 5's providers, as
// core/testdata/aisdk-google.mjs and the Anthropic provider record their
// bodies): for Claude a forced tool named "json", for Gemini
// generationConfig's responseSchema, for OpenAI a response format.
func TestStructuredOutput_AISDK(t *testing.T) {
	const schema = `{"type":"object","properties":{"city":{"type":"string","description":"City"},"temp":{"type":"number"}},"required":["city","temp"]}`
	a := NewAPI()
	for _, tc := range []struct{ name, aisdk, native string }{
		{"claude",
			`{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":"Weather?"}],"responseFormat":{"type":"json","schema":` + schema + `}}`,
			`{"model":"claude-sonnet-4-5","messages":[{"role":"user","content":[{"type":"text","text":"Weather?"}]}],"tools":[{"name":"json","description":"Respond with a JSON object.","input_schema":` + schema + `}],"tool_choice":{"type":"tool","name":"json","disable_parallel_tool_use":true}}`},
		{"gemini",
			`{"model":"gemini-2.5-pro","messages":[{"role":"user","content":"Weather?"}],"responseFormat":{"type":"json","schema":` + schema + `}}`,
			`{"model":"gemini-2.5-pro","contents":[{"role":"user","parts":[{"text":"Weather?"}]}],"generationConfig":{"responseMimeType":"application/json","responseSchema":` + schema + `}}`},
	} {
		var got, want, plain ChatAnswer
		mustUnmarshal(t, a.Call("countChat", []byte(tc.aisdk)), &got)
		mustUnmarshal(t, a.Call("countChat", []byte(tc.native)), &want)
		mustUnmarshal(t, a.Call("countChat", []byte(`{"model":"`+got.Model+`","messages":[{"role":"user","content":"Weather?"}]}`)), &plain)
		if got.Total != want.Total {
			t.Errorf("%s: the AI SDK request counts %d, the request its provider sends %d", tc.name, got.Total, want.Total)
		}
		if got.Total <= plain.Total {
			t.Errorf("%s: the structured output added nothing (%d, without it %d)", tc.name, got.Total, plain.Total)
		}
	}
}
