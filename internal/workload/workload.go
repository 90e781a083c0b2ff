// Package workload rebuilds the public accuracy workload of coder/ai-tokenizer
// (github.com/coder/ai-tokenizer, MIT licence, scripts/generate-accuracy.ts at
// v1.0.6): Vercel AI SDK conversations (ModelMessage[]) of about 500, 5,000 and
// 50,000 tokens — multilingual text, code, emoji, numbers, an array of text
// parts now and then, tool calls with their results — sent with one tool whose
// schema nests objects, an array and an enum. The peer sent one conversation per
// model and size through Vercel's AI Gateway and published, in its
// accuracy.json, the input tokens the provider billed and what its own counter
// predicted.
//
// The peer drew each text with Math.random, so its conversations cannot be
// rebuilt byte for byte. This package draws them from a seed instead, with the
// same templates, choices and structure; testdata/billed/ai-tokenizer.json
// names, for each published row, six seeds whose conversations the peer's own
// counter (npm ai-tokenizer 1.0.6, the configuration the row was measured with)
// counts to exactly the count the peer published, and how many messages each
// has. Such a conversation holds the same number of tokens as the billed one
// to within the differences of its random choices, which the published count
// fixes for the peer's tokenizer only: for another tokenizer the six differ by
// 0.1–0.3 % at ~5k and ~50k tokens and by up to 5 tokens at ~500, so the
// tests and `make bench-accuracy` count them all and take the mean.
// js/scripts/billed-workload.mjs finds the seeds (`make billed-workload`).
package workload

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"strings"
)

// Message is one AI SDK ModelMessage: Content is a string or a list of parts.
type Message struct {
	Role    string `json:"role"`
	Content any    `json:"content"`
}

// Part is one content part of a message: text, tool-call or tool-result.
type Part struct {
	Type       string  `json:"type"`
	Text       string  `json:"text,omitempty"`
	ToolCallID string  `json:"toolCallId,omitempty"`
	ToolName   string  `json:"toolName,omitempty"`
	Input      any     `json:"input,omitempty"`
	Output     *Output `json:"output,omitempty"`
}

// Output is a tool result's output, {type: "json", value}.
type Output struct {
	Type  string `json:"type"`
	Value any    `json:"value"`
}

// ToolName is the workload's one tool.
const ToolName = "analyzeData"

// ToolDescription and ToolSchema are that tool's description and input
// schema, the JSON Schema the AI SDK (ai 5.0.105 with zod 4.1.12) sends for
// the peer's Zod schema: draft-07, every object closed.
const (
	ToolDescription = "Analyze dataset with comprehensive statistical insights and trend detection"
	ToolSchema      = `{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","properties":{"query":{"description":"Analysis query","type":"string"},"filters":{"description":"Data filters","type":"object","properties":{"category":{"description":"Category filter","type":"string"},"dateRange":{"description":"Date range for filtering","type":"object","properties":{"start":{"description":"Start date ISO format","type":"string"},"end":{"description":"End date ISO format","type":"string"}},"required":["start","end"],"additionalProperties":false},"tags":{"description":"Tag filters","type":"array","items":{"type":"string"}}},"required":["category","dateRange","tags"],"additionalProperties":false},"aggregation":{"description":"Aggregation method","type":"string","enum":["sum","avg","min","max","count"]}},"required":["query","filters","aggregation"],"additionalProperties":false}`
)

// Generator draws one conversation, a step at a time.
type Generator struct {
	rng       *rand.Rand
	toolCalls bool
	idx       int // the peer's messageIdx
	started   bool
}

// New returns the conversation of a seed. toolCalls is false for the models
// the peer sent no tool calls to (gemini-3-pro-preview, which wants thought
// signatures on them).
func New(seed uint64, toolCalls bool) *Generator {
	return &Generator{rng: rand.New(rand.NewPCG(seed, 0x746f6b656e666974)), toolCalls: toolCalls}
}

