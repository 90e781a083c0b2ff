package core

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// Cost is what a request costs at its model's Price, in US dollars:
// its input (less what is cached), its cached input, and its output (the
// output reserve of a count or budget: what the answer may cost at most;
// the output of a reported usage). Tokens says what each part is of.
type Cost struct {
	//genjson:ts 'USD'
	Currency    string  `json:"currency"` // "USD"
	Input       float64 `json:"input"`
	CachedInput float64 `json:"cachedInput,omitempty"`
	CacheWrite  float64 `json:"cacheWrite,omitempty"`
	// Output is a count's or budget's output reserve (the most the answer
	// may cost), a usage's output tokens.
	Output float64    `json:"output"`
	Total  float64    `json:"total"`
	Tokens CostTokens `json:"tokens"`
	// Price is the price list the cost was worked out from, with its
	// source and date.
	Price Price `json:"price"`
}

// CostTokens are the tokens a Cost prices: Input excludes CachedInput and
// CacheWrite; Output includes Reasoning (reasoning tokens are billed as
// output).
type CostTokens struct {
	Input       int `json:"input"`
	CachedInput int `json:"cachedInput,omitempty"`
	CacheWrite  int `json:"cacheWrite,omitempty"`
	Output      int `json:"output"`
	Reasoning   int `json:"reasoning,omitempty"`
}

// priced returns the cost of t at p, or nil without a price. Cached input
// without a cached price costs the input price. Cost: O(1).
func priced(p *Price, t CostTokens) *Cost {
	if p == nil {
		return nil
	}
	cached := p.CachedInput
	if cached == 0 {
		cached = p.Input
	}
	write := p.CacheWrite
	if write == 0 {
		write = p.Input
	}
	c := &Cost{Currency: "USD", Tokens: t, Price: *p,
		Input:       usd(t.Input, p.Input),
		CachedInput: usd(t.CachedInput, cached),
		CacheWrite:  usd(t.CacheWrite, write),
		Output:      usd(t.Output, p.Output)}
	c.Total = round(c.Input + c.CachedInput + c.CacheWrite + c.Output)
	return c
}

// usd is n tokens at perMillion dollars a million, to a millionth of a cent.
func usd(n int, perMillion float64) float64 { return round(float64(n) * perMillion / 1e6) }

func round(x float64) float64 { return math.Round(x*1e8) / 1e8 }

// requestCost prices a request of input tokens, cached of them read from
// the cache, and a reserve of output tokens.
func requestCost(m Model, input, cached, reserve int) *Cost {
	cached = max(0, min(cached, input))
	return priced(m.Price, CostTokens{Input: input - cached, CachedInput: cached, Output: max(0, reserve)})
}

// UsageRequest asks what a finished (or aborted) request cost: its model
// and the usage object its provider reported, as the provider sent it.
type UsageRequest struct {
	Model string `json:"model"`
	//genjson:ts Record<string, unknown>
	Usage RawJSON `json:"usage"`
}

// usageKeys are the usage fields PriceUsage reads, in every provider's
// shape (a nested field as "parent.field"):
//
//   - OpenAI Chat Completions: prompt_tokens (cached included),
//     completion_tokens (reasoning included), prompt_tokens_details.cached_tokens,
//     completion_tokens_details.reasoning_tokens;
//   - OpenAI Responses: input_tokens, output_tokens, and
//     input_tokens_details.cached_tokens, output_tokens_details.reasoning_tokens;
//   - Anthropic: input_tokens (cache reads and writes not included),
//     output_tokens, cache_read_input_tokens, cache_creation_input_tokens;
//   - Gemini (usageMetadata): promptTokenCount (cached included),
//     candidatesTokenCount, thoughtsTokenCount (billed as output, not in
//     candidates), cachedContentTokenCount, toolUsePromptTokenCount;
//   - the AI SDK: inputTokens, outputTokens (reasoning included),
//     reasoningTokens, cachedInputTokens.
var usageKeys = [...]string{
	"prompt_tokens", "completion_tokens", "prompt_tokens_details.cached_tokens", "completion_tokens_details.reasoning_tokens",
	"input_tokens", "output_tokens", "input_tokens_details.cached_tokens", "output_tokens_details.reasoning_tokens",
	"cache_read_input_tokens", "cache_creation_input_tokens",
	"promptTokenCount", "candidatesTokenCount", "thoughtsTokenCount", "cachedContentTokenCount", "toolUsePromptTokenCount",
	"inputTokens", "outputTokens", "reasoningTokens", "cachedInputTokens",
}

