package chat

import (
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/internal/errs"
)

// History is a conversation as OpenAI chat messages. Decoding it names a bad
// field by its path in the budget request, such as "history[3].content".
// JSON in Anthropic's, Gemini's or the AI SDK's shape (see Shape) is read
// too, as its OpenAI translation, whose messages remember the message
// they came from: the budget counts, keeps and drops the original ones.
//
//genjson:ts ChatMessage[] | AnthropicRequest['messages'] | GeminiRequest['contents'] | AISDKRequest['messages']
type History []ChatMessage

// UnmarshalJSON decodes an array of chat messages in any shape. Cost: O(n).
func (h *History) UnmarshalJSON(b []byte) error {
	s, err := readHistory(b)
	if err != nil {
		return err
	}
	*h = s.Req.Messages
	return nil
}

// Shape is the shape the history was read in.
func (h History) Shape() Shape {
	if len(h) > 0 && h[0].from != nil {
		return h[0].from.shape
	}
	return ShapeOpenAI
}

// Len is the number of messages as the history was given: for a
// translated one, the original messages.
func (h History) Len() int {
	if len(h) > 0 && h[len(h)-1].from != nil {
		return h[len(h)-1].from.index + 1
	}
	return len(h)
}

// HistoryItem is one history message as core's pruning sees it: its
// tokens, whether it is pinned (never dropped) and its atom (messages with
// the same atom are kept or dropped together).
type HistoryItem struct {
	Tokens int
	Pinned bool
	Atom   int
}

// fold merges the items of a translated history into one per original
// message: their tokens add up, any pinned piece pins the message, and
// the atoms a message spans become one.
func (h History) fold(items []HistoryItem) []HistoryItem {
	if len(h) == 0 || h[0].from == nil {
		return items
	}
	out := make([]HistoryItem, h.Len())
	atom, last := -1, -1
	for i, it := range items {
		o := h[i].from.index
		if i == 0 || h[i-1].from.index != o { // the message's first piece
			if it.Atom != last {
				atom++
			}
			out[o].Atom = atom
		}
		out[o].Tokens += it.Tokens
		out[o].Pinned = out[o].Pinned || it.Pinned
		last = it.Atom
	}
	return out
}

// HistoryItems counts each history message as the chat API bills it and
// groups tool calls with their results for pruning. It returns the items,
// the reply priming (counted once when any history is sent) and what the
// tool definitions cost. Estimated tokenizers count at their upper bound.
func HistoryItems(tok engine.Tokenizer, rules ChatRules, msgs History, tools []ChatTool) ([]HistoryItem, int, int, error) {
	items := make([]HistoryItem, len(msgs))
	if len(msgs) == 0 && len(tools) == 0 {
		return items, 0, 0, nil
	}
	cc, err := CountChat(tok, ChatRequest{Messages: msgs, Tools: tools}, rules)
	if err != nil {
		if fe, ok := errs.As[*engine.FieldError](err); ok && strings.HasPrefix(fe.Field, "messages") {
			if len(msgs) > 0 && msgs[0].from != nil {
				s := &Shaped{from: make([]int, len(msgs))}
				for i := range msgs {
					s.from[i] = msgs[i].from.index
				}
				return nil, 0, 0, s.Refield(fe, "history")
			}
			return nil, 0, 0, &engine.FieldError{Field: "history" + strings.TrimPrefix(fe.Field, "messages"), Reason: fe.Reason}
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
		items[i] = HistoryItem{
			Tokens: tok.Upper(cc.PerMessage[i]),
			Pinned: m.Role == "system" || m.Role == "developer",
			Atom:   atom,
		}
	}
	items = msgs.fold(items)
	priming := 0
	if len(msgs) > 0 {
		priming = tok.Upper(cc.Priming)
	}
	return items, priming, tok.Upper(cc.Tools + cc.ToolChoice), nil
}
