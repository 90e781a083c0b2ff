package core

import (
	"strings"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/format"
)

// The counting requests: countTokens, encode, decode, withinLimit, truncate.
// Each names what to count with as an encoding, a model, or neither (then
// o200k_base).

// Target names the tokenizer: Encoding wins over Model; neither means
// o200k_base.
type Target struct {
	// Model is a model id, alias or dated snapshot (README.md, "Model
	// names"); an unknown one counts with its family's encoding or
	// cl100k_base, and answers say fallback.
	Model string `json:"model,omitempty"`
	// Encoding is an encoding, or a heuristic name such as "chars4".
	Encoding string `json:"encoding,omitempty"`
	// Calibration, when it has pairs for the model, scales the model's
	// counts by what the provider reported (see Calibrate).
	Calibration *Calibration `json:"calibration,omitempty"`
}

// Counted describes the tokenizer an answer used.
type Counted struct {
	Encoding string `json:"encoding"`
	Model    string `json:"model,omitempty"`
	// Exact is false for estimates.
	Exact bool `json:"exact"`
	// Resolved says when the model was not known (see Registry.Resolve).
	Resolved
}

func (r *Registry) target(t Target) (Tokenizer, Counted, error) {
	tok, res, err := resolveCounting(r, t.Model, t.Encoding)
	if err != nil {
		return nil, Counted{}, err
	}
	if tok, err = withCalibration(tok, res.Model.ID, t.Calibration); err != nil {
		return nil, Counted{}, err
	}
	c := Counted{Encoding: tok.Name(), Model: res.Model.ID, Exact: tok.Exact()}
	if t.Encoding == "" {
		c.Resolved = res.resolved()
	}
	return tok, c, nil
}

// idTokenizer is an exact tokenizer with token ids: an *Encoding, or an
// *HFTokenizer loaded by name (loadTokenizer).
type idTokenizer interface {
	Tokenizer
	Encode(text string) []int
	AppendEncode(dst []uint32, text string) []uint32
	AppendEnds(dst []int, text string) []int
	Token(id int) (string, bool)
	Decode(ids []int) (string, error)
	WithinLimit(text string, limit int) (int, bool)
	NewLiveCounter(units Units) *LiveCounter
}

var _ idTokenizer = (*Encoding)(nil)

// exactTarget is target for operations that need token ids.
func (r *Registry) exactTarget(t Target) (idTokenizer, Counted, error) {
	tok, c, err := r.target(t)
	if err != nil {
		return nil, c, err
	}
	if e, ok := tok.(idTokenizer); ok {
		return e, c, nil
	}
	if enc, _, _ := boundaries(tok, 0, 0); enc != nil {
		// Ids of an estimate's base encoding would not be the model's.
		return nil, c, fieldErr("model", "%s has no public tokenizer (counts are estimates by %s); name an encoding for ids", engine.Clip(t.Model), enc.Name())
	}
	return nil, c, fieldErr("encoding", "%s is a heuristic: it has no token ids", tok.Name())
}

// CountRequest asks for the number of tokens in Text.
type CountRequest struct {
	Target
	Text string `json:"text"`
	// CachedTokens is how many of the text's tokens the provider will read
	// from its prompt cache, priced at the cached input price (Cost).
	CachedTokens int `json:"cachedTokens,omitempty"`
}

// CountAnswer is countTokens' answer.
type CountAnswer struct {
	Tokens int `json:"tokens"`
	// UpperBound is what the provider's count will not exceed: for an
	// estimate, Tokens grown by its error bound; Tokens when exact.
	UpperBound int `json:"upperBound"`
	Counted
	// Cost is the text's price as input to the model (no output), when the
	// model has a price.
	Cost *Cost `json:"cost,omitempty"`
}

// CountTokens counts text. Cost: O(len(text)).
func (r *Registry) CountTokens(req CountRequest) (CountAnswer, error) {
	tok, c, err := r.target(req.Target)
	if err != nil {
		return CountAnswer{}, err
	}
	n := tok.Count(req.Text)
	a := CountAnswer{Tokens: n, UpperBound: tok.Upper(n), Counted: c}
	if req.Model != "" && req.Encoding == "" {
		if req.CachedTokens < 0 {
			return CountAnswer{}, fieldErr("cachedTokens", "must be 0 or more")
		}
		if m, ok := r.Lookup(req.Model); ok {
			a.Cost = requestCost(m, n, req.CachedTokens, 0)
		}
	}
	return a, nil
}

