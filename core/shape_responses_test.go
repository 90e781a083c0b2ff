package core

import (
	"encoding/json"
	"math/rand"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/randtext"
)

// asResponses writes a Chat Completions request as the Responses API
// request OpenAI's own migration guide pairs with it: system messages as
// input messages, content parts as input_text and input_image, an
// assistant's content as an output_text message followed by its calls as
// function_call items, tool messages as function_call_output items, and
// tools with their function's fields at the top.
func asResponses(t *testing.T, req ChatRequest) []byte {
	t.Helper()
	var input []any
	for _, m := range req.Messages {
		switch {
		case m.Role == "tool":
			input = append(input, map[string]any{"type": "function_call_output", "call_id": m.ToolCallID, "output": m.Content.Text})
		case m.Role == "assistant":
			if m.Content.Text != "" || len(m.ToolCalls) == 0 {
				input = append(input, map[string]any{"role": "assistant", "content": []any{map[string]any{"type": "output_text", "text": m.Content.Text}}})
			}
			for _, c := range m.ToolCalls {
				input = append(input, map[string]any{"type": "function_call", "call_id": c.ID, "name": c.Function.Name, "arguments": c.Function.Arguments})
			}
		case m.Content.Parts != nil:
			var parts []any
			for _, p := range m.Content.Parts {
				if p.Type == "text" {
					parts = append(parts, map[string]any{"type": "input_text", "text": p.Text})
				} else {
					parts = append(parts, map[string]any{"type": "input_image", "image_url": p.ImageURL.URL, "detail": p.ImageURL.Detail})
				}
			}
			input = append(input, map[string]any{"role": m.Role, "content": parts})
		default:
			input = append(input, map[string]any{"role": m.Role, "content": m.Content.Text})
		}
	}
	var tools []any
	for _, tl := range req.Tools {
		tools = append(tools, map[string]any{"type": "function", "name": tl.Function.Name, "description": tl.Function.Description, "parameters": json.RawMessage(tl.Function.Parameters)})
	}
	b, err := json.Marshal(map[string]any{"model": req.Model, "input": input, "tools": tools})
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// TestShapeResponses_RandomEqualsChat is the reader's property: on random
// requests with every fitted part (nested and undescribed parameters,
// several calls, calls beside text, tool results, a system message,
// images), a Responses request counts as the Chat request it corresponds
// to counts on the Responses rules, for a model of each Responses family,
// and its upper bound is at least its total.
func TestShapeResponses_RandomEqualsChat(t *testing.T) {
	api := NewAPI()
	rng := rand.New(rand.NewSource(31))
	for i := range 80 {
		var req ChatRequest
		if err := req.UnmarshalJSON([]byte(randtext.ChatRequest(rng))); err != nil {
			t.Fatal(err)
		}
		for j := range req.Messages {
			req.Messages[j].Name = "" // the Responses API has no names
		}
		for _, model := range []string{"gpt-4o", "gpt-4-turbo", "o3-mini", "gpt-5-mini", "gpt-3.5-turbo"} {
			req.Model, req.API = model, APIResponses
			chat, err := json.Marshal(req)
			if err != nil {
				t.Fatal(err)
			}
			resp := asResponses(t, req)
			want, got := countBilled(t, api, chat), countBilled(t, api, resp)
			if got.Shape != ShapeResponses || got.Total != want.Total || got.UpperBound != want.UpperBound || got.UpperBound < got.Total {
				t.Fatalf("request %d on %s: responses %d (bound %d), chat %d (bound %d)\n%s\n%s", i, model, got.Total, got.UpperBound, want.Total, want.UpperBound, resp, chat)
			}
		}
	}
}

// TestShapeResponses_Read: what the reader makes of each kind of item.
func TestShapeResponses_Read(t *testing.T) {
	for _, tc := range []struct {
		name, body string
		messages   int    // translated messages
		note       string // a note the answer must carry
		err        string // the error's field
	}{
		{"string input", `{"model":"gpt-4o","input":"hi"}`, 1, "", ""},
		{"instructions", `{"model":"gpt-4o","instructions":"Be brief.","input":[{"role":"user","content":"hi"}]}`, 2, "", ""},
		{"calls join the assistant message", `{"model":"gpt-4o","input":[{"role":"user","content":"x"},{"role":"assistant","content":""},{"type":"function_call","call_id":"a","name":"f","arguments":"{}"},{"type":"function_call","call_id":"b","name":"f","arguments":"{}"},{"type":"function_call_output","call_id":"a","output":"1"},{"type":"function_call_output","call_id":"b","output":"2"}],"tools":[{"type":"function","name":"f"}]}`, 4, "several tool calls", ""},
		{"reasoning summary", `{"model":"gpt-5","input":[{"role":"user","content":"x"},{"type":"reasoning","summary":[{"type":"summary_text","text":"thinking"}],"encrypted_content":"gAAA"}]}`, 2, "encrypted reasoning", ""},
		{"item reference", `{"model":"gpt-5","input":[{"type":"item_reference","id":"msg_1"},{"role":"user","content":"x"}]}`, 1, "item_reference", ""},
		{"previous response", `{"model":"gpt-5","previous_response_id":"resp_1","input":"x"}`, 1, "previous_response_id", ""},
		{"pro mode", `{"model":"gpt-5.6-sol","reasoning":{"mode":"pro"},"input":"x"}`, 1, "reasoning.mode pro", ""},
		{"custom tool", `{"model":"gpt-5","input":"x","tools":[{"type":"custom","name":"code","description":"Run code"}]}`, 1, "custom (free-form) tool", ""},
		{"built-in tool", `{"model":"gpt-5","input":"x","tools":[{"type":"web_search"}],"tool_choice":{"type":"web_search"}}`, 1, "built-in tool", ""},
		{"allowed tools", `{"model":"gpt-5","input":"x","tools":[{"type":"function","name":"f"}],"tool_choice":{"type":"allowed_tools","mode":"required","tools":[{"type":"function","name":"f"}]}}`, 1, "allowed_tools", ""},
		{"an image by file id", `{"model":"gpt-4o","input":[{"role":"user","content":[{"type":"input_image","file_id":"file_1"}]}]}`, 1, "file id", ""},
		{"a file", `{"model":"gpt-4o","input":[{"role":"user","content":[{"type":"input_file","file_id":"file_1"}]}]}`, 1, "JSON text", ""},
		{"json_object format", `{"model":"gpt-4o","input":"x","text":{"format":{"type":"json_object"}}}`, 1, "", ""},
		{"unknown role", `{"model":"gpt-4o","input":[{"role":"robot","content":"x"}]}`, 0, "", "input[0].role"},
		{"output without a call id", `{"model":"gpt-4o","input":[{"type":"function_call_output","output":"x"}]}`, 0, "", "input[0].call_id"},
		{"a call without a name", `{"model":"gpt-4o","input":[{"type":"function_call","call_id":"a","arguments":"{}"}]}`, 0, "", "input[0].name"},
		{"an unknown format", `{"model":"gpt-4o","input":"x","text":{"format":{"type":"yaml"}}}`, 0, "", "text.format.type"},
		{"an unknown api", `{"model":"gpt-4o","api":"completions","messages":[{"role":"user","content":"x"}]}`, 0, "", "api"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s, err := chat.Read([]byte(tc.body))
			if tc.err != "" {
				fe, ok := err.(*FieldError)
				if !ok || fe.Field != tc.err {
					t.Fatalf("error %v, want one at %s", err, tc.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(s.Req.Messages) != tc.messages {
				t.Errorf("%d messages, want %d: %+v", len(s.Req.Messages), tc.messages, s.Req.Messages)
			}
			a := countBilled(t, NewAPI(), []byte(tc.body))
			if tc.note != "" && !strings.Contains(strings.Join(a.Notes, "\n"), tc.note) {
				t.Errorf("notes %q lack %q", a.Notes, tc.note)
			}
			if a.UpperBound < a.Total {
				t.Errorf("bound %d below total %d", a.UpperBound, a.Total)
			}
		})
	}
}
