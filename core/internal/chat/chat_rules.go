package chat

import (
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/stop"
)

// ChatRules are the constants with which one model family turns a chat
// request into billed prompt tokens. OpenAI does not publish its prompt
// template; every constant here was rebuilt from counts the API returned
// (testdata/chat-rules.md gives the evidence for each). ChatRulesFor picks
// the rules of a model; callers may also build or adjust their own.
type ChatRules struct {
	// Family names the row of the rules table, such as "gpt-4o", or
	// "default" when the model was not recognised.
	Family string
	// Template names the model's chat template (ChatTemplates): when set,
	// CountChat counts the prompt the template renders, and the constants
	// below do not apply.
	Template string
	// Anthropic, when set, counts the request as Anthropic bills a
	// Messages request (chat_anthropic.go); the constants below do not
	// apply.
	Anthropic *AnthropicRules
	// Gemini, when set, holds the framing of a Gemini model: CountChat
	// counts the request as Google bills it (chat_gemini.go), and the
	// constants below do not apply.
	Gemini    *GeminiRules
	Messages  MessageRules
	Tools     ToolRules
	ToolCalls ToolCallRules
	Images    ImageRules
	// The call's, set by ForCall: stop is checked between messages and
	// template parts; ordinary says the tokenizer reads a special token's
	// text as text (an OpenAI encoding, which only core can tell).
	stop     stop.Chan
	ordinary bool
}

// ForCall readies r for one call of core's: stopped by s (core's
// API.DoUntil), counting with a tokenizer that is an OpenAI encoding when
// ordinary.
func ForCall(r *ChatRules, s stop.Chan, ordinary bool) { r.stop, r.ordinary = s, ordinary }

// MessageRules price the messages themselves.
type MessageRules struct {
	// PerMessage frames every message (3; 4 on gpt-3.5-turbo-0301).
	PerMessage int
	// PerName is added to a message's name tokens (1; −1 on
	// gpt-3.5-turbo-0301, where the name takes the role's place).
	PerName int
	// ReplyPriming is added once per request for the assistant reply's
	// header (3; 2 fits the o-series).
	ReplyPriming int
	// FunctionMessage is added to a legacy role "function" message (−2).
	FunctionMessage int
	// FunctionCall is added for an assistant message's legacy
	// function_call, on top of its name and arguments (3).
	FunctionCall int
	// PerAssistant is added to every assistant message (2 on the harmony
	// families, whose earlier turns carry a channel, "<|channel|>final";
	// 0 elsewhere).
	PerAssistant int
	// Spread is how far above these constants the family's billed counts
	// were seen to land, unexplained: UpperBound adds it.
	Spread int
	// Exact reports that these constants reproduce API counts for this
	// family; when false every count made with them is an estimate.
	Exact bool
}

// ParamStyle is how nested objects in function parameters are rendered.
type ParamStyle string

const (
	// ParamsIndented is the 2023 rendering (gpt-3.5-turbo-0613,
	// gpt-4-0613): nested property lines are indented two spaces per level
	// and only top-level properties keep their description comments.
	ParamsIndented ParamStyle = "indented"
	// ParamsFlat is the 2024 rendering (gpt-4-turbo and later): nested
	// lines are not indented and every property keeps its description.
	ParamsFlat ParamStyle = "flat"
	// ParamsHarmony is the rendering of the harmony families (o3, o4-mini,
	// the gpt-5 family): the 2024 rendering, and the parameters' own
	// description as a comment before their brace, as openai/harmony
	// writes an object's description.
	ParamsHarmony ParamStyle = "harmony"
)

