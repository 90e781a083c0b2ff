package chat

import (
	"math"
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/format"
)

// Gemini's chat counts. A chat request (in any shape; Gemini's own and the
// AI SDK's are read as their OpenAI translation, shape.go) is counted as the
// generateContent request it stands for — the request itself for Gemini's
// shape, or the one the AI SDK's Google provider (@ai-sdk/google) sends for
// the others: system messages become the system instruction, user and
// assistant messages contents of role user and model, tool calls
// functionCall parts, tool results functionResponse parts whose response is
// {name, content}, and tools functionDeclarations.
//
// The count is Google's own local count (python-genai's LocalTokenizer:
// each string gemini_texts.go lists, counted on its own with the model's
// tokenizer) plus the framing Google bills beyond it, which Google does not
// publish: GeminiRules holds it, fitted to billed counts.

// GeminiRules are the constants with which Google bills a Gemini request
// beyond its local count. None is published; each is fitted to billed
// counts (API.md, "Gemini"), so a count that uses them is an estimate, and
// Bound holds the largest value the billed counts allow, which
// ChatCount.UpperBound uses.
type GeminiRules struct {
	// PerContent is added for each content of the request (a run of
	// messages that Google receives as one turn) and once for the system
	// instruction: 1 on every family but the 2.5 previews of September
	// 2025 (3).
	PerContent int
	// Declaration is added for each function declaration.
	Declaration int
	// JSONSchema reports that declarations given as JSON Schema
	// (parametersJsonSchema, as python-genai and pydantic-ai send them)
	// also bill the tokens of the schema's compact JSON text; Google's
	// OpenAPI-subset parameters (the AI SDK's) bill their strings only.
	JSONSchema bool
	// Signature and SignatureRatio price a thought signature on a
	// function call part: Signature tokens each, plus SignatureRatio
	// tokens per character of its base64 text (Gemini 3 bills the
	// thoughts a signature carries back in).
	Signature      int
	SignatureRatio float64
	// Image is an image part's tokens (258 on Gemini 2.x, a tile; 1,120 on
	// Gemini 3, its default high media resolution).
	Image int
	// Bound holds the largest framing the billed counts show.
	Bound GeminiBound
	// Source names the billed counts the constants were fitted to.
	Source string
}

// GeminiBound is the framing UpperBound assumes: the largest each constant
// was seen to be, over every billed count of the family.
type GeminiBound struct {
	PerContent     int
	Declaration    int
	Signature      int
	SignatureRatio float64
	// JSONSchemaRatio scales a JSON Schema declaration's JSON text tokens
	// (Google expands $ref and nested definitions).
	JSONSchemaRatio float64
	// ImageTiles bounds images on Gemini 2.x by the documented tiling:
	// 258 per 768-pixel tile.
	ImageTiles bool
}