// Next returns the messages of the next step: the system message and the
// first user message at first, then one message, or an assistant's tool
// call and its result. The peer counts the conversation before each step
// and stops once it reaches 90 % of the size aimed at.
func (g *Generator) Next() []Message {
	if !g.started {
		g.started = true
		g.idx = 1
		return []Message{
			{Role: "system", Content: g.fill(systemTemplate)},
			{Role: "user", Content: g.fill(templates[0])},
		}
	}
	role := "assistant"
	if g.idx%2 == 0 {
		role = "user"
	}
	content := g.fill(templates[g.idx%len(templates)])
	var out []Message
	switch {
	case g.idx%7 == 0 && role == "user":
		out = []Message{{Role: role, Content: []Part{
			{Type: "text", Text: content},
			{Type: "text", Text: g.fill("Additionally, can you help with {TECH1}?")},
		}}}
	case role == "assistant" && g.idx%13 == 3 && g.toolCalls:
		id := "call" + pad5(g.idx)
		in := callInput{Query: g.fill("Q{Q} analysis"), Aggregation: "sum"}
		in.Filters.Category = g.fill("{TECH1}")
		in.Filters.DateRange.Start, in.Filters.DateRange.End = "2024-01-01", "2024-12-31"
		in.Filters.Tags = []string{"test"}
		g.idx++
		value := resultValue{Status: "success", Message: g.fill("Analysis complete for {TECH1}. Found {NUM1} records.")}
		value.Count = g.rng.IntN(10000)
		out = []Message{
			{Role: role, Content: []Part{{Type: "text", Text: content},
				{Type: "tool-call", ToolCallID: id, ToolName: ToolName, Input: in}}},
			{Role: "tool", Content: []Part{{Type: "tool-result", ToolCallID: id, ToolName: ToolName,
				Output: &Output{Type: "json", Value: value}}}},
		}
	default:
		out = []Message{{Role: role, Content: content}}
	}
	g.idx++
	return out
}

// Conversation returns the first n messages of a seed's conversation (n
// falls on a step's end in the rows of testdata/billed).
func Conversation(seed uint64, toolCalls bool, n int) []Message {
	g := New(seed, toolCalls)
	var msgs []Message
	for len(msgs) < n {
		msgs = append(msgs, g.Next()...)
	}
	return msgs[:n]
}

// Request returns an AI SDK request ({model, messages, tools}) for the
// messages, with the workload's tool, as JSON.
func Request(model string, msgs []Message) []byte {
	req := struct {
		Model    string          `json:"model"`
		Messages []Message       `json:"messages"`
		Tools    json.RawMessage `json:"tools"`
	}{model, msgs, json.RawMessage(`{"` + ToolName + `":{"description":` + strconv.Quote(ToolDescription) + `,"inputSchema":{"jsonSchema":` + ToolSchema + `}}}`)}
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false) // as JavaScript's JSON.stringify
	if err := enc.Encode(req); err != nil {
		panic("workload: " + err.Error()) // every value above marshals
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n"))
}

// fill replaces each placeholder of a template, in the order of
// placeholders, by one of its choices (every occurrence by the same one).
func (g *Generator) fill(t string) string {
	for _, p := range placeholders {
		if strings.Contains(t, p.name) {
			t = strings.ReplaceAll(t, p.name, p.choices[g.rng.IntN(len(p.choices))])
		}
	}
	return t
}

func pad5(n int) string {
	s := strconv.Itoa(n)
	for len(s) < 5 {
		s = "0" + s
	}
	return s
}

// callInput and resultValue are a tool call's input and its result's
// value, their fields in the order the peer's object literals write them.
type callInput struct {
	Query   string `json:"query"`
	Filters struct {
		Category  string `json:"category"`
		DateRange struct {
			Start string `json:"start"`
			End   string `json:"end"`
		} `json:"dateRange"`
		Tags []string `json:"tags"`
	} `json:"filters"`
	Aggregation string `json:"aggregation"`
}

type resultValue struct {
	Status  string `json:"status"`
	Message string `json:"message"`
	Count   int    `json:"count"`
}