// ToolRules price the function definitions (tools or legacy functions) and
// the tool_choice or function_call option.
type ToolRules struct {
	// Definitions is added to the tokens of the rendered definitions (9).
	Definitions int
	// SystemMessage is added when the request has a system message, whose
	// first one then also gets a trailing newline (−4): the definitions
	// join that message instead of opening their own.
	SystemMessage int
	// Params selects the rendering of nested objects.
	Params ParamStyle
	// Undescribed is added per property that has no description and is not
	// a string enum (−1 on gpt-4-turbo; fitted, mechanism unknown).
	Undescribed int
	// FunctionCallNone and FunctionCallNamed price function_call "none"
	// (1) and {"name": N} (4 plus N's tokens); "auto" costs nothing.
	FunctionCallNone  int
	FunctionCallNamed int
	// ToolChoiceNone, ToolChoiceRequired and ToolChoiceNamed price
	// tool_choice "none" (1), "required" (not measured) and a named
	// function (7 plus the name's tokens); "auto" costs nothing.
	ToolChoiceNone     int
	ToolChoiceRequired int
	ToolChoiceNamed    int
	// ChoiceFree reports that no tool_choice adds anything (the harmony
	// families: 12 counts with auto, none, required and named choices).
	ChoiceFree bool
	// Spread is how far above these constants the family's billed counts
	// were seen to land when definitions are present (by model and date):
	// UpperBound adds it.
	Spread int
	// Measured reports that the constants are fitted on enough billed
	// counts that UpperBound adds only Spread, not other families'
	// renderings.
	Measured bool
	// Exact reports that flat definitions (no nested objects), the system
	// adjustment and the choice options reproduce API counts.
	Exact bool
	// NestedExact reports the same for nested object parameters.
	NestedExact bool
}

// ToolCallRules price assistant tool_calls and role "tool" messages. No
// family has verified rules: they are fitted to a handful of counts, so
// counts that use them are never exact.
type ToolCallRules struct {
	// Legacy bills a tool call like a legacy function_call (arguments as
	// sent) and a tool message like a role "function" message named after
	// the function it answers: the 2023 snapshots, which predate tools.
	// The fields below then do not apply.
	Legacy bool
	// PerCall is added per call to its name and compacted arguments.
	PerCall int
	// WithContent is added when the calling message also has content.
	WithContent int
	// Parallel is added once to a message with two or more calls.
	Parallel int
	// Result prices a tool message instead of PerMessage and its role:
	// Result plus the answered function's name plus the content.
	Result int
	// ParallelPerCall is added per call beyond the first in one message
	// (the harmony families write each call as its own message).
	ParallelPerCall int
	// Spread is how far above these constants a message with several
	// calls was seen to bill: UpperBound adds it per such message.
	Spread int
	// Measured reports that the constants are fitted on enough billed
	// counts that UpperBound takes no other family's rendering of calls.
	Measured bool
}

// ImageKind is how a family bills images.
type ImageKind string

const (
	// ImagesNone: the family takes no images; they are estimated as tiles.
	ImagesNone ImageKind = ""
	// ImagesTiles: Base plus Tile per 512-pixel tile after scaling; detail
	// "low" costs Base alone.
	ImagesTiles ImageKind = "tiles"
	// ImagesPatches: 32-pixel patches, at most PatchCap, times Multiplier,
	// rounded up, plus PatchExtra; detail does not matter.
	ImagesPatches ImageKind = "patches"
)

// ImageRules price image_url content parts.
type ImageRules struct {
	Kind ImageKind
	// Base and Tile price tiles: Base per image, Tile per 512-pixel tile.
	Base int
	Tile int
	// Multiplier, PatchCap and PatchExtra price patches: at most PatchCap
	// 32-pixel patches, times Multiplier rounded up, plus PatchExtra (1 on
	// Chat Completions).
	Multiplier float64
	PatchCap   int
	PatchExtra int
}

