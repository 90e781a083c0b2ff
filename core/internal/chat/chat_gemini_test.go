package chat

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
)

// randomGeminiRequest builds a chat request of random shape from pieces of
// texts, as read from Gemini's own shape (with its extras).
func randomGeminiRequest(rng *rand.Rand, model string, texts []string) ChatRequest {
	piece := func() string {
		t := texts[rng.IntN(len(texts))]
		i := rng.IntN(len(t))
		for i > 0 && (t[i]&0xC0) == 0x80 {
			i--
		}
		j := min(len(t), i+1+rng.IntN(400))
		for j < len(t) && (t[j]&0xC0) == 0x80 {
			j++
		}
		return t[i:j]
	}
	req := ChatRequest{Model: model, gemini: &geminiExtras{signatures: map[int]geminiSignatures{}, jsonSchema: map[int]bool{}}}
	if rng.IntN(2) == 0 {
		req.Messages = append(req.Messages, ChatMessage{Role: "system", Content: ChatContent{Text: piece()}})
	}
	for turn := range 1 + rng.IntN(8) {
		role := []string{"user", "assistant"}[turn%2]
		m := ChatMessage{Role: role, Content: ChatContent{Parts: []ContentPart{{Type: "text", Text: piece()}}}}
		if role == "assistant" && rng.IntN(3) == 0 {
			args, _ := json.Marshal(map[string]any{"q": piece(), "n": rng.IntN(100)})
			m.ToolCalls = []ToolCall{{ID: fmt.Sprint("c", turn), Type: "function", Function: FunctionCall{Name: "lookup", Arguments: string(args)}}}
			if rng.IntN(2) == 0 {
				req.gemini.signatures[len(req.Messages)] = geminiSignatures{count: 1, chars: rng.IntN(4000)}
			}
			req.Messages = append(req.Messages, m)
			res, _ := json.Marshal(map[string]any{"result": piece()})
			req.Messages = append(req.Messages, ChatMessage{Role: "tool", ToolCallID: fmt.Sprint("c", turn), Name: "lookup", Content: ChatContent{Text: string(res)}})
			continue
		}
		req.Messages = append(req.Messages, m)
	}
	for d := range rng.IntN(3) {
		schema, _ := json.Marshal(map[string]any{"type": "object", "properties": map[string]any{
			"q": map[string]any{"type": "string", "description": piece()}, "mode": map[string]any{"type": "string", "enum": []string{piece(), piece()}}}})
		req.Tools = append(req.Tools, ChatTool{Type: "function", Function: FunctionDef{Name: fmt.Sprint("tool", d), Description: piece(), Parameters: schema}})
		req.gemini.jsonSchema[d] = rng.IntN(2) == 0
	}
	return req
}
