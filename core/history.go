package core

import (
	"errors"
	"strings"
)

// History is a conversation as OpenAI chat messages. Decoding it names a bad
// field by its path in the budget request, such as "history[3].content".
type History []ChatMessage

// UnmarshalJSON decodes an array of chat messages. Cost: O(n).
func (h *History) UnmarshalJSON(b []byte) error {
	raws, err := decodeArray(b, "history")
	if err != nil {
		return err
	}
	*h = make(History, len(raws))
	for i, raw := range raws {
		if err := (*h)[i].decode(raw, indexPath("history", i)); err != nil {
			return err
		}
	}
	return nil
}

// historyItems counts each history message as the chat API bills it and
// groups tool calls with their results for pruning. It returns the items,
// the reply priming (counted once when any history is sent) and what the
// tool definitions cost. Estimated tokenizers count at their upper bound.
func historyItems(tok Tokenizer, model string, msgs History, tools []ChatTool) ([]histItem, int, int, error) {
	items := make([]histItem, len(msgs))
	if len(msgs) == 0 && len(tools) == 0 {
		return items, 0, 0, nil
	}
	cc, err := CountChat(tok, ChatRequest{Model: model, Messages: msgs, Tools: tools}, ChatRulesFor(model))
	if err != nil {
		var fe *FieldError
		if errors.As(err, &fe) && strings.HasPrefix(fe.Field, "messages") {
			return nil, 0, 0, &FieldError{Field: "history" + strings.TrimPrefix(fe.Field, "messages"), Reason: fe.Reason}
		}
		return nil, 0, 0, err
	}
	open := map[string]bool{} // tool call ids awaiting their result
	atom := -1
	for i, m := range msgs {
		joins := atom >= 0 && (m.Role == "tool" && open[m.ToolCallID] ||
			m.Role == "function" && msgs[i-1].FunctionCall != nil)
		if joins {
			delete(open, m.ToolCallID)
		} else {
			atom++
			clear(open)
		}
		for _, c := range m.ToolCalls {
			open[c.ID] = true
		}
		items[i] = histItem{
			tokens: tok.Upper(cc.PerMessage[i]),
			pinned: m.Role == "system" || m.Role == "developer",
			atom:   atom,
		}
	}
	priming := 0
	if len(msgs) > 0 {
		priming = tok.Upper(cc.Priming)
	}
	return items, priming, tok.Upper(cc.Tools + cc.ToolChoice), nil
}