// Where the table departs from testdata/chat-rules.md, and why:
//
//   - Tool calls on the 2023 snapshots (ToolCallRules.Legacy). Those models
//     predate tools, and billing a call as a legacy function_call (arguments
//     as sent, not compacted) and its result as a function message
//     reproduces the one gpt-4-0613 count (35) that the gpt-4-turbo fit
//     misses by one.
//   - The parallel-call constant (13) belongs to the assistant message with
//     two or more calls, not to "two or more tool messages": both fit the
//     only two counts, but the first matches the multi_tool_use wrapper that
//     parallel calls get, charges a request once per parallel turn, and
//     keeps the per-message breakdown additive.
//   - The per-call and per-result constants are split 4 and 5 instead of −3
//     and +12: only their sum is measured, and 4/5 keeps every message's own
//     count positive for history pruning.

// Reusable parts of the rules table.
var (
	messages3 = MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 3, FunctionMessage: -2, FunctionCall: 3, Exact: true}
	// o1 and o3-mini bill one token less per request; whether the reply
	// priming or something else is shorter cannot be told apart.
	// Exact on 8 Chat and Responses counts of o3-mini
	// (testdata/billed/openai.json).
	messagesO = MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 2, FunctionMessage: -2, FunctionCall: 3, Exact: true}
	// The harmony families (o3, o4-mini, codex-mini and the gpt-5 family
	// but gpt-5-chat): messagesO, and 2 more per assistant message, the
	// channel its earlier turns carry (chat-rules.md §13: fitted on the
	// peer's 36 billed rows, where it holds at every size, and the
	// Responses counts with assistant turns).
	messagesHarmony = MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 2, FunctionMessage: -2, FunctionCall: 3, PerAssistant: 2, Exact: true}

	tools2023 = ToolRules{Definitions: 9, SystemMessage: -4, Params: ParamsIndented,
		FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7,
		Exact: true, NestedExact: true}
	tools2024 = ToolRules{Definitions: 9, SystemMessage: -4, Params: ParamsFlat, Undescribed: -1,
		FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7}
	// The harmony families on Chat Completions: the definitions do not join
	// a system message, no tool_choice costs anything, and any definition
	// brings 82 tokens more than the 2024 rules (a preamble the Responses
	// API does not bill; fitted on 26 Chat counts of gpt-5, gpt-5-mini and
	// gpt-5.4-mini, all within one token; chat-rules.md §13).
	toolsHarmony = ToolRules{Definitions: 91, Params: ParamsHarmony, Undescribed: -1, ChoiceFree: true, Spread: 1, Measured: true}

	callsLegacy = ToolCallRules{Legacy: true}
	// Only PerCall+Result (9) is pinned down by the data; the split is the
	// one that keeps every message positive.
	calls2024 = ToolCallRules{PerCall: 4, WithContent: 4, Parallel: 13, Result: 5}
	// The o200k families before harmony bill several calls in one message
	// 18 to 20 above their calls (3 distinct gpt-4o counts, in 8
	// recordings), not calls2024's 13 (gpt-4-turbo-preview).
	calls4o = ToolCallRules{PerCall: 4, WithContent: 4, Parallel: 19, Result: 5, Spread: 1}
	// The harmony families bill a call and its result 4 more than
	// calls2024 (on both APIs), and write each of several calls as its own
	// message (PerMessage, role and channel: 6).
	callsHarmony = ToolCallRules{PerCall: 6, WithContent: 4, Result: 7, ParallelPerCall: 6, Measured: true}

	noImages = ImageRules{Kind: ImagesNone}
)

func tiles(base, tile int) ImageRules {
	return ImageRules{Kind: ImagesTiles, Base: base, Tile: tile}
}

func patches(multiplier float64) ImageRules {
	return ImageRules{Kind: ImagesPatches, Multiplier: multiplier, PatchCap: 1536, PatchExtra: 1}
}

func exactTools(t ToolRules, nested bool) ToolRules {
	t.Exact, t.NestedExact = true, nested
	return t
}

