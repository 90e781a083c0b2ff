package core

import "strings"

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
	Template  string
	Messages  MessageRules
	Tools     ToolRules
	ToolCalls ToolCallRules
	Images    ImageRules
	stop      stopper // the call's (Registry.stop): checked between messages and template parts
}

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
	// The o-series and gpt-5 bill one token less per request; whether the
	// reply priming or something else is shorter cannot be told apart.
	messagesO = MessageRules{PerMessage: 3, PerName: 1, ReplyPriming: 2, FunctionMessage: -2, FunctionCall: 3}

	tools2023 = ToolRules{Definitions: 9, SystemMessage: -4, Params: ParamsIndented,
		FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7,
		Exact: true, NestedExact: true}
	tools2024 = ToolRules{Definitions: 9, SystemMessage: -4, Params: ParamsFlat, Undescribed: -1,
		FunctionCallNone: 1, FunctionCallNamed: 4, ToolChoiceNone: 1, ToolChoiceRequired: 1, ToolChoiceNamed: 7}

	callsLegacy = ToolCallRules{Legacy: true}
	// Only PerCall+Result (9) is pinned down by the data; the split is the
	// one that keeps every message positive.
	calls2024 = ToolCallRules{PerCall: 4, WithContent: 4, Parallel: 13, Result: 5}

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

// chatRulesTable is the model → rules table. A model matches a row by one
// of its ids exactly, else by the longest prefix of any row; a fine-tuned
// id "ft:BASE:org::id" is looked up as BASE.
var chatRulesTable = []struct {
	ids, prefixes []string
	rules         ChatRules
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
		rules: ChatRules{Family: "gpt-4-turbo", Messages: messages3, Tools: exactTools(tools2024, false), ToolCalls: calls2024, Images: tiles(85, 170)}},
	{prefixes: []string{"gpt-4o", "chatgpt-4o"},
		rules: ChatRules{Family: "gpt-4o", Messages: messages3, Tools: exactTools(tools2024, false), ToolCalls: calls2024, Images: tiles(85, 170)}},
	{prefixes: []string{"gpt-4o-mini"},
		rules: ChatRules{Family: "gpt-4o-mini", Messages: messages3, Tools: exactTools(tools2024, false), ToolCalls: calls2024, Images: tiles(2833, 5667)}},
	{prefixes: []string{"gpt-4.1", "gpt-4.5"},
		rules: ChatRules{Family: "gpt-4.1", Messages: messages3, Tools: tools2024, ToolCalls: calls2024, Images: tiles(85, 170)}},
	{prefixes: []string{"gpt-4.1-mini"},
		rules: ChatRules{Family: "gpt-4.1-mini", Messages: messages3, Tools: tools2024, ToolCalls: calls2024, Images: patches(1.62)}},
	{prefixes: []string{"gpt-4.1-nano"},
		rules: ChatRules{Family: "gpt-4.1-nano", Messages: messages3, Tools: tools2024, ToolCalls: calls2024, Images: patches(2.46)}},
	{prefixes: []string{"o1", "o3"},
		rules: ChatRules{Family: "o1-o3", Messages: messagesO, Tools: tools2024, ToolCalls: calls2024, Images: tiles(75, 150)}},
	{prefixes: []string{"o4-mini", "codex-mini"},
		rules: ChatRules{Family: "o4-mini", Messages: messagesO, Tools: tools2024, ToolCalls: calls2024, Images: patches(1.72)}},
	{prefixes: []string{"computer-use-preview"},
		rules: ChatRules{Family: "computer-use-preview", Messages: messages3, Tools: tools2024, ToolCalls: calls2024, Images: tiles(65, 129)}},
	{prefixes: []string{"gpt-5"},
		rules: ChatRules{Family: "gpt-5", Messages: messagesO, Tools: tools2024, ToolCalls: calls2024, Images: tiles(70, 140)}},
	// The newer gpt-5 models bill image patches; the multipliers are the
	// ones measured on the API (the transcribed documentation disagrees).
	{prefixes: []string{"gpt-5-mini", "gpt-5.2", "gpt-5.3", "gpt-5.4", "gpt-5.5", "gpt-5.6"},
		rules: ChatRules{Family: "gpt-5-mini", Messages: messagesO, Tools: tools2024, ToolCalls: calls2024, Images: patches(1.2)}},
	{prefixes: []string{"gpt-5-nano"},
		rules: ChatRules{Family: "gpt-5-nano", Messages: messagesO, Tools: tools2024, ToolCalls: calls2024, Images: patches(1.5)}},
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
	if rest, ok := strings.CutPrefix(id, "ft:"); ok {
		id, _, _ = strings.Cut(rest, ":")
	}
	best, bestLen := -1, 0
	for i, row := range chatRulesTable {
		for _, x := range row.ids {
			if id == x {
				return row.rules
			}
		}
		for _, p := range row.prefixes {
			if len(p) > bestLen && strings.HasPrefix(id, p) {
				best, bestLen = i, len(p)
			}
		}
	}
	if best < 0 {
		return defaultChatRules
	}
	return chatRulesTable[best].rules
}