// The evidence behind the constants (testdata/billed; API.md, "Gemini"):
//
//   - PerContent 1: every single-turn and multi-turn request to the Gemini
//     API in Google's cookbook and pydantic-ai's recorded tests on 2.5 and
//     3 (about 40 counts: one text turn bills its local count + 1, with a
//     system instruction + 2) and the peer's workload (21 counts, 0.88 to
//     0.97 per turn); pydantic-ai's 2.0-flash counts of mid-2025 bill 0,
//     so 2.0's bound keeps 2.
//   - Declaration 2: the peer's workload (a nested-schema tool sent by the
//     AI SDK costs 0 to 4 beyond its strings) and 2.0-flash's recorded
//     counts (2 declarations, 2 to 4); pydantic-ai's 2.5 and 3 counts on
//     the Gemini API bill 13 to 27 per declaration, the bound.
//   - JSON Schema declarations: their JSON text's tokens (12 counts on 2.5
//     and 3, within −15 and +24 of it), except a recursive $ref, which
//     Google unrolls (3× the text), the bound.
//   - Signatures on 3: 0.21 tokens per base64 character (62 counts; the
//     thoughts are billed again), bound 0.25 and 10 each; on 2.5, 18 each
//     (10 counts, 8 to 33).
//   - The 2.5 previews of September 2025: 3 per turn and 217 per
//     declaration, fitted to four of the peer's six rows (small and medium
//     of both previews) and checked on the two large ones.
var (
	geminiBound = GeminiBound{PerContent: 2, Declaration: 30, Signature: 35, SignatureRatio: 0.25, JSONSchemaRatio: 3}
	gemini20    = GeminiRules{PerContent: 1, Declaration: 2, JSONSchema: true, Image: 258,
		Bound:  GeminiBound{PerContent: 2, Declaration: 30, JSONSchemaRatio: 3, ImageTiles: true},
		Source: "the peer's billed workload and recorded Gemini API counts (testdata/billed)"}
	gemini25 = GeminiRules{PerContent: 1, Declaration: 2, JSONSchema: true, Signature: 18, Image: 258,
		Bound:  GeminiBound{PerContent: 2, Declaration: 30, Signature: 35, JSONSchemaRatio: 3, ImageTiles: true},
		Source: gemini20.Source}
	gemini25Preview = GeminiRules{PerContent: 3, Declaration: 217, JSONSchema: true, Signature: 18, Image: 258,
		Bound:  GeminiBound{PerContent: 4, Declaration: 230, Signature: 35, JSONSchemaRatio: 3, ImageTiles: true},
		Source: "the peer's billed workload (testdata/billed/ai-tokenizer.json)"}
	gemini3 = GeminiRules{PerContent: 1, Declaration: 2, JSONSchema: true, SignatureRatio: 0.21, Image: 1120,
		Bound:  GeminiBound{PerContent: 2, Declaration: 30, Signature: 10, SignatureRatio: 0.25, JSONSchemaRatio: 3},
		Source: gemini20.Source}
)

// geminiRulesTable is the model → Gemini rules table, by the longest
// prefix of the model's id.
var geminiRulesTable = []struct {
	prefix string
	family string
	rules  GeminiRules
}{
	{"gemini-1", "gemini-2.0", gemini20},
	{"gemini-2.0", "gemini-2.0", gemini20},
	{"gemini-2", "gemini-2.5", gemini25},
	{"gemini-2.5-flash-preview-09", "gemini-2.5-preview-09-2025", gemini25Preview},
	{"gemini-2.5-flash-lite-preview-09", "gemini-2.5-preview-09-2025", gemini25Preview},
	{"gemini-3", "gemini-3", gemini3},
	{"gemini-4", "gemini-3", gemini3},
	{"gemini", "gemini-3", gemini3},
}

// geminiRulesFor returns the Gemini rules of a model id (without provider
// prefix), or nil when it is not a Gemini model.
func geminiRulesFor(id string) (*GeminiRules, string) {
	best := -1
	for i, row := range geminiRulesTable {
		if strings.HasPrefix(id, row.prefix) && (best < 0 || len(row.prefix) > len(geminiRulesTable[best].prefix)) {
			best = i
		}
	}
	if best < 0 {
		return nil, ""
	}
	r := geminiRulesTable[best].rules
	return &r, geminiRulesTable[best].family
}

// IsGeminiFamily reports whether a rules family is one of the table's.
func IsGeminiFamily(family string) bool {
	for _, row := range geminiRulesTable {
		if row.family == family {
			return true
		}
	}
	return false
}

// geminiCounter carries one Gemini count.
type geminiCounter struct {
	chatCounter
	g *GeminiRules
	// local is Google's local count of the request (gemini_texts.go).
	local int
	// slack is what the bound adds over the count.
	slack float64
}