// harmony is the rules of a harmony family with its images.
func harmony(family string, images ImageRules) ChatRules {
	return ChatRules{Family: family, Messages: messagesHarmony, Tools: toolsHarmony, ToolCalls: callsHarmony, Images: images}
}

// chatRulesTable is the model → rules table. A model matches a row by one
// of its ids exactly, else by the longest prefix of any row; a fine-tuned
// id "ft:BASE:org::id" is looked up as BASE. responses names the row's
// rules on the Responses API (chat_rules_responses.go); nil keeps the
// Chat Completions rules, unverified there.
var chatRulesTable = []struct {
	ids, prefixes []string
	rules         ChatRules
	responses     *apiRules
}{
	{ids: []string{"gpt-3.5-turbo-0301"}, rules: ChatRules{Family: "gpt-3.5-turbo-0301",
		Messages:  MessageRules{PerMessage: 4, PerName: -1, ReplyPriming: 3, FunctionMessage: -2, FunctionCall: 3, Exact: true},
		Tools:     ToolRules{Definitions: 9, SystemMessage: -4, Params: ParamsIndented, FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7},
		ToolCalls: callsLegacy, Images: noImages}},
	// The 2023 snapshots; the gpt-4 and gpt-4-32k aliases still name them.
	{ids: []string{"gpt-3.5-turbo-0613", "gpt-3.5-turbo-16k", "gpt-3.5-turbo-16k-0613", "gpt-4", "gpt-4-0314", "gpt-4-0613"},
		prefixes: []string{"gpt-4-32k"},
		rules:    ChatRules{Family: "gpt-4-0613", Messages: messages3, Tools: tools2023, ToolCalls: callsLegacy, Images: noImages}},
	{prefixes: []string{"gpt-3.5-turbo", "gpt-35-turbo"},
		rules: ChatRules{Family: "gpt-3.5-turbo", Messages: messages3, Tools: exactTools(tools2024, false), ToolCalls: calls2024, Images: noImages}},
	{prefixes: []string{"gpt-4-turbo", "gpt-4-1106", "gpt-4-0125", "gpt-4-vision", "gpt-4v"},
		rules:     ChatRules{Family: "gpt-4-turbo", Messages: messages3, Tools: exactTools(tools2024, false), ToolCalls: calls2024, Images: tiles(85, 170)},
		responses: &responsesTurbo},
	{prefixes: []string{"gpt-4o", "chatgpt-4o"},
		rules:     ChatRules{Family: "gpt-4o", Messages: messages3, Tools: exactTools(tools2024, false), ToolCalls: calls4o, Images: tiles(85, 170)},
		responses: &responses4o},
	{prefixes: []string{"gpt-4o-mini"},
		rules:     ChatRules{Family: "gpt-4o-mini", Messages: messages3, Tools: exactTools(tools2024, false), ToolCalls: calls4o, Images: tiles(2833, 5667)},
		responses: &responses4o},
	{prefixes: []string{"gpt-4.1", "gpt-4.5"},
		rules:     ChatRules{Family: "gpt-4.1", Messages: messages3, Tools: tools2024, ToolCalls: calls4o, Images: tiles(85, 170)},
		responses: &responses4o},
	{prefixes: []string{"gpt-4.1-mini"},
		rules:     ChatRules{Family: "gpt-4.1-mini", Messages: messages3, Tools: tools2024, ToolCalls: calls4o, Images: patches(1.62)},
		responses: &responses4o},
	{prefixes: []string{"gpt-4.1-nano"},
		rules:     ChatRules{Family: "gpt-4.1-nano", Messages: messages3, Tools: tools2024, ToolCalls: calls4o, Images: patches(2.46)},
		responses: &responses4o},
	// o1 and o3-mini bill conversations as gpt-4o does, with a shorter
	// priming; o3 and o4-mini as the gpt-5 family (chat-rules.md §13).
	{prefixes: []string{"o1", "o3-mini"},
		rules:     ChatRules{Family: "o1", Messages: messagesO, Tools: tools2024, ToolCalls: calls4o, Images: tiles(75, 150)},
		responses: &responsesO1},
	// o1-mini's one count is 8 above the o1 rules (a user-only request:
	// it takes no system prompt); the bound carries it.
	{prefixes: []string{"o1-mini", "o1-preview"},
		rules: ChatRules{Family: "o1-mini", Messages: MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 2, FunctionMessage: -2, FunctionCall: 3, Spread: 8},
			Tools: tools2024, ToolCalls: calls4o, Images: noImages},
		responses: &responsesO1},
	{prefixes: []string{"o3"}, rules: harmony("o3", tiles(75, 150)), responses: &responsesHarmony},
	{prefixes: []string{"o4-mini", "codex-mini"}, rules: harmony("o4-mini", patches(1.72)), responses: &responsesHarmony},
	{prefixes: []string{"computer-use-preview"},
		rules: ChatRules{Family: "computer-use-preview", Messages: messages3, Tools: tools2024, ToolCalls: calls2024, Images: tiles(65, 129)}},
	{prefixes: []string{"gpt-5"}, rules: harmony("gpt-5", tiles(70, 140)), responses: &responsesHarmony},
	// gpt-5-chat bills as gpt-4o does (the peer's 3 billed rows); the later
	// chat models (gpt-5.1-chat-latest…) as the gpt-5 family.
	{prefixes: []string{"gpt-5-chat"},
		rules:     ChatRules{Family: "gpt-5-chat", Messages: messages3, Tools: tools2024, ToolCalls: calls4o, Images: tiles(70, 140)},
		responses: &responses4o},
	// The newer gpt-5 models bill image patches; the multipliers are the
	// ones measured on the API (the transcribed documentation disagrees).
	{prefixes: []string{"gpt-5-mini", "gpt-5.2", "gpt-5.3", "gpt-5.4", "gpt-5.5", "gpt-5.6"},
		rules: harmony("gpt-5-mini", patches(1.2)), responses: &responsesHarmony},
	{prefixes: []string{"gpt-5-nano"}, rules: harmony("gpt-5-nano", patches(1.5)), responses: &responsesHarmony},
}

