package chat

import "strings"

// The Claude rows of the chat rules. ToolPrompt and ToolPromptAny are
// Anthropic's published tool-use system prompt per model (the tool-use
// page's pricing table, testdata/billed/constants.md §1.1: the table of
// 2026-06-28 to 2026-09-20 for the models it lists, the earlier table for
// the models it dropped). The framing constants are fitted per tokenizer
// generation (testdata/claude-rules.md).

var (
	// framing2025 fits Claude 3 to 4.6 (one tokenizer); framing2026 Opus
	// 4.7's tokenizer and framing48 Opus 4.8's and the 5 models' (their
	// turns and blocks scaled from framing2025 by the tokenizer's ratio,
	// the prompt's start fitted on their few billed counts).
	framing2025 = AnthropicFraming{Request: 7, Marker: 5, Block: 1, ToolSystem: 6, Tool: 6, ToolJSON: 1.05, ToolUse: 25, ToolResult: 25,
		NamedTool: 3, Output: 130, Thinking: 29, ThinkingAdaptive: 17}
	framing2026 = AnthropicFraming{Request: 11, Marker: 7, Block: 1, ToolSystem: 8, Tool: 8, ToolJSON: 1.05, ToolUse: 34, ToolResult: 34,
		NamedTool: 4, Output: 176, TaskBudget: 33}
	framing48 = AnthropicFraming{Request: 6, Marker: 5, Block: 1, ToolSystem: 6, Tool: 6, ToolJSON: 1.05, ToolUse: 25, ToolResult: 25,
		NamedTool: 3, Output: 130, TaskBudget: 33, ToolSearch: 122}
)

func claude2025(auto, any int) AnthropicRules {
	return AnthropicRules{ToolPrompt: auto, ToolPromptAny: any, Framing: framing2025}
}

func claude2026(auto, any int) AnthropicRules {
	return AnthropicRules{ToolPrompt: auto, ToolPromptAny: any, HighRes: true, Framing: framing2026}
}

func claude48(auto, any int) AnthropicRules {
	return AnthropicRules{ToolPrompt: auto, ToolPromptAny: any, HighRes: true, Framing: framing48}
}

// anthropicTable maps model id prefixes to rules; the longest prefix wins.
var anthropicTable = []struct {
	prefixes []string
	rules    AnthropicRules
}{
	{[]string{"claude-opus-5", "claude-fable-5", "claude-mythos-5"}, claude48(286, 406)},
	{[]string{"claude-sonnet-5", "claude-haiku-5"}, claude48(354, 474)},
	{[]string{"claude-opus-4-8"}, claude48(290, 410)},
	{[]string{"claude-opus-4-7"}, claude2026(675, 804)},
	{[]string{"claude-opus-4-6", "claude-sonnet-4-6"}, claude2025(497, 589)},
	{[]string{"claude-opus-4-5", "claude-sonnet-4-5", "claude-haiku-4-5"}, claude2025(496, 588)},
	{[]string{"claude-opus-4", "claude-sonnet-4"}, claude2025(313, 315)},
	// Sonnet 3.7 and 3.5 (October 2024): the pricing table listed 346/313
	// until mid-2026, but the peer's billed rows for both land where
	// Opus 4's and Sonnet 4's do (673-675 at ~500 tokens with one tool),
	// which 313 fits; the table's any/tool row is kept.
	{[]string{"claude-3-7-sonnet"}, claude2025(313, 313)},
	{[]string{"claude-3-5-sonnet"}, claude2025(313, 313)},
	{[]string{"claude-3-5-sonnet-20240620"}, claude2025(294, 261)},
	{[]string{"claude-3-5-haiku"}, claude2025(264, 355)},
	{[]string{"claude-3-opus"}, claude2025(530, 281)},
	{[]string{"claude-3-sonnet"}, claude2025(159, 235)},
	{[]string{"claude-3-haiku"}, claude2025(264, 340)},
}

// AnthropicNewest is the id of the newest Claude generation, whose rules
// AnthropicRulesFor gives an id it does not know.
func AnthropicNewest() string { return anthropicTable[0].prefixes[0] }

// AnthropicRulesFor returns the rules of a Claude model id (a registry id
// such as claude-sonnet-4-5, or a dated snapshot of one), and whether its
// tool-use prompt is published; an id the table does not know gets the
// newest generation's rules. Cost: O(size of the table).
func AnthropicRulesFor(id string) (AnthropicRules, bool) {
	id = strings.ToLower(strings.TrimSpace(id))
	best, bestLen := -1, 0
	for i, row := range anthropicTable {
		for _, p := range row.prefixes {
			if len(p) > bestLen && strings.HasPrefix(id, p) {
				best, bestLen = i, len(p)
			}
		}
	}
	if best < 0 {
		return anthropicTable[0].rules, false
	}
	return anthropicTable[best].rules, true
}
