package core

// Temporary until chat.go lands.
type Message struct {
	Role         string     `json:"role"`
	Content      string     `json:"content"`
	Name         string     `json:"name,omitempty"`
	ToolCalls    []ToolCall `json:"tool_calls,omitempty"`
	ToolCallID   string     `json:"tool_call_id,omitempty"`
	FunctionCall *struct{}  `json:"function_call,omitempty"`
}
type ToolCall struct {
	ID string `json:"id"`
}

func messageTokens(tok Tokenizer, model string, msgs []Message) ([]int, int, error) {
	out := make([]int, len(msgs))
	for i, m := range msgs {
		out[i] = 3 + tok.Count(m.Role) + tok.Count(m.Content)
	}
	return out, 3, nil
}
