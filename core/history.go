package core

// historyItems counts each history message as the chat API bills it and
// groups tool calls with their results for pruning. It returns the items and
// the reply priming (counted once when any history is sent).
func historyItems(tok Tokenizer, model string, msgs []Message) ([]histItem, int, error) {
	items := make([]histItem, len(msgs))
	if len(msgs) == 0 {
		return items, 0, nil
	}
	counts, priming, err := messageTokens(tok, model, msgs)
	if err != nil {
		return nil, 0, err
	}
	open := map[string]bool{} // tool call ids awaiting their result
	atom := -1
	for i, m := range msgs {
		joins := false
		if m.Role == "tool" && open[m.ToolCallID] || m.Role == "function" && i > 0 && msgs[i-1].FunctionCall != nil {
			joins = atom >= 0
			delete(open, m.ToolCallID)
		}
		if !joins {
			atom++
			clear(open)
		}
		for _, c := range m.ToolCalls {
			open[c.ID] = true
		}
		items[i] = histItem{
			tokens: tok.Upper(counts[i]),
			pinned: m.Role == "system" || m.Role == "developer",
			atom:   atom,
		}
	}
	return items, tok.Upper(priming), nil
}