// defaultChatRules apply to models the table does not know: the message
// rule every family from 2023 to gpt-4.1 shares, the 2024 tools rendering
// and gpt-4o's image tiles, all flagged as estimates.
var defaultChatRules = ChatRules{Family: "default",
	Messages: MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 3, FunctionMessage: -2, FunctionCall: 3},
	Tools:    tools2024, ToolCalls: calls2024, Images: tiles(85, 170)}

// ChatRulesFor returns the rules of a model: by its exact id, else by the
// longest matching prefix (gpt-4o-2024-08-06 gets gpt-4o's rules), else the
// default rules (Family "default", never exact). Cost: O(size of the table).
func ChatRulesFor(model string) ChatRules {
	id := strings.ToLower(strings.TrimSpace(model))
	if g, family := geminiRulesFor(id[strings.LastIndexByte(id, '/')+1:]); g != nil {
		return ChatRules{Family: family, Gemini: g}
	}
	if i := chatRulesRow(model); i >= 0 {
		return chatRulesTable[i].rules
	}
	return defaultChatRules
}

// chatRulesRow is the index of a model's row in chatRulesTable, or -1.
func chatRulesRow(model string) int {
	id := strings.ToLower(strings.TrimSpace(model))
	if rest, ok := strings.CutPrefix(id, "ft:"); ok {
		id, _, _ = strings.Cut(rest, ":")
	}
	best, bestLen := -1, 0
	for i, row := range chatRulesTable {
		for _, x := range row.ids {
			if id == x {
				return i
			}
		}
		for _, p := range row.prefixes {
			if len(p) > bestLen && strings.HasPrefix(id, p) {
				best, bestLen = i, len(p)
			}
		}
	}
	return best
}