// countGemini counts a chat request as Google bills the generateContent
// request it stands for. Cost: O(n) in the size of the request.
func countGemini(tok engine.Tokenizer, req ChatRequest, rules ChatRules) (ChatCount, error) {
	c := &geminiCounter{chatCounter: chatCounter{tok: tok, rules: rules, exact: true}, g: rules.Gemini}
	g := c.g
	c.inexact(format.Sprintf("Gemini's framing is fitted to billed counts (%s), not published: %d per turn and system instruction, %d per function declaration", g.Source, g.PerContent, g.Declaration))
	if !tok.Exact() {
		c.inexact(format.Sprintf("%s is an estimating tokenizer: every text count is an estimate", tok.Name()))
	}
	out := ChatCount{PerMessage: make([]int, len(req.Messages)), Rules: rules.Family, Encoding: tok.Name()}
	x := req.gemini
	if x == nil && req.ResponseFormat != nil && req.ResponseFormat.JSONSchema != nil && len(req.ResponseFormat.JSONSchema.Schema) > 0 {
		// A structured output in another shape: the AI SDK's Google
		// provider sends it as generationConfig's responseSchema.
		x = &geminiExtras{responseSchema: req.ResponseFormat.JSONSchema.Schema}
	}
	if x == nil {
		x = &geminiExtras{}
	}
	callNames := map[string]string{}
	system, prev := false, -1
	for i := range req.Messages {
		m := &req.Messages[i]
		n := c.message(m, callNames)
		switch {
		case m.Role == "system" || m.Role == "developer":
			if !system {
				system = true
				n += c.content()
			}
		case c.newContent(req.Messages, prev, i):
			n += c.content()
			prev = i
		default:
			prev = i
		}
		if s, ok := x.signatures[i]; ok {
			n += c.signatures(s)
		}
		out.PerMessage[i] = n
		out.Messages += n
	}
	out.Tools = c.declarations(req.Tools, x)
	out.ResponseFormat = c.responseSchema(x)
	out.Images = c.images
	out.Total = out.Messages + out.Tools + out.ResponseFormat
	out.UpperBound = tok.Upper(out.Total + int(math.Ceil(c.slack)))
	out.Exact = false
	out.Notes = append(c.notes, format.Sprintf("Google's local count (python-genai's LocalTokenizer) of this request is %d: its strings, each counted on its own; the total adds the framing Google bills beyond them", c.local))
	return out, nil
}

// content is the framing of one content (or of the system instruction).
func (c *geminiCounter) content() int {
	c.slack += float64(c.g.Bound.PerContent - c.g.PerContent)
	return c.g.PerContent
}

// newContent reports whether message i opens a content of its own: a
// message translated from another shape does when it came from another
// message than the one before it (prev, the last non-system message);
// messages in OpenAI's shape each do, but consecutive tool messages,
// which Google receives as one turn of function responses.
func (c *geminiCounter) newContent(msgs []ChatMessage, prev, i int) bool {
	if prev < 0 {
		return true
	}
	m, p := &msgs[i], &msgs[prev]
	if m.from != nil && p.from != nil {
		return m.from.index != p.from.index || (m.Role == "assistant") != (p.Role == "assistant")
	}
	return m.Role != "tool" || p.Role != "tool"
}

// add counts one string of Google's local count.
func (c *geminiCounter) add(s string) int {
	g := geminiStrings{tok: c.tok}
	g.add(s)
	c.local += g.n
	return g.n
}

// walk counts the strings of a JSON text (or of a plain text) as the local
// tokenizer walks a function's args or response.
func (c *geminiCounter) walk(s string) int {
	g := geminiStrings{tok: c.tok}
	g.text(s)
	c.local += g.n
	return g.n
}

// message counts a message's strings: its text parts, its images, its tool
// calls' names and arguments, a tool message's function name and response.
func (c *geminiCounter) message(m *ChatMessage, callNames map[string]string) int {
	n := 0
	if m.Content.Parts == nil {
		if m.Role == "tool" {
			n += c.response(m, callNames)
		} else {
			n += c.add(m.Content.Text)
		}
	}
	for i := range m.Content.Parts {
		p := &m.Content.Parts[i]
		switch p.Type {
		case "text":
			n += c.add(p.Text)
		case "image_url":
			t := c.image(p.ImageURL)
			c.images += t
			n += t
		}
	}
	if m.Role == "tool" && m.Content.Parts != nil {
		n += c.response(&ChatMessage{Role: "tool", Name: m.Name, ToolCallID: m.ToolCallID}, callNames)
	}
	for i := range m.ToolCalls {
		call := &m.ToolCalls[i]
		callNames[call.ID] = call.Function.Name
		n += c.add(call.Function.Name) + c.walk(call.Function.Arguments)
	}
	return n
}

