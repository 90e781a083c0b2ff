package chat

import (
	"slices"
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/format"
	"github.com/tokenfit/tokenfit/core/internal/limit"
)

// Chat templates. An open-weight model's server turns a chat request into
// one prompt with the model's chat template (the chat_template of its
// tokenizer_config.json, a Jinja program) and counts that prompt:
// apply_chat_template(messages, tools=tools, add_generation_prompt=True).
// tokenfit renders the templates of the families it knows in Go, one
// function each, selected by the registry row's chatTemplate
// (RATIONALE.md says why not a Jinja interpreter). Each renders what the
// template file of the model's repository renders, including its quirks.

// ChatTemplates lists the built-in chat templates a registry row's
// chatTemplate may name.
func ChatTemplates() []string {
	names := make([]string, 0, len(chatTemplates))
	for name := range chatTemplates {
		names = append(names, name)
	}
	slices.Sort(names)
	return names
}

// chatTemplates are the renderers by name.
var chatTemplates = map[string]func(*templateRender, *ChatRequest){
	"llama3":       renderLlama3,
	"llama3.1":     renderLlama31,
	"llama3.2":     renderLlama32,
	"qwen3":        renderQwen3,
	"deepseek-v3":  renderDeepSeekV3,
	"gemma3":       renderGemma3,
	"gpt-oss":      renderGptOss,
	"mistral-nemo": renderMistralNemo,
	"mistral-v0.1": renderMistralV01,
}

// Owners of rendered text that is no message's.
const (
	ownTools   = -1 // the tool definitions
	ownPriming = -2 // the generation prompt
)

// templatePart is a piece of the rendered prompt: text, or one of the
// template's marker tokens (special: a single token of the model's
// tokenizer, which the tokenizer splits the prompt at), and the message
// (or ownTools, ownPriming) it belongs to.
type templatePart struct {
	text    string
	special bool
	owner   int
	times   int // a marker token repeated (0: once)
}

// templateRender collects a rendering, within the budget its request sets
// (RenderGrowth, GrowthSlack): size is the rendered text's bytes with a
// marker token as one, and past budget the rendering stops growing and
// err says so.
type templateRender struct {
	parts        []templatePart
	owner        int
	notes        []string
	images       int // the marker tokens of images, in parts
	size, budget int
	err          error
}

// text and special are not inlined: the renderers call them ~90 times, and
// each inlined append costs ~150 bytes of WebAssembly.
//
//go:noinline
func (t *templateRender) text(s string) {
	if s != "" && t.grow(len(s)) {
		t.parts = append(t.parts, templatePart{text: s, owner: t.owner})
	}
}

//go:noinline
func (t *templateRender) special(s string) {
	if t.grow(1) {
		t.parts = append(t.parts, templatePart{text: s, special: true, owner: t.owner})
	}
}

// specials is the marker token s n times in a row, as one part.
func (t *templateRender) specials(s string, n int) {
	if t.grow(1) {
		t.parts = append(t.parts, templatePart{text: s, special: true, owner: t.owner, times: n})
	}
}

// grow adds n bytes to the rendering if the budget has room for them, and
// otherwise records the refusal.
func (t *templateRender) grow(n int) bool {
	if t.err != nil {
		return false
	}
	if t.size+n > t.budget {
		t.err = limit.TooLarge("the chat template's rendering", t.size+n, t.budget)
		return false
	}
	t.size += n
	return true
}

// inexact notes why the rendering may differ from the template's.
func (t *templateRender) inexact(note string) {
	if !slices.Contains(t.notes, note) {
		t.notes = append(t.notes, note)
	}
}

// String is the rendered prompt.
func (t *templateRender) String() string {
	var b strings.Builder
	for _, p := range t.parts {
		b.WriteString(p.text)
		for range p.times - 1 {
			b.WriteString(p.text)
		}
	}
	return b.String()
}

// Rendering is a chat request as a built-in chat template renders it:
// the prompt, what the rendering may not match of the model's server
// (notes) and its images' marker tokens.
type Rendering struct {
	Prompt string
	Notes  []string
	Images int
}

// Render renders req with the named built-in chat template (ChatTemplates)
// as CountChat counts it; core's tests hold it to the templates' own
// rendering. Cost: O(n), within the rendering budget.
func Render(name string, req *ChatRequest) (Rendering, error) {
	t, err := renderTemplate(name, req)
	if err != nil {
		return Rendering{}, err
	}
	return Rendering{Prompt: t.String(), Notes: t.notes, Images: t.images}, nil
}