// EncodeAnswer is encode's answer: the token ids.
type EncodeAnswer struct {
	IDs []int `json:"ids"`
	Counted
}

// Encode returns the token ids of text. Cost: O(len(text)).
func (r *Registry) Encode(req CountRequest) (EncodeAnswer, error) {
	e, c, err := r.exactTarget(req.Target)
	if err != nil {
		return EncodeAnswer{}, err
	}
	return EncodeAnswer{IDs: e.Encode(req.Text), Counted: c}, nil
}

// DecodeRequest asks for the text of token ids.
type DecodeRequest struct {
	Target
	IDs []int `json:"ids"`
}

// UnmarshalJSON refuses a null id: JSON.stringify writes an undefined array
// element as null, which would otherwise decode as token 0.
func (r *DecodeRequest) UnmarshalJSON(b []byte) error {
	return decodeWith(b, r)
}

// DecodeAnswer is decode's answer: the text of the ids.
type DecodeAnswer struct {
	Text string `json:"text"`
	// Valid is false when the ids end (or start) inside a character: Text
	// then holds U+FFFD for those bytes, one per maximal subpart as
	// tiktoken's decode (and TextDecoder) has it.
	Valid bool `json:"valid"`
	Counted
}

// Decode returns the text of token ids. Cost: O(len(ids)).
func (r *Registry) Decode(req DecodeRequest) (DecodeAnswer, error) {
	e, c, err := r.exactTarget(req.Target)
	if err != nil {
		return DecodeAnswer{}, err
	}
	// The text is measured before it is made: DecodeBytesPerID bounds it
	// (an id the tokenizer does not have is Decode's error to report).
	n, budget := 0, DecodeBytesPerID*len(req.IDs)+GrowthSlack
	for _, id := range req.IDs {
		s, _ := e.Token(id)
		n += len(s)
	}
	if n > budget {
		return DecodeAnswer{}, tooLarge("the decoded text", n, budget)
	}
	text, err := e.Decode(req.IDs)
	if err != nil {
		return DecodeAnswer{}, err
	}
	return DecodeAnswer{Text: engine.LossyUTF8(text), Valid: utf8.ValidString(text), Counted: c}, nil
}

// LimitRequest asks whether Text fits in Limit tokens.
type LimitRequest struct {
	Target
	Text  string `json:"text"`
	Limit int    `json:"limit"`
}

// LimitAnswer is withinLimit's answer: whether a text fits a limit.
type LimitAnswer struct {
	Within bool `json:"within"`
	// Tokens is exact when Within; otherwise it is where counting stopped,
	// a number above the limit.
	Tokens int `json:"tokens"`
	Counted
}

// WithinLimit counts until the limit is passed, then stops. Cost:
// proportional to the text read. Estimates compare their upper bound.
func (r *Registry) WithinLimit(req LimitRequest) (LimitAnswer, error) {
	if req.Limit < 0 {
		return LimitAnswer{}, fieldErr("limit", "must not be negative")
	}
	tok, c, err := r.target(req.Target)
	if err != nil {
		return LimitAnswer{}, err
	}
	if e, ok := tok.(idTokenizer); ok {
		n, ok := e.WithinLimit(req.Text, req.Limit)
		return LimitAnswer{Within: ok, Tokens: n, Counted: c}, nil
	}
	n := tok.Count(req.Text)
	return LimitAnswer{Within: tok.Upper(n) <= req.Limit, Tokens: n, Counted: c}, nil
}

// TruncateRequest asks for at most MaxTokens tokens of Text, from its start
// (Keep "start", the default) or its end (Keep "end").
type TruncateRequest struct {
	Target
	Text      string `json:"text"`
	MaxTokens int    `json:"maxTokens"`
	Keep      string `json:"keep,omitempty"`
}

// TruncateAnswer is truncate's answer: the kept text and its count.
type TruncateAnswer struct {
	Text      string `json:"text"`
	Tokens    int    `json:"tokens"`
	Truncated bool   `json:"truncated"`
	Counted
}

