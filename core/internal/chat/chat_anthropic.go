package chat

import (
	"math"
	"slices"
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/format"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// Claude's requests, as Anthropic bills them. The Messages API renders a
// request into one prompt — the tool-use system prompt and the tool
// definitions when there are tools, the system prompt, then the turns,
// each opened by its speaker's marker, then the marker of the reply — and
// bills that prompt's tokens. Anthropic publishes the tool-use system
// prompt's size per model and tool_choice (AnthropicRules.ToolPrompt);
// the rest of the framing is fitted here on billed counts
// (testdata/billed/anthropic.json and the peer workload's rows:
// testdata/claude-rules.md says how), and the text is counted with the
// model's estimator, since Anthropic publishes no tokenizer for Claude 3
// and later.
//
// The request arrives translated to OpenAI's shape (shape.go) from any of
// the shapes countChat reads; this file walks it as Anthropic sees it:
// system messages first, then turns — consecutive messages of one side
// are one turn, a tool message is the user side's tool_result block — and
// the blocks of each turn.

// AnthropicRules are the constants with which Anthropic turns a Messages
// request into billed input tokens for one model.
type AnthropicRules struct {
	// ToolPrompt and ToolPromptAny are the tool-use system prompt Anthropic
	// adds when a request has tools: for tool_choice auto or none, and for
	// any or a named tool (Anthropic's tool-use pricing table, as of
	// ToolPromptAsOf).
	ToolPrompt, ToolPromptAny int
	// HighRes bills images in the high-resolution tier (2576 px, 4784
	// tokens: Opus 4.7 and later); else the standard one (1568, 1568).
	HighRes bool
	// Framing is the rendering's constants, which change with the
	// tokenizer generation.
	Framing AnthropicFraming
}

// AnthropicFraming holds the fitted constants of Anthropic's rendering.
type AnthropicFraming struct {
	// Request is added once: the prompt's start, the first turn's marker
	// and the reply's.
	Request int
	// Marker opens each later turn; a last assistant turn is the reply's
	// prefill, under the reply's marker.
	Marker int
	// Block separates two blocks (or two merged messages) of one turn.
	Block int
	// ToolSystem is added when a request has both tools and a system
	// prompt, which then joins the tool-use prompt.
	ToolSystem int
	// Tool is added per tool definition, beside its JSON text, which
	// counts ToolJSON times the estimate (JSON costs Claude a little more
	// than o200k_base).
	Tool     int
	ToolJSON float64
	// ToolUse is added per tool_use block, beside its name and input;
	// ToolResult per tool_result block, beside its content.
	ToolUse, ToolResult int
	// NamedTool is added when tool_choice names a tool, beside the name.
	NamedTool int
	// Output is added when the request asks for a structured output,
	// beside the schema's JSON text (the format's system prompt).
	Output int
	// Thinking and ThinkingAdaptive are added when extended thinking is
	// enabled, or adaptive (its system prompt).
	Thinking, ThinkingAdaptive int
	// ToolSearch is added when some tools are deferred (defer_loading):
	// the tool search prompt.
	ToolSearch int
	// TaskBudget is added when output_config has a task budget.
	TaskBudget int
}

// ToolPromptAsOf dates the tool-use prompt sizes of the rules table.
const ToolPromptAsOf = "2026-09-20"

// anthropicCounter carries one count.
type anthropicCounter struct {
	tok    engine.Tokenizer
	rules  AnthropicRules
	notes  []string
	images int
}

func (c *anthropicCounter) count(s string) int {
	if s == "" {
		return 0
	}
	return c.tok.Count(s)
}

func (c *anthropicCounter) note(n string) {
	for _, have := range c.notes {
		if have == n {
			return
		}
	}
	c.notes = append(c.notes, n)
}

// side is the speaker a message's blocks belong to in Anthropic's turns.
func side(m *ChatMessage) byte {
	if m.Role == "assistant" {
		return 'a'
	}
	return 'u'
}

// countAnthropic counts a request as Anthropic bills it. Cost: O(n).
func countAnthropic(tok engine.Tokenizer, req ChatRequest, rules AnthropicRules) (ChatCount, error) {
	output := anthropicOutput(&req)
	c := &anthropicCounter{tok: tok, rules: rules}
	f := rules.Framing
	out := ChatCount{PerMessage: make([]int, len(req.Messages)), Rules: "anthropic", Encoding: tok.Name()}

	// System messages before the first turn are the system prompt; later
	// ones are blocks of the user's turn (mid-conversation instructions).
	first := 0
	for first < len(req.Messages) && isSystem(&req.Messages[first]) {
		out.PerMessage[first] = c.content(&req.Messages[first], false)
		first++
	}
	if first > 0 {
		out.PerMessage[0] += (first - 1) * f.Block
		if len(functionInputs(&req)) > 0 {
			out.PerMessage[0] += f.ToolSystem
		}
	}

	// Thinking blocks count only in the assistant turn under way — the
	// last one, when nothing but tool results follows it: Anthropic drops
	// those of earlier turns.
	lastAssistant := len(req.Messages)
	for i := len(req.Messages) - 1; i >= 0; i-- {
		m := &req.Messages[i]
		if side(m) == 'a' {
			lastAssistant = i
			for lastAssistant > 0 && side(&req.Messages[lastAssistant-1]) == 'a' {
				lastAssistant--
			}
			break
		}
		if m.Role != "tool" {
			break // a new user message: every assistant turn is an earlier one
		}
	}
	turns, last, blocks := 0, byte(0), 0
	for i := first; i < len(req.Messages); i++ {
		m := &req.Messages[i]
		n := 0
		if s := side(m); s != last {
			turns++
			last, blocks = s, 0
			if turns > 1 || s == 'a' {
				n += f.Marker // a first assistant turn follows an empty user turn
			}
		}
		nb := c.blocks(m)
		if blocks > 0 && nb > 0 {
			n += f.Block // joins the turn's earlier blocks
		}
		n += max(0, nb-1) * f.Block
		blocks += nb
		n += c.content(m, i < lastAssistant)
		for j := range m.ToolCalls {
			call := &m.ToolCalls[j].Function
			n += f.ToolUse + c.count(call.Name) + c.count(compactJSON(call.Arguments))
		}
		if m.Role == "tool" {
			n += f.ToolResult
		}
		out.PerMessage[i] = n
	}
	if last == 'a' && turns > 1 {
		// The last assistant turn is the reply's prefill: its marker is
		// the reply's, counted in Request.
		for i := len(req.Messages) - 1; i >= first; i-- {
			if side(&req.Messages[i]) != 'a' {
				break
			}
			if i == first || side(&req.Messages[i-1]) != 'a' {
				out.PerMessage[i] -= f.Marker
			}
		}
	}
	var err error
	if out.Tools, err = c.tools(&req); err != nil {
		return ChatCount{}, err
	}
	out.ToolChoice = c.choice(&req)
	out.Priming += f.Request
	if len(output) > 0 {
		schema, err := spacedJSON(output)
		if err != nil {
			return ChatCount{}, fieldErr("output_config.format.schema", "%v", err)
		}
		out.ResponseFormat = f.Output + c.count(schema)
	}
	if x := req.anthropic; x != nil {
		switch x.thinking {
		case "enabled":
			out.Priming += f.Thinking
		case "adaptive":
			out.Priming += f.ThinkingAdaptive
		}
		if x.taskBudget {
			out.Priming += f.TaskBudget
		}
	}
	for _, n := range out.PerMessage {
		out.Messages += n
	}
	out.Images = c.images
	out.Total = out.Messages + out.Tools + out.ToolChoice + out.ResponseFormat + out.Priming
	out.UpperBound = tok.Upper(out.Total)
	c.note("Claude's framing (turn markers, tool_use and tool_result blocks, tool definitions) is fitted to billed counts; the tool-use system prompt is Anthropic's published size (as of " + ToolPromptAsOf + ")")
	if !tok.Exact() {
		c.note(format.Sprintf("%s is an estimating tokenizer: Anthropic publishes no tokenizer for Claude 3 and later", tok.Name()))
	}
	out.Notes = c.notes
	return out, nil
}

// anthropicOutput is the JSON Schema of a request's structured output as
// Anthropic receives it: output_config.format's, or a response format's
// from another shape. The AI SDK's Anthropic provider sends one as a tool
// named "json" that tool_choice forces: req gets that tool, and the
// schema is not returned.
func anthropicOutput(req *ChatRequest) RawJSON {
	if x := req.anthropic; x != nil && len(x.output) > 0 {
		return x.output
	}
	rf := req.ResponseFormat
	if rf == nil || rf.JSONSchema == nil || len(rf.JSONSchema.Schema) == 0 {
		return nil
	}
	if !req.aisdk {
		return rf.JSONSchema.Schema
	}
	req.Tools = append(slices.Clip(req.Tools), ChatTool{Type: "function", Function: FunctionDef{
		Name: "json", Description: "Respond with a JSON object.", Parameters: rf.JSONSchema.Schema}})
	req.ToolChoice = &ToolChoice{Mode: "function", Name: "json"}
	return nil
}

func isSystem(m *ChatMessage) bool { return m.Role == "system" || m.Role == "developer" }

// blocks is how many content blocks a message puts into its turn.
func (c *anthropicCounter) blocks(m *ChatMessage) int {
	n := len(m.ToolCalls)
	switch {
	case m.Content.Parts != nil:
		n += len(m.Content.Parts)
	case m.Content.Text != "" || m.Role == "tool":
		n++
	}
	return n
}

// content is a message's text and images; dropThinking leaves out its
// thinking blocks.
func (c *anthropicCounter) content(m *ChatMessage, dropThinking bool) int {
	if m.Content.Parts == nil {
		return c.count(m.Content.Text)
	}
	n := 0
	for i := range m.Content.Parts {
		p := &m.Content.Parts[i]
		switch {
		case p.thinking && dropThinking:
		case p.Type == "text":
			n += c.count(p.Text)
		case p.Type == "image_url":
			t := c.image(p.ImageURL)
			c.images += t
			n += t
		}
	}
	return n
}

// tools is the tool-use system prompt and the definitions, each as the
// JSON text of {name, description, input_schema} with Python's default
// separators (", " and ": "), the form Anthropic's prompt shows them in.
func (c *anthropicCounter) tools(req *ChatRequest) (int, error) {
	defs := functionInputs(req)
	if len(defs) == 0 {
		return 0, nil
	}
	n := c.rules.ToolPrompt
	if ch := req.ToolChoice; ch != nil && (ch.Mode == "required" || ch.Mode == "function") {
		n = c.rules.ToolPromptAny
	}
	loaded := map[string]bool{} // deferred tools a tool_use has loaded
	for i := range req.Messages {
		for _, call := range req.Messages[i].ToolCalls {
			loaded[call.Function.Name] = true
		}
	}
	f := c.rules.Framing
	deferred := false
	for _, d := range defs {
		if d.def.deferred && !loaded[d.def.Name] {
			deferred = true
			continue
		}
		text, err := anthropicToolText(d)
		if err != nil {
			return 0, err
		}
		n += f.Tool + int(math.Round(f.ToolJSON*float64(c.count(text))))
	}
	if deferred {
		n += f.ToolSearch
	}
	return n, nil
}

// anthropicToolText is a definition as Anthropic's prompt shows it.
func anthropicToolText(d funcInput) (string, error) {
	var b strings.Builder
	b.WriteString(`{"name": `)
	b.Write(jsonio.AppendString(nil, d.def.Name, false))
	if d.def.Description != "" {
		b.WriteString(`, "description": `)
		b.Write(jsonio.AppendString(nil, d.def.Description, false))
	}
	if len(d.def.Parameters) > 0 && !jsonio.IsNull(d.def.Parameters) {
		schema, err := spacedJSON(d.def.Parameters)
		if err != nil {
			return "", fieldErr(d.path+".parameters", "%v", err)
		}
		b.WriteString(`, "input_schema": `)
		b.WriteString(schema)
	}
	b.WriteByte('}')
	return b.String(), nil
}

// choice is what a named tool_choice adds.
func (c *anthropicCounter) choice(req *ChatRequest) int {
	if ch := req.ToolChoice; ch != nil && ch.Mode == "function" && len(functionInputs(req)) > 0 {
		return c.rules.Framing.NamedTool + c.count(ch.Name)
	}
	return 0
}

// spacedJSON is a JSON value as Python's json.dumps writes it by default.
func spacedJSON(raw RawJSON) (string, error) {
	p, err := parseOrdered(raw)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	p.writeSpaced(&b)
	return b.String(), nil
}