// response counts a tool message as a functionResponse: its function's
// name, then the response — as sent in Gemini's shape, else the AI SDK's
// {name, content} around the result.
func (c *geminiCounter) response(m *ChatMessage, callNames map[string]string) int {
	name := m.Name
	if name == "" {
		name = callNames[m.ToolCallID]
	}
	if name == "" {
		c.inexact("a tool message answers no earlier tool call (by tool_call_id) and has no name: its function name is not counted")
	}
	n := c.add(name)
	if m.from == nil || m.from.shape != ShapeGemini {
		n += c.add("name") + c.add(name) + c.add("content")
	}
	return n + c.walk(m.Content.Text)
}

// image is an image part's tokens: the family's per-image cost, and for
// the bound on Gemini 2.x the documented 768-pixel tiling of a larger
// image (an image of unknown size: of the largest, 3,072 pixels square).
func (c *geminiCounter) image(img *ImageURL) int {
	g := c.g
	c.inexact(format.Sprintf("image tokens: %d per image as Google documents it; larger images may be tiled", g.Image))
	if !g.Bound.ImageTiles {
		return g.Image
	}
	w, h := img.Width, img.Height
	if w <= 0 || h <= 0 {
		w, h = dataURLSize(img.URL)
	}
	tiles := 16
	if w > 0 && h > 0 {
		tiles = 1
		if w > 384 || h > 384 {
			tiles = ((min(w, 3072) + 767) / 768) * ((min(h, 3072) + 767) / 768)
		}
	}
	c.slack += float64(g.Image * (tiles - 1))
	return g.Image
}

// signatures prices the thought signatures of a message's function calls.
func (c *geminiCounter) signatures(s geminiSignatures) int {
	g := c.g
	c.inexact("thought signatures: billed as the thoughts they carry, fitted to billed counts")
	n := float64(s.count*g.Signature) + g.SignatureRatio*float64(s.chars)
	bound := float64(s.count*g.Bound.Signature) + g.Bound.SignatureRatio*float64(s.chars)
	c.slack += max(0, bound-n)
	return int(math.Round(n))
}

// declarations counts the function declarations: each one's name,
// description and parameters' strings, its framing, and a JSON Schema's
// text where the family bills it.
func (c *geminiCounter) declarations(tools []ChatTool, x *geminiExtras) int {
	g, n := c.g, 0
	for i := range tools {
		f := &tools[i].Function
		n += c.add(f.Name) + c.add(f.Description) + g.Declaration
		c.slack += float64(g.Bound.Declaration - g.Declaration)
		s := geminiStrings{tok: c.tok}
		s.schema(f.Parameters)
		n += s.n
		if !x.jsonSchema[i] {
			c.local += s.n // Google's local count reads parameters, not parametersJsonSchema
			continue
		}
		if g.JSONSchema && len(f.Parameters) > 0 {
			t := c.tok.Count(string(f.Parameters))
			n += t
			c.slack += float64(t) * (g.Bound.JSONSchemaRatio - 1)
		}
	}
	return n
}

// responseSchema counts generationConfig's response schema: a
// responseSchema's strings, as Google's local count collects them (the
// bound adds its JSON text); a responseJsonSchema bills nothing in every
// billed count (the bound adds its strings).
func (c *geminiCounter) responseSchema(x *geminiExtras) int {
	if len(x.responseSchema) == 0 {
		return 0
	}
	s := geminiStrings{tok: c.tok}
	s.schema(x.responseSchema)
	c.inexact("the response schema: fitted to billed counts (a responseJsonSchema bills nothing; a responseSchema its strings)")
	if x.responseJSON {
		c.slack += float64(s.n)
		return 0
	}
	c.local += s.n
	c.slack += float64(c.tok.Count(string(x.responseSchema)))
	return s.n
}

// geminiExtras are what a Gemini request carries beyond its OpenAI
// translation.
type geminiExtras struct {
	// signatures are the thought signatures of each translated message's
	// function calls, by message index.
	signatures map[int]geminiSignatures
	// jsonSchema marks the tools, by index, given as JSON Schema
	// (parametersJsonSchema).
	jsonSchema map[int]bool
	// responseSchema is generationConfig's responseSchema, or its
	// responseJsonSchema when responseJSON.
	responseSchema RawJSON
	responseJSON   bool
}

// geminiSignatures are a message's thought signatures: how many, and their
// base64 characters.
type geminiSignatures struct{ count, chars int }