// Truncate cuts text to a number of tokens at a token boundary. Cost: O(n).
func (r *Registry) Truncate(req TruncateRequest) (TruncateAnswer, error) {
	if req.MaxTokens < 0 {
		return TruncateAnswer{}, fieldErr("maxTokens", "must not be negative")
	}
	side := KeepStart
	switch req.Keep {
	case "", "start":
	case "end":
		side = KeepEnd
	default:
		return TruncateAnswer{}, fieldErr("keep", `must be "start" or "end"`)
	}
	tok, c, err := r.target(req.Target)
	if err != nil {
		return TruncateAnswer{}, err
	}
	full := ValidUTF8(req.Text)
	text, n := tok.Truncate(full, req.MaxTokens, side)
	return TruncateAnswer{Text: text, Tokens: n, Truncated: len(text) < len(full), Counted: c}, nil
}

// ChatAnswer is a chat request's count, with the model it was counted for.
type ChatAnswer struct {
	ChatCount
	// Shape is the shape the request was read in (see Shape); for any but
	// OpenAI's, PerMessage follows the request's own messages and System
	// is its top-level system prompt's tokens, so Messages = System + the
	// sum of PerMessage.
	Shape  Shape  `json:"shape"`
	System int    `json:"system,omitempty"`
	Model  string `json:"model,omitempty"`
	Resolved
	// Cost is the request's price when its model has one: its tokens as
	// input (the cached part at the cached price) and its output limit
	// (max_tokens and the like, else the model's response reserve) at the
	// output price.
	Cost *Cost `json:"cost,omitempty"`
}

// CountChat counts a chat request with its model's tokenizer and chat rules
// (Model.ChatRules: its chat template, if the row names one); an unknown
// model falls back to cl100k_base. Cost: O(n).
func (r *Registry) CountChat(req ChatRequest, cal *Calibration) (ChatAnswer, error) {
	tok, c, err := r.target(Target{Model: req.Model, Calibration: cal})
	if err != nil {
		return ChatAnswer{}, err
	}
	rules, note := chat.RulesFor(req.Model, req.API), ""
	if req.Model != "" {
		res, err := r.Resolve(req.Model)
		if err != nil {
			return ChatAnswer{}, err
		}
		// The rules stay the requested name's (ChatRulesFor knows snapshots,
		// such as gpt-3.5-turbo-0301, that the registry folds into another
		// row); a row's chat template replaces them.
		if m := res.Model; m.ChatTemplate != "" || m.Provider == "anthropic" {
			rules = m.ChatRules()
			if _, known := chat.AnthropicRulesFor(m.ID); m.Provider == "anthropic" && !known {
				note = format.Sprintf("Anthropic publishes no tool-use prompt size for %s: counted with the newest generation's (%s)", engine.Clip(m.ID), chat.AnthropicNewest())
			}
		} else if m.Tokenizer != "" && rules.Gemini == nil {
			note = format.Sprintf("%s's chat template is not built in (tokenfit renders %s): counted with the generic rules, which the template's own framing may exceed, upperBound included", m.ID, strings.Join(chat.ChatTemplates(), ", "))
		}
	}
	setCall(&rules, tok, r.stop)
	cc, err := chat.CountChat(tok, req, rules)
	if err != nil {
		return ChatAnswer{}, err
	}
	if note != "" {
		cc.Exact = false
		cc.Notes = append(cc.Notes, note)
	}
	if m, ok := r.Lookup(req.Model); ok && m.Kind != "" {
		cc.Notes = append(cc.Notes, format.Sprintf("%s is %s model: it takes no chat", m.ID, kindPhrase(m.Kind)))
	}
	return ChatAnswer{ChatCount: cc, Shape: ShapeOpenAI, Model: c.Model, Resolved: c.Resolved}, nil
}

// PlanCall is a plan request with what to count it with.
type PlanCall struct {
	Target
	PlanRequest
}

// PlanInjection plans with the named tokenizer (default o200k_base).
func (r *Registry) PlanInjection(req PlanCall) (Plan, error) {
	tok, _, err := r.target(req.Target)
	if err != nil {
		return Plan{}, err
	}
	return PlanInjection(tok, req.PlanRequest)
}
