package workload

import (
	"encoding/json"
	"strings"
	"testing"
)

// TestConversation_Structure: the peer's structure — a system message and
// a user message first, then alternating roles, a text-part pair on user
// indices 14, 28, 42 (56 is the index a tool result took), a tool call with
// its result on assistant indices 3, 29, 55 — and the same conversation for
// the same seed.
func TestConversation_Structure(t *testing.T) {
	msgs := Conversation(7, true, 60)
	if len(msgs) != 60 {
		t.Fatalf("%d messages", len(msgs))
	}
	if msgs[0].Role != "system" || msgs[1].Role != "user" {
		t.Fatalf("opens with %s, %s", msgs[0].Role, msgs[1].Role)
	}
	calls, pairs := 0, 0
	for i, m := range msgs {
		parts, ok := m.Content.([]Part)
		if !ok {
			continue
		}
		for _, p := range parts {
			switch p.Type {
			case "tool-call":
				calls++
				if msgs[i+1].Role != "tool" {
					t.Errorf("message %d: a tool call not followed by its result", i)
				}
			}
		}
		if len(parts) == 2 && parts[1].Type == "text" {
			pairs++
		}
	}
	if calls != 3 || pairs != 3 {
		t.Errorf("%d tool calls and %d text-part pairs in 60 messages, want 3 and 3", calls, pairs)
	}
	a, b := Request("m", msgs), Request("m", Conversation(7, true, 60))
	if string(a) != string(b) {
		t.Error("the same seed gave two conversations")
	}
	if string(a) == string(Request("m", Conversation(8, true, 60))) {
		t.Error("two seeds gave the same conversation")
	}
	if Conversation(7, false, 60)[4].Role == "tool" {
		t.Error("a tool result without tool calls")
	}
}

// TestRequest_JSON: the request is JSON as JavaScript writes it (no HTML
// escapes) and every template was filled.
func TestRequest_JSON(t *testing.T) {
	b := Request("claude-sonnet-4-5", Conversation(1, true, 200))
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	s := string(b)
	if strings.Contains(s, `\u003e`) || !strings.Contains(s, "=>") {
		t.Error("HTML-escaped JSON")
	}
	for _, p := range placeholders {
		if strings.Contains(s, p.name) {
			t.Errorf("%s left unfilled", p.name)
		}
	}
}