// usageTokens reads a usage object as the tokens to price (see usageKeys;
// other fields are ignored). Cost: O(len(raw)).
func usageTokens(raw []byte) (CostTokens, error) {
	var n [len(usageKeys)]int
	var walk func(prefix string, raw []byte) error
	walk = func(prefix string, raw []byte) error {
		if raw[0] != '{' {
			return fieldErr(strings.TrimSuffix("usage."+prefix, "."), "expected an object, got %s", jsonio.Kind(raw))
		}
		return jsonio.Object(raw, func(key string, val []byte) error {
			if prefix == "" && strings.HasSuffix(key, "_details") && val[0] == '{' {
				return walk(key+".", val)
			}
			i := slices.Index(usageKeys[:], prefix+key)
			if i < 0 || val[0] == 'n' {
				return nil
			}
			x, err := strconv.ParseInt(string(val), 10, 64)
			if err != nil || x < 0 || x > 1<<40 {
				return fieldErr("usage."+prefix+key, "must be a count of tokens, 0 to 2^40")
			}
			n[i] = int(x)
			return nil
		})
	}
	if len(raw) == 0 {
		return CostTokens{}, fieldErr("usage", "required: the usage object the provider reported")
	}
	if err := walk("", raw); err != nil {
		return CostTokens{}, err
	}
	var t CostTokens
	switch {
	case n[0]+n[1] > 0: // OpenAI Chat Completions
		t = CostTokens{Input: n[0] - n[2], CachedInput: n[2], Output: n[1], Reasoning: n[3]}
	case n[4]+n[5]+n[8]+n[9] > 0: // OpenAI Responses, Anthropic
		t = CostTokens{Input: n[4] - n[6], CachedInput: n[6] + n[8], CacheWrite: n[9], Output: n[5], Reasoning: n[7]}
	case n[10]+n[11]+n[12] > 0: // Gemini
		t = CostTokens{Input: n[10] + n[14] - n[13], CachedInput: n[13], Output: n[11] + n[12], Reasoning: n[12]}
	default: // the AI SDK
		t = CostTokens{Input: n[15] - n[18], CachedInput: n[18], Output: n[16], Reasoning: n[17]}
	}
	t.Input = max(0, t.Input)
	return t, nil
}

// UsageAnswer is what a usage cost: the model it was priced for, and the
// cost (absent when the model has no price).
type UsageAnswer struct {
	Model string `json:"model"`
	Cost  *Cost  `json:"cost,omitempty"`
	Resolved
}

// PriceUsage prices a provider's usage report for a model (see usageKeys).
// Cost: O(len(usage)).
func (r *Registry) PriceUsage(req UsageRequest) (UsageAnswer, error) {
	if req.Model == "" {
		return UsageAnswer{}, fieldErr("model", "required: the model the usage is of")
	}
	t, err := usageTokens(req.Usage)
	if err != nil {
		return UsageAnswer{}, err
	}
	res, err := r.Resolve(req.Model)
	if err != nil {
		return UsageAnswer{}, err
	}
	return UsageAnswer{Model: res.Model.ID, Cost: priced(res.Model.Price, t), Resolved: res.resolved()}, nil
}

// chatCost prices a counted chat request (b, as sent): its total as input,
// of which the cached part is the request's cachedTokens, or else the
// prefix up to its last cache breakpoint (Anthropic's cache_control, which
// caches tools, then system, then messages up to the marked one); and its
// output limit (max_tokens, max_completion_tokens, max_output_tokens or
// generationConfig.maxOutputTokens; else the model's ResponseReserve) at the
// output price. Cost: O(len(b)).
func (r *Registry) chatCost(b []byte, a ChatAnswer) (*Cost, error) {
	m, ok := r.Lookup(a.Model)
	if !ok || m.Price == nil {
		return nil, nil
	}
	cached, reserve, last := -1, 0, -1
	var prefix int // tokens before and at the last breakpoint outside messages
	err := jsonio.Object(b, func(key string, val []byte) error {
		switch key {
		case "cachedTokens", "max_tokens", "max_completion_tokens", "max_output_tokens", "generationConfig":
			if key == "generationConfig" {
				if val[0] != '{' {
					return nil
				}
				var n []byte
				jsonio.Object(val, func(k string, v []byte) error {
					if k == "maxOutputTokens" {
						n = v
					}
					return nil
				})
				if n == nil {
					return nil
				}
				key, val = "generationConfig.maxOutputTokens", n
			}
			if val[0] == 'n' { // null: as if absent
				return nil
			}
			x, err := strconv.ParseInt(string(val), 10, 64)
			if err != nil || x < 0 || x > 1<<40 {
				return fieldErr(key, "must be a count of tokens, 0 or more")
			}
			if key == "cachedTokens" {
				cached = int(x)
			} else {
				reserve = max(reserve, int(x))
			}
		case "tools":
			if marked(val) {
				prefix = max(prefix, a.Tools+a.ToolChoice)
			}
		case "system":
			if marked(val) {
				prefix = max(prefix, a.Tools+a.ToolChoice+a.System)
			}
		case "messages":
			i := 0
			jsonio.Array(val, func(m []byte) error {
				if marked(m) {
					last = i
				}
				i++
				return nil
			})
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if cached < 0 {
		cached = prefix
		if last >= 0 && last < len(a.PerMessage) {
			sum := a.Tools + a.ToolChoice + a.System
			for _, t := range a.PerMessage[:last+1] {
				sum += t
			}
			cached = max(cached, sum)
		}
	}
	if reserve == 0 {
		reserve = m.ResponseReserve()
	}
	return requestCost(m, a.Total, cached, reserve), nil
}

// kindPhrase names a kind of model with its article: "an embedding model".
func kindPhrase(kind string) string {
	switch kind {
	case "embedding", "image":
		return "an " + kind
	case "other":
		return "a non-chat"
	}
	return "a " + kind
}

// marked reports whether a JSON value holds a "cache_control" key.
func marked(raw []byte) bool {
	found := false
	switch raw[0] {
	case '{':
		jsonio.Object(raw, func(key string, val []byte) error {
			found = found || key == "cache_control" || marked(val)
			return nil
		})
	case '[':
		jsonio.Array(raw, func(val []byte) error {
			found = found || marked(val)
			return nil
		})
	}
	return found
}
