package core

import (
	_ "embed"
	"fmt"
	"maps"
	"math"
	"slices"
	"strings"
	"sync"
)

// Model holds what tokenfit knows of a model: its window, its output limit
// and how to count its tokens, exactly (Encoding) or by estimate (Estimator).
type Model struct {
	ID       string   `json:"id"`
	Provider string   `json:"provider,omitempty"`
	Aliases  []string `json:"aliases,omitempty"`
	// ContextWindow is the number of tokens input and output share.
	ContextWindow int `json:"contextWindow"`
	// MaxOutput is the most tokens one response may hold (0: not documented).
	MaxOutput int `json:"maxOutput,omitempty"`
	// MaxInput is a documented input limit below the window (0: none).
	MaxInput int `json:"maxInput,omitempty"`
	// Reasoning models spend hidden reasoning tokens out of the output.
	Reasoning bool   `json:"reasoning,omitempty"`
	Encoding  string `json:"encoding,omitempty"`
	Estimator string `json:"estimator,omitempty"`
}

// Estimator describes how to estimate a tokenizer that is not public: count
// with Base, scale by Ratio, and trust the result to within ErrorBound (a
// fraction: 0.2 means the provider's count may be up to 20% higher).
type Estimator struct {
	Base       string  `json:"base"`
	Ratio      float64 `json:"ratio"`
	ErrorBound float64 `json:"errorBound"`
	Note       string  `json:"note,omitempty"`
}

// Registry is a set of models and estimators. It is immutable: With returns
// a new registry, so one can be shared by goroutines without locks.
type Registry struct {
	models     []Model
	index      map[string]int // lower-case id or alias → models index
	estimators map[string]Estimator
}

// Fallbacks for a model the registry does not know (seed: budget calculator).
const (
	FallbackEncoding      = "cl100k_base"
	FallbackContextWindow = 8192
)

// ReasoningReserve is the output OpenAI advises reserving for reasoning
// models ("at least 25,000 tokens for reasoning and outputs").
const ReasoningReserve = 25000

//go:embed models.json
var modelsJSON []byte

var defaultRegistry = sync.OnceValue(func() *Registry {
	r, err := (&Registry{}).With(modelsJSON)
	if err != nil {
		panic("core: embedded models.json: " + err.Error())
	}
	return r
})

// DefaultRegistry returns the registry built into tokenfit (core/models.json).
func DefaultRegistry() *Registry { return defaultRegistry() }

// registryFile is the JSON shape of models.json and of user overrides.
type registryFile struct {
	Estimators map[string]Estimator `json:"estimators"`
	Models     []Model              `json:"models"`
}

// With returns a registry with the models and estimators of data (the shape
// of core/models.json) added; a model whose id is already known replaces the
// old one, aliases included. Cost: O(models).
func (r *Registry) With(data []byte) (*Registry, error) {
	var f registryFile
	if err := decodeJSON(data, &f); err != nil {
		return nil, err
	}
	return r.with(f)
}

func (r *Registry) with(f registryFile) (*Registry, error) {
	n := &Registry{estimators: map[string]Estimator{}}
	for k, v := range r.estimators {
		n.estimators[k] = v
	}
	for _, name := range slices.Sorted(maps.Keys(f.Estimators)) { // the same error every time
		e := f.Estimators[name]
		field := "estimators." + name
		switch {
		case name == "":
			return nil, fieldErr("estimators", "empty estimator name")
		case !slices.Contains(EncodingNames(), e.Base):
			return nil, fieldErr(field+".base", "unknown encoding %q", e.Base)
		case !(e.Ratio > 0 && e.Ratio < 100):
			return nil, fieldErr(field+".ratio", "must be a number in (0, 100)")
		case !(e.ErrorBound >= 0 && e.ErrorBound < 10):
			return nil, fieldErr(field+".errorBound", "must be a number in [0, 10)")
		}
		n.estimators[name] = e
	}
	replaced := map[string]bool{}
	for i, m := range f.Models {
		if err := n.check(m, fmt.Sprintf("models[%d]", i)); err != nil {
			return nil, err
		}
		replaced[strings.ToLower(m.ID)] = true
	}
	for _, m := range r.models {
		if !replaced[strings.ToLower(m.ID)] {
			n.models = append(n.models, m)
		}
	}
	n.models = append(n.models, f.Models...)
	n.index = make(map[string]int, 2*len(n.models))
	for i, m := range n.models {
		for _, name := range append([]string{m.ID}, m.Aliases...) {
			n.index[strings.ToLower(name)] = i
		}
	}
	return n, nil
}

func (r *Registry) check(m Model, field string) error {
	switch {
	case m.ID == "":
		return fieldErr(field+".id", "required")
	case m.ContextWindow <= 0 || m.ContextWindow > 1<<34:
		return fieldErr(field+".contextWindow", "must be a positive number of tokens")
	case m.MaxOutput < 0 || m.MaxOutput > m.ContextWindow:
		return fieldErr(field+".maxOutput", "must be between 0 and the context window")
	case m.MaxInput < 0 || m.MaxInput > m.ContextWindow:
		return fieldErr(field+".maxInput", "must be between 0 and the context window")
	case (m.Encoding == "") == (m.Estimator == ""):
		return fieldErr(field, "needs exactly one of encoding and estimator")
	case m.Encoding != "" && !slices.Contains(EncodingNames(), m.Encoding):
		return fieldErr(field+".encoding", "unknown encoding %q", m.Encoding)
	}
	if m.Estimator != "" {
		if _, ok := r.estimator(m.Estimator); !ok {
			return fieldErr(field+".estimator", "unknown estimator %q", m.Estimator)
		}
	}
	return nil
}