// renderTemplate renders req through the named template.
func renderTemplate(name string, req *ChatRequest) (*templateRender, error) {
	render, ok := chatTemplates[name]
	if !ok {
		return nil, format.Errorf("%w: unknown chat template %q (want one of %s)", engine.ErrInvalidRequest, engine.Clip(name), strings.Join(ChatTemplates(), ", "))
	}
	t := &templateRender{budget: renderBudget(chatSize(req))}
	render(t, req)
	if t.err != nil {
		return nil, t.err
	}
	return t, nil
}

// countTemplate counts a chat request as its model's server does: the
// length of the prompt the chat template renders. The tokenizer splits the
// prompt at its added tokens and counts the text between them on its own,
// so each stretch of text between two marker tokens is counted once, and
// its tokens go to the part it starts in (to each part its own count, and
// what joining them changes to the first). An estimating tokenizer counts
// each marker as one token and only estimates the text. Cost: O(n).
func countTemplate(tok engine.Tokenizer, req ChatRequest, rules ChatRules) (ChatCount, error) {
	t, err := renderTemplate(rules.Template, &req)
	if err != nil {
		return ChatCount{}, err
	}
	out := ChatCount{PerMessage: make([]int, len(req.Messages)), Rules: rules.Family, Encoding: tok.Name(), Exact: true}
	add := func(owner, n int) {
		switch owner {
		case ownTools:
			out.Tools += n
		case ownPriming:
			out.Priming += n
		default:
			out.PerMessage[owner] += n
			out.Messages += n
		}
	}
	specials := map[string]int{}
	for i := 0; i < len(t.parts); {
		rules.stop.Check()
		p := t.parts[i]
		if p.special {
			n, ok := specials[p.text]
			if !ok {
				// An OpenAI encoding (gpt-oss's o200k_base before its
				// tokenizer is loaded) counts the marker's text as text;
				// the model's tokenizer has it as one token.
				n = 1
				if tok.Exact() && !rules.ordinary {
					n = tok.Count(p.text)
				}
				specials[p.text] = n
			}
			add(p.owner, n*max(1, p.times))
			i++
			continue
		}
		j := i + 1
		for j < len(t.parts) && !t.parts[j].special {
			j++
		}
		if j == i+1 {
			add(p.owner, tok.Count(p.text))
			i = j
			continue
		}
		var b strings.Builder
		parts := 0
		for _, q := range t.parts[i:j] {
			b.WriteString(q.text)
			n := tok.Count(q.text)
			add(q.owner, n)
			parts += n
		}
		add(p.owner, tok.Count(b.String())-parts)
		i = j
	}
	out.Total = out.Messages + out.Tools + out.Priming
	out.UpperBound = tok.Upper(out.Total)
	out.Images = t.images
	if !tok.Exact() {
		out.Exact = false
		out.Notes = append(out.Notes, format.Sprintf("%s is an estimating tokenizer: the template's marker tokens are exact, its text is estimated", tok.Name()))
	}
	if len(t.notes) > 0 {
		out.Exact = false
		out.Notes = append(out.Notes, t.notes...)
	}
	return out, nil
}

// content is a message's content as a string template sees it. Parts
// (which these templates do not take: Jinja would print the list) are
// joined, and the count is flagged.
func (t *templateRender) content(m *ChatMessage) string {
	if m.Content.Parts == nil {
		return m.Content.Text
	}
	t.inexact("content given as parts: the template expects a string; counted as the texts of the parts joined")
	var b strings.Builder
	for _, p := range m.Content.Parts {
		if p.Type == "image_url" {
			t.inexact("images: this model reads text only, and its server refuses a request with images (none counted)")
		}
		b.WriteString(p.Text)
	}
	return b.String()
}

// pyStrip is Python's str.strip() (Jinja's trim filter): it removes
// Python's whitespace, which is not JavaScript's (Python strips U+001C to
// U+001F and U+0085 and keeps U+FEFF).
func pyStrip(s string) string {
	return strings.TrimFunc(s, isPySpace)
}

func isPySpace(r rune) bool {
	switch r {
	case '\t', '\n', '\v', '\f', '\r', 0x1c, 0x1d, 0x1e, 0x1f, ' ', 0x85, 0xa0, 0x1680,
		0x2028, 0x2029, 0x202f, 0x205f, 0x3000:
		return true
	}
	return 0x2000 <= r && r <= 0x200a
}
