package chat

import (
	"github.com/tokenfit/tokenfit/core/engine"
)

// OpenAIAPI names the OpenAI API a request is sent to. The same
// conversation bills differently on the two (testdata/chat-rules.md §13):
// a gpt-5 request with one tool costs 82 more tokens on Chat Completions.
type OpenAIAPI string

const (
	// APIChat is Chat Completions (POST /v1/chat/completions).
	APIChat OpenAIAPI = "chat"
	// APIResponses is the Responses API (POST /v1/responses), which the
	// AI SDK's OpenAI provider uses by default.
	APIResponses OpenAIAPI = "responses"
)

// checkAPI refuses an API other than the two.
func checkAPI(a OpenAIAPI, path string) error {
	switch a {
	case "", APIChat, APIResponses:
		return nil
	}
	return fieldErr(path, "unknown API %q (want chat or responses)", engine.Clip(string(a)))
}

// apiRules are the parts of a family's rules that differ on the
// Responses API.
type apiRules struct {
	Messages  MessageRules
	Tools     ToolRules
	ToolCalls ToolCallRules
}

// The Responses rules (testdata/chat-rules.md §13). The API writes the same
// conversation as Chat Completions does, but its function definitions cost
// less, do not join a system message, and (on the families before the
// harmony format) a call with its result costs 2 less. Fitted on the
// Responses counts of testdata/billed/openai.json and the peer's billed rows
// (testdata/billed/ai-tokenizer.json, AI SDK requests on the Responses API).
var (
	// gpt-4o, gpt-4o-mini, gpt-4.1 (and mini, nano), gpt-4.5 and gpt-5-chat:
	// definitions 3, calls 2 less than calls2024 (19 Responses counts of
	// gpt-4o and gpt-4.1 with tools, 17 exact and 2 within 2; the peer's 15
	// rows, exact at every size). Messages as on Chat, but for one
	// gpt-4.1-mini count 1 above them, which the bound carries.
	responses4o = apiRules{
		Messages:  MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 3, FunctionMessage: -2, FunctionCall: 3, Spread: 1},
		Tools:     ToolRules{Definitions: 3, Params: ParamsFlat, Undescribed: -1, FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7, Spread: 2, Measured: true},
		ToolCalls: ToolCallRules{PerCall: 4, WithContent: 4, Parallel: 19, Result: 3, Spread: 1, Measured: true},
	}
	// gpt-4-turbo: on the peer's 3 rows (a system message, tools, calls)
	// the definitions bill 2 less than on Chat Completions and a call
	// with its result 1 less.
	responsesTurbo = apiRules{
		Messages:  messages3,
		Tools:     ToolRules{Definitions: 7, SystemMessage: -4, Params: ParamsFlat, Undescribed: -1, FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7},
		ToolCalls: ToolCallRules{PerCall: 4, WithContent: 4, Parallel: 13, Result: 4},
	}
	// o1 and o3-mini: as gpt-4o, with messagesO's priming and definitions
	// 3 tokens dearer (the peer's 5 rows of o1 and o3-mini, each 3 above
	// gpt-4o's rules).
	responsesO1 = apiRules{
		Messages:  messagesO,
		Tools:     ToolRules{Definitions: 6, Params: ParamsFlat, Undescribed: -1, FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7},
		ToolCalls: ToolCallRules{PerCall: 4, WithContent: 4, Parallel: 19, Result: 3, Spread: 1, Measured: true},
	}
	// The harmony families: without Chat's preamble (definitions 8: 18
	// Responses counts of gpt-5, gpt-5-mini and gpt-5.4 without a system
	// message, within 3, 15 within 1); a system message adds 1 and a
	// newline (10 Responses counts within 2, the peer's 33 rows within 3:
	// they land 3 apart by model, gpt-5 +3, o3 and o4-mini −3 around
	// gpt-5-mini). The
	// message rule misses two gpt-5 counts of its launch weeks by −1 and
	// −3, so it is not exact here.
	responsesHarmony = apiRules{
		Messages:  MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 2, FunctionMessage: -2, FunctionCall: 3, PerAssistant: 2},
		Tools:     ToolRules{Definitions: 8, SystemMessage: 1, Params: ParamsHarmony, Undescribed: -1, ChoiceFree: true, Spread: 3, Measured: true},
		ToolCalls: callsHarmony,
	}
)

// RulesFor returns a model's rules on an OpenAI API: ChatRulesFor's for
// Chat Completions (or an empty api), the Responses rules for the
// Responses API (Family gets "/responses"; a family without measured
// Responses rules keeps its Chat rules, as estimates). Cost: O(size of
// the table).
func RulesFor(model string, api OpenAIAPI) ChatRules {
	if r := ChatRulesFor(model); api != APIResponses || r.Gemini != nil {
		return r // the API is OpenAI's: other providers' rules know one
	}
	i := chatRulesRow(model)
	if i < 0 {
		return defaultChatRules
	}
	row := chatRulesTable[i]
	r := row.rules
	if row.responses == nil {
		r.Messages.Exact, r.Tools.Exact, r.Tools.NestedExact = false, false, false
		return r
	}
	r.Family += "/responses"
	r.Messages, r.Tools, r.ToolCalls = row.responses.Messages, row.responses.Tools, row.responses.ToolCalls
	return r
}