// Models returns every model, in registry order.
func (r *Registry) Models() []Model { return slices.Clone(r.models) }

// Lookup finds a model by id or alias, ignoring case; failing that, by the
// longest known id that the name extends with "-…" (a dated snapshot such as
// gpt-4o-2024-08-06), and after dropping a provider prefix such as
// "openai/" or "models/". Cost: O(len(name)) map look-ups.
func (r *Registry) Lookup(name string) (Model, bool) {
	key := strings.ToLower(strings.TrimSpace(name))
	if i := strings.LastIndexByte(key, '/'); i >= 0 {
		key = key[i+1:]
	}
	if i, ok := r.index[key]; ok {
		return r.models[i], true
	}
	for k := len(key) - 1; k > 0; k-- {
		if key[k] == '-' {
			if i, ok := r.index[key[:k]]; ok {
				return r.models[i], true
			}
		}
	}
	return Model{}, false
}

func (r *Registry) estimator(name string) (Estimator, bool) {
	if e, ok := r.estimators[name]; ok {
		return e, true
	}
	return Estimator{}, false
}

// Resolution is a model resolved for counting.
type Resolution struct {
	Model     Model
	Tokenizer Tokenizer
	// Fallback is true when the registry did not know the model: the
	// answer then used cl100k_base and an 8,192-token window.
	Fallback bool
}

// Resolve returns the model and the tokenizer to count it with. An unknown
// model is not an error: it resolves to cl100k_base and an 8,192-token
// window, with Fallback set.
func (r *Registry) Resolve(name string) (Resolution, error) {
	m, ok := r.Lookup(name)
	if !ok {
		m = Model{ID: name, ContextWindow: FallbackContextWindow, Encoding: FallbackEncoding}
	}
	tok, err := r.tokenizer(m)
	if err != nil {
		return Resolution{}, err
	}
	return Resolution{Model: m, Tokenizer: tok, Fallback: !ok}, nil
}

func (r *Registry) tokenizer(m Model) (Tokenizer, error) {
	if m.Encoding != "" {
		return GetEncoding(m.Encoding)
	}
	e, ok := r.estimator(m.Estimator)
	if !ok {
		return nil, fmt.Errorf("%w: model %s: unknown estimator %q", ErrInvalidRequest, m.ID, m.Estimator)
	}
	base, err := GetEncoding(e.Base)
	if err != nil {
		return nil, err
	}
	return &estimate{name: "estimate:" + m.Estimator, base: base, ratio: e.Ratio, bound: e.ErrorBound}, nil
}

// ResponseReserve is the output a budget keeps free for this model when the
// caller names none: 15% of the window clamped to [500, 4,096] (seed: budget
// calculator), and for reasoning models at least ReasoningReserve (never
// more than MaxOutput).
func (m Model) ResponseReserve() int {
	return ReservePolicy{}.withDefaults().reserve(m)
}

// EffectiveInputBudget is what input may use: the window less the response
// reserve and the safety buffer (5%), and never more than MaxInput.
func (m Model) EffectiveInputBudget() int {
	p := ReservePolicy{}.withDefaults()
	b := m.ContextWindow - p.reserve(m) - p.safety(m.ContextWindow)
	if m.MaxInput > 0 {
		b = min(b, m.MaxInput)
	}
	return max(0, b)
}

// ReservePolicy sizes the response reserve and safety buffer of a budget as
// fractions of the window. Zero fields take the seed defaults: Ratio 0.15,
// Min 500, Max 4,096, SafetyRatio 0.05.
type ReservePolicy struct {
	Ratio       float64 `json:"ratio,omitempty"`
	Min         int     `json:"min,omitempty"`
	Max         int     `json:"max,omitempty"`
	SafetyRatio float64 `json:"safetyRatio,omitempty"`
}

func (p ReservePolicy) withDefaults() ReservePolicy {
	if p.Ratio == 0 {
		p.Ratio = 0.15
	}
	if p.Min == 0 {
		p.Min = 500
	}
	if p.Max == 0 {
		p.Max = 4096
	}
	if p.SafetyRatio == 0 {
		p.SafetyRatio = 0.05
	}
	return p
}

// reserve is int(window × ratio) clamped to [Min, Max]; for reasoning models
// at least ReasoningReserve, capped by the model's output limit.
func (p ReservePolicy) reserve(m Model) int {
	r := max(p.Min, min(p.Max, int(float64(m.ContextWindow)*p.Ratio)))
	if m.Reasoning {
		rr := ReasoningReserve
		if m.MaxOutput > 0 {
			rr = min(rr, m.MaxOutput)
		}
		r = max(r, rr)
	}
	return min(r, m.ContextWindow)
}

func (p ReservePolicy) safety(window int) int {
	return int(float64(window) * p.SafetyRatio)
}

// estimate counts a model whose tokenizer is not public.
type estimate struct {
	name  string
	base  *Encoding
	ratio float64
	bound float64
}

func (e *estimate) Name() string { return e.name }
func (e *estimate) Exact() bool  { return false }

func (e *estimate) Count(text string) int {
	return int(math.Ceil(float64(e.base.Count(text)) * e.ratio))
}

func (e *estimate) Upper(count int) int {
	return int(math.Ceil(float64(count) * (1 + e.bound)))
}

func (e *estimate) Truncate(text string, maxTokens int, keep Side) (string, int) {
	part, _ := e.base.Truncate(text, int(float64(maxTokens)/e.ratio), keep)
	return part, e.Count(part)
}
