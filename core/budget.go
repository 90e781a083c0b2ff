package core

import (
	"bytes"
	"maps"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// One budget calculator for both seed formulas.
//
// memory-budget-formula: historyBudget = window − system − procedure −
// knowledge − episodes − current − outputReserve; with window 150,000 and
// 1,200 + 300 + 1,500 + 400 + 100 + 8,192 that is 138,308.
//
// budget-calculator-milestone: responseReserve = 15% of the window clamped to
// [500, 4,096], safetyBuffer = 5%, the directive counted in full, and
// memoryTokens = max(0, window − messages − directive − reserve − safety),
// constrained below 1,000.
//
// Both are: inputBudget = window − responseReserve − safetyBuffer;
// historyBudget = inputBudget − the fixed sections; memoryTokens = what the
// request leaves of inputBudget. A fixed outputReserve has no safety buffer
// unless the request asks for one, as in the first seed.

// Seed defaults (memory-budget-formula's MemoryConfig).
const (
	DefaultWindow             = 100000
	DefaultMinHistoryTokens   = 4000
	DefaultMaxKnowledgeTokens = 3000
	DefaultMaxEpisodeTokens   = 1000
	// ConstrainedBelow: a budget with fewer memory tokens is constrained.
	ConstrainedBelow = 1000
	// Alert levels (proactive-budget-proposal).
	DefaultWarning  = 0.70
	DefaultCritical = 0.90
	// DefaultLowWater is where pruning takes the history down to, as a
	// fraction of its budget.
	DefaultLowWater = 0.75
	// DefaultSummarizeTarget is the utilization a summarization proposal
	// aims for; DefaultKeepRecent messages are never proposed.
	DefaultSummarizeTarget = 0.50
	DefaultKeepRecent      = 4
)

// Section is a part of the prompt given as text, as a list of texts (such
// as retrieved chunks, counted one by one), or as a count the caller already
// has: JSON "text", ["a", "b"] or {"tokens": 1200}.
//
//genjson:ts string | string[] | { tokens: number } | null
type Section struct {
	Texts  []string
	Tokens *int
	isList bool
}

// parseSection reads a string, an array of strings, or {"tokens": N}.
// The text is valid JSON (decodeJSON checked it). A list's null element
// is an empty text, and the count may be a number or a string holding one,
// as encoding/json decoded them. O(len(b)).
func parseSection(field string, b []byte) (Section, error) {
	bad := fieldErr(field, `expected a string, a list of strings or {"tokens": N}`)
	b = bytes.TrimSpace(b)
	if len(b) == 0 || string(b) == "null" {
		return Section{}, nil
	}
	switch b[0] {
	case '"':
		t, err := jsonio.Unquote(b)
		if err != nil {
			return Section{}, bad
		}
		return Section{Texts: []string{t}}, nil
	case '[':
		ts := []string{}
		err := jsonio.Array(b, func(val []byte) error {
			t := ""
			if !jsonio.IsNull(val) {
				var err error
				if t, err = jsonio.Unquote(val); err != nil {
					return err
				}
			}
			ts = append(ts, t)
			return nil
		})
		if err != nil {
			return Section{}, bad
		}
		return Section{Texts: ts, isList: true}, nil
	case '{':
		var tokens *string
		err := jsonio.Object(b, func(key string, val []byte) error {
			if !strings.EqualFold(key, "tokens") {
				return nil
			}
			switch val[0] {
			case 'n':
				tokens = nil
				return nil
			case '"':
				s, err := jsonio.Unquote(val)
				if err != nil || !isNumber(s) {
					return jsonio.ErrSyntax
				}
				tokens = &s
				return nil
			}
			if s := string(val); isNumber(s) {
				tokens = &s
				return nil
			}
			return jsonio.ErrSyntax
		})
		if err != nil || tokens == nil {
			return Section{}, bad
		}
		n, err := strconv.ParseInt(*tokens, 10, 64)
		if err != nil || n < 0 || n > math.MaxInt32 {
			return Section{}, fieldErr(field+".tokens", "must be a whole number from 0 to %d", math.MaxInt32)
		}
		v := int(n)
		return Section{Tokens: &v}, nil
	}
	return Section{}, bad
}

// MarshalJSON writes the section back in the shape it came in.
func (s Section) MarshalJSON() ([]byte, error) { return marshalOwn(s) }

// Sections are the parts of a prompt that are never pruned.
type Sections struct {
	System    Section `json:"system,omitempty"`
	Procedure Section `json:"procedure,omitempty"` // when a procedure matched
	Knowledge Section `json:"knowledge,omitempty"` // capped by maxKnowledgeTokens
	Episodes  Section `json:"episodes,omitempty"`  // capped by maxEpisodeTokens
	Current   Section `json:"current,omitempty"`
}

// sectionNames lists the sections in prompt order.
var sectionNames = []string{"system", "procedure", "knowledge", "episodes", "current"}

func (s *Sections) byName() []*Section {
	return []*Section{&s.System, &s.Procedure, &s.Knowledge, &s.Episodes, &s.Current}
}

// isNumber reports whether s is one JSON number and nothing else.
func isNumber(s string) bool {
	return s != "" && (s[0] == '-' || '0' <= s[0] && s[0] <= '9') && '0' <= s[len(s)-1] && s[len(s)-1] <= '9' &&
		jsonio.Check([]byte(s)) == nil
}

// UnmarshalJSON reads each section, naming the one at fault in an error.
// O(len(b)).
func (s *Sections) UnmarshalJSON(b []byte) error {
	if jsonio.Check(b) != nil {
		return fieldErr("sections", "expected an object")
	}
	var raw map[string][]byte
	b = bytes.TrimSpace(b)
	switch b[0] {
	case 'n':
	case '{':
		raw = map[string][]byte{}
		if jsonio.Object(b, func(key string, val []byte) error { raw[key] = val; return nil }) != nil {
			return fieldErr("sections", "expected an object")
		}
	default:
		return fieldErr("sections", "expected an object")
	}
	// In sorted order, so that the same request always names the same
	// unknown section (a map's order is random).
	for _, name := range slices.Sorted(maps.Keys(raw)) {
		if !slices.Contains(sectionNames, name) {
			return fieldErr("sections."+name, "unknown section (known: %s)", strings.Join(sectionNames, ", "))
		}
	}
	for i, name := range sectionNames {
		sec, err := parseSection("sections."+name, raw[name])
		if err != nil {
			return err
		}
		*s.byName()[i] = sec
	}
	return nil
}

// Limits caps sections and floors history. Zero fields take the defaults.
type Limits struct {
	MinHistoryTokens   *int `json:"minHistoryTokens,omitempty"`
	MaxKnowledgeTokens *int `json:"maxKnowledgeTokens,omitempty"`
	MaxEpisodeTokens   *int `json:"maxEpisodeTokens,omitempty"`
}

// Alerts are utilization levels, as fractions of the input budget.
type Alerts struct {
	Warning  float64 `json:"warning,omitempty"`
	Critical float64 `json:"critical,omitempty"`
}

// BudgetRequest asks how a context window divides between the prompt's parts.
type BudgetRequest struct {
	Model    string `json:"model,omitempty"`
	Encoding string `json:"encoding,omitempty"` // count with this, not the model's tokenizer
	// ContextWindow overrides the registry's window (seed:
	// MaxWorkingMemoryTokens). Without a model or a window: 100,000.
	ContextWindow *int `json:"contextWindow,omitempty"`
	// OutputReserve is a fixed response reserve. Without it the reserve
	// follows Reserve (default: 15% of the window in [500, 4,096], plus a 5%
	// safety buffer).
	OutputReserve *int           `json:"outputReserve,omitempty"`
	Reserve       *ReservePolicy `json:"reserve,omitempty"`
	Sections      Sections       `json:"sections,omitempty"`
	// Directive is counted in full, never truncated (seed: budget calculator).
	Directive string `json:"directive,omitempty"`
	// History is the conversation so far, as chat messages in any shape
	// (OpenAI, Anthropic or AI SDK messages, or Gemini contents); only it
	// is ever pruned.
	History History `json:"history,omitempty"`
	// Tools are the request's tool definitions, in any shape (an AI SDK
	// tool set is an object keyed by name), a fixed cost.
	Tools  Tools  `json:"tools,omitempty"`
	Limits Limits `json:"limits,omitempty"`
	// KeepFrom is the keepFrom of the previous turn's answer: messages
	// before it were dropped then and stay dropped.
	KeepFrom int     `json:"keepFrom,omitempty"`
	LowWater float64 `json:"lowWater,omitempty"`
	Alerts   Alerts  `json:"alerts,omitempty"`
	// Calibration, when it has pairs for the model, counts with the
	// calibrated estimate and its bound (see Calibrate).
	Calibration *Calibration `json:"calibration,omitempty"`
	// SummarizeTarget and KeepRecent shape the summarization proposal.
	SummarizeTarget float64 `json:"summarizeTarget,omitempty"`
	KeepRecent      *int    `json:"keepRecent,omitempty"`
	// CachedTokens is how many of the request's tokens the provider will
	// read from its prompt cache, priced at the cached input price (Cost).
	CachedTokens int `json:"cachedTokens,omitempty"`
}

// SectionBudget is one section's share.
type SectionBudget struct {
	Tokens int `json:"tokens"`
	// When a cap truncated the section: its tokens before, and the kept
	// text (or, for a list, how many items were kept, the last one cut).
	Truncated      bool `json:"truncated,omitempty"`
	OriginalTokens int  `json:"originalTokens,omitempty"`
	// Text is the kept text, when a cap truncated the section.
	Text string `json:"text,omitempty"`
	// KeptItems is, for a list, how many items were kept (the last one cut).
	KeptItems *int `json:"keptItems,omitempty"`
}

// HistoryBudget says which history messages stay.
type HistoryBudget struct {
	// Shape is the shape the history was read in (see History); the
	// indices below are its messages'.
	Shape Shape `json:"shape"`
	// Tokens of the history as given (from the request's keepFrom), with
	// per-message overhead and reply priming.
	Tokens     int   `json:"tokens"`
	PerMessage []int `json:"perMessage"`
	// KeptTokens after pruning.
	KeptTokens int `json:"keptTokens"`
	// Kept and Dropped are message indices.
	Kept    []int `json:"kept"`
	Dropped []int `json:"dropped"`
	// KeepFrom goes into the next turn's request.
	KeepFrom int `json:"keepFrom"`
	// Summarize proposes the oldest kept turns to summarize, and the tokens
	// replacing them would free, once utilization reaches the warning level.
	Summarize       []int `json:"summarize"`
	SummarizeTokens int   `json:"summarizeTokens"`
}

// Budget is calculateBudget's answer.
type Budget struct {
	Model    string `json:"model,omitempty"`
	Encoding string `json:"encoding"`
	Exact    bool   `json:"exact"`
	Resolved

	ContextWindow   int `json:"contextWindow"`
	ResponseReserve int `json:"responseReserve"`
	SafetyBuffer    int `json:"safetyBuffer"`
	// InputBudget = contextWindow − responseReserve − safetyBuffer.
	InputBudget int `json:"inputBudget"`

	//genjson:ts Partial<Record<'system' | 'procedure' | 'knowledge' | 'episodes' | 'current', SectionBudget>>
	Sections  map[string]SectionBudget `json:"sections"`
	Directive int                      `json:"directiveTokens"`
	// ToolTokens is what the tool definitions cost.
	ToolTokens int `json:"toolTokens"`
	// FixedTokens: every section and the directive, never pruned.
	FixedTokens int `json:"fixedTokens"`
	// HistoryBudget = inputBudget − fixedTokens (seed: 138,308).
	HistoryBudget int           `json:"historyBudget"`
	History       HistoryBudget `json:"history"`

	// UsedTokens: the request as given.
	UsedTokens int `json:"usedTokens"`
	// MemoryTokens is what the request leaves of the input budget (seed:
	// memory_tokens), never below 0.
	MemoryTokens  int  `json:"memoryTokens"`
	IsConstrained bool `json:"isConstrained"`
	// Utilization = usedTokens / inputBudget, and its alert level: "none",
	// "warning" (≥ 70%) or "critical" (≥ 90%).
	Utilization float64 `json:"utilization"`
	//genjson:ts 'none' | 'warning' | 'critical'
	Alert string `json:"alert"`
	// After pruning: the request with only the kept history.
	UsedAfterPruning int     `json:"usedAfterPruning"`
	UtilizationAfter float64 `json:"utilizationAfterPruning"`
	// OverflowTokens is how far the request after pruning exceeds the input
	// budget: 0 when it fits.
	OverflowTokens int `json:"overflowTokens"`
	// FixedOverflowTokens is how far the fixed parts alone exceed the input
	// budget (−historyBudget when that is negative): no pruning or
	// summarizing of history can make such a request fit.
	FixedOverflowTokens int `json:"fixedOverflowTokens,omitempty"`
	// OverflowSections are those fixed parts, largest first.
	OverflowSections []SectionShare `json:"overflowSections,omitempty"`
	// MinHistoryExcess is how many tokens more than the history budget the
	// kept history holds because limits.minHistoryTokens kept it.
	MinHistoryExcess int `json:"minHistoryExcess,omitempty"`
	// Remedies say what would make a request that overflows fit, in the
	// order an app should try them; empty when it fits.
	Remedies []Remedy `json:"remedies"`
	// Kind is the model's kind when it takes no chat (Model.Kind).
	//genjson:ts Model['kind']
	Kind string `json:"kind,omitempty"`
	// Cost is the request's price when its model has one: the request after
	// pruning as input (CachedTokens of it at the cached price), and the
	// response reserve at the output price.
	Cost *Cost `json:"cost,omitempty"`
}

// CalculateBudget divides a context window between the reserves, the fixed
// sections, the history and what is left for memory, pruning history and
// proposing summaries as needed. Models with an estimated tokenizer are
// counted at the estimate's upper bound. Cost: O(n) in the request's text.
func CalculateBudget(reg *Registry, req BudgetRequest) (Budget, error) {
	var b Budget
	tok, res, err := resolveCounting(reg, req.Model, req.Encoding)
	if err != nil {
		return b, err
	}
	if tok, err = withCalibration(tok, res.Model.ID, req.Calibration); err != nil {
		return b, err
	}
	b.Model, b.Encoding, b.Exact, b.Resolved = res.Model.ID, tok.Name(), tok.Exact(), res.resolved()

	// The window and the reserves.
	m := res.Model
	b.Kind = m.Kind
	switch {
	case m.ContextWindow == 0 && req.ContextWindow == nil:
		return b, fieldErr("model", "%s is %s model: it takes no chat, and has no context window to budget (give contextWindow to budget it anyway)", m.ID, kindPhrase(m.Kind))
	case req.ContextWindow != nil:
		if *req.ContextWindow <= 0 || *req.ContextWindow > 1<<34 {
			return b, fieldErr("contextWindow", "must be a positive number of tokens")
		}
		m.ContextWindow = *req.ContextWindow
	}
	b.ContextWindow = m.ContextWindow
	policy := ReservePolicy{}
	if req.Reserve != nil {
		policy = *req.Reserve
		if err := policy.check(); err != nil {
			return b, err
		}
	}
	policy = policy.withDefaults()
	if req.OutputReserve != nil {
		if *req.OutputReserve < 0 || *req.OutputReserve >= m.ContextWindow {
			return b, fieldErr("outputReserve", "must be from 0 to less than the context window (%d)", m.ContextWindow)
		}
	}
	b.InputBudget, b.ResponseReserve, b.SafetyBuffer = inputBudget(req, policy, m)

	// The fixed sections, capped where the seed caps them.
	lim, err := req.Limits.withDefaults()
	if err != nil {
		return b, err
	}
	caps := map[string]int{"knowledge": lim.maxKnowledge, "episodes": lim.maxEpisodes}
	b.Sections = map[string]SectionBudget{}
	for i, sec := range req.Sections.byName() {
		name := sectionNames[i]
		capTokens, capped := caps[name]
		if !capped {
			capTokens = -1
		}
		sb := budgetSection(tok, *sec, capTokens)
		b.Sections[name] = sb
		b.FixedTokens += sb.Tokens
	}
	if req.Directive != "" {
		b.Directive = tok.Upper(tok.Count(req.Directive))
		b.FixedTokens += b.Directive
	}

	// The history: count it, prune it, propose what to summarize.
	if req.KeepFrom < 0 || req.KeepFrom > req.History.Len() {
		return b, fieldErr("keepFrom", "must be from 0 to the number of history messages (%d)", req.History.Len())
	}
	rules := m.ChatRules()
	setCall(&rules, tok, reg.stop)
	items, priming, tools, err := chat.HistoryItems(tok, rules, req.History, req.Tools)
	if err != nil {
		return b, err
	}
	b.ToolTokens = tools
	b.FixedTokens += tools
	b.HistoryBudget = b.InputBudget - b.FixedTokens
	h := &b.History
	h.Shape = req.History.Shape()
	h.PerMessage = make([]int, len(items))
	for i, it := range items {
		h.PerMessage[i] = it.Tokens
	}
	lowWater := req.LowWater
	if lowWater == 0 {
		lowWater = DefaultLowWater
	}
	if !(lowWater > 0 && lowWater <= 1) {
		return b, fieldErr("lowWater", "must be a fraction in (0, 1]")
	}
	pinned := 0
	for _, it := range items {
		if it.Pinned {
			pinned += it.Tokens
		}
	}
	// The history budget less the pinned messages and the reply priming is
	// what unpinned messages may use.
	room := b.HistoryBudget - pinned - priming
	given := prune(items, req.KeepFrom, math.MaxInt, 0, 0)
	pr := prune(items, req.KeepFrom, room, int(float64(room)*lowWater), lim.minHistory)
	h.Tokens = sumTokens(items, given.kept) + priming*boolInt(len(given.kept) > 0)
	h.KeptTokens = sumTokens(items, pr.kept) + priming*boolInt(len(pr.kept) > 0)
	h.Kept, h.Dropped, h.KeepFrom = nonNil(pr.kept), nonNil(pr.dropped), pr.keepFrom

	// Utilization of the request as given, and after pruning.
	b.UsedTokens = b.FixedTokens + h.Tokens
	b.MemoryTokens = max(0, b.InputBudget-b.UsedTokens)
	b.IsConstrained = b.MemoryTokens < ConstrainedBelow
	b.Utilization = ratio(b.UsedTokens, b.InputBudget)
	alerts, err := req.Alerts.withDefaults()
	if err != nil {
		return b, err
	}
	b.Alert = alerts.level(b.Utilization)
	b.UsedAfterPruning = b.FixedTokens + h.KeptTokens
	b.UtilizationAfter = ratio(b.UsedAfterPruning, b.InputBudget)
	b.OverflowTokens = max(0, b.UsedAfterPruning-b.InputBudget)

	keepRecent := DefaultKeepRecent
	if req.KeepRecent != nil {
		if *req.KeepRecent < 0 {
			return b, fieldErr("keepRecent", "must not be negative")
		}
		keepRecent = *req.KeepRecent
	}
	// Past the warning level, propose the oldest kept turns to summarize.
	if b.UtilizationAfter >= alerts.Warning {
		target := req.SummarizeTarget
		if target == 0 {
			target = DefaultSummarizeTarget
		}
		if !(target > 0 && target < 1) {
			return b, fieldErr("summarizeTarget", "must be a fraction in (0, 1)")
		}
		want := b.UsedAfterPruning - int(target*float64(b.InputBudget))
		h.Summarize, h.SummarizeTokens = proposeSummary(items, pr.keepFrom, want, keepRecent)
		// Summarizing is no cure when even every turn it may take would
		// leave the request over the input budget.
		if _, most := proposeSummary(items, pr.keepFrom, math.MaxInt, keepRecent); b.OverflowTokens > most {
			h.Summarize, h.SummarizeTokens = nil, 0
		}
	}
	h.Summarize = nonNil(h.Summarize)
	if req.CachedTokens < 0 {
		return b, fieldErr("cachedTokens", "must be 0 or more")
	}
	if req.Encoding == "" {
		b.Cost = requestCost(m, b.UsedAfterPruning, req.CachedTokens, b.ResponseReserve)
	}
	explain(reg, &b, req, budgetState{items: items, pruned: pr, room: room, lowWater: lowWater, keepRecent: keepRecent, policy: policy, model: m, res: res})
	return b, nil
}

// inputBudget is the window less the response reserve and the safety
// buffer, and those two: a fixed outputReserve has no safety buffer unless
// the request's policy asks for one.
func inputBudget(req BudgetRequest, policy ReservePolicy, m Model) (budget, reserve, safety int) {
	if req.OutputReserve != nil {
		reserve = *req.OutputReserve
		if req.Reserve != nil && req.Reserve.SafetyRatio > 0 {
			safety = policy.safety(m.ContextWindow)
		}
	} else {
		reserve, safety = policy.reserve(m), policy.safety(m.ContextWindow)
	}
	return max(0, m.ContextWindow-reserve-safety), reserve, safety
}

// budgetSection counts a section, truncating it to capTokens when capTokens
// is not negative. Estimated tokenizers count at their upper bound.
func budgetSection(tok Tokenizer, s Section, capTokens int) SectionBudget {
	if s.Tokens != nil {
		if capTokens >= 0 && *s.Tokens > capTokens {
			return SectionBudget{Tokens: capTokens, Truncated: true, OriginalTokens: *s.Tokens}
		}
		return SectionBudget{Tokens: *s.Tokens}
	}
	var sb SectionBudget
	counts := make([]int, len(s.Texts))
	for i, t := range s.Texts {
		counts[i] = tok.Upper(tok.Count(t))
		sb.Tokens += counts[i]
	}
	if capTokens < 0 || sb.Tokens <= capTokens {
		return sb
	}
	// Keep whole items while they fit, then the start of the next one.
	out := SectionBudget{Truncated: true, OriginalTokens: sb.Tokens}
	for i, t := range s.Texts {
		left := capTokens - out.Tokens
		if counts[i] <= left {
			out.Tokens += counts[i]
			continue
		}
		part, _ := tok.Truncate(t, lowerFor(tok, left), KeepStart)
		if n := tok.Upper(tok.Count(part)); part != "" && n <= left {
			out.Tokens += n
			if !s.isList {
				out.Text = part
			}
			i++
		}
		if s.isList {
			out.KeptItems = &i
		}
		break
	}
	return out
}

// lowerFor returns the largest count whose upper bound fits in limit.
func lowerFor(tok Tokenizer, limit int) int {
	n := limit
	for n > 0 && tok.Upper(n) > limit {
		n--
	}
	return n
}

// resolveCounting picks the tokenizer for a request: an explicit encoding
// wins; else the model's (an unknown model falls back); else the default.
func resolveCounting(reg *Registry, model, encoding string) (Tokenizer, Resolution, error) {
	res := Resolution{Model: Model{ContextWindow: DefaultWindow, Encoding: DefaultEncoding}}
	if model != "" {
		var err error
		if res, err = reg.Resolve(model); err != nil {
			return nil, res, err
		}
	}
	if encoding != "" {
		if tok := reg.tokenizers[encoding]; tok != nil {
			return tok, res, nil
		}
		tok, err := TokenizerByName(encoding)
		if err != nil {
			return nil, res, err
		}
		return tok, res, nil
	}
	if res.Tokenizer == nil {
		tok, err := GetEncoding(DefaultEncoding)
		if err != nil {
			return nil, res, err
		}
		res.Tokenizer = tok
	}
	return res.Tokenizer, res, nil
}

type limits struct{ minHistory, maxKnowledge, maxEpisodes int }

func (l Limits) withDefaults() (limits, error) {
	out := limits{DefaultMinHistoryTokens, DefaultMaxKnowledgeTokens, DefaultMaxEpisodeTokens}
	for _, f := range []struct {
		name string
		in   *int
		out  *int
	}{
		{"limits.minHistoryTokens", l.MinHistoryTokens, &out.minHistory},
		{"limits.maxKnowledgeTokens", l.MaxKnowledgeTokens, &out.maxKnowledge},
		{"limits.maxEpisodeTokens", l.MaxEpisodeTokens, &out.maxEpisodes},
	} {
		if f.in != nil {
			if *f.in < 0 {
				return out, fieldErr(f.name, "must not be negative")
			}
			*f.out = *f.in
		}
	}
	return out, nil
}

func (a Alerts) withDefaults() (Alerts, error) {
	if a.Warning == 0 {
		a.Warning = DefaultWarning
	}
	if a.Critical == 0 {
		a.Critical = DefaultCritical
	}
	if !(a.Warning > 0 && a.Warning <= a.Critical && a.Critical <= 10) {
		return a, fieldErr("alerts", "need 0 < warning ≤ critical")
	}
	return a, nil
}

func (a Alerts) level(u float64) string {
	switch {
	case u >= a.Critical:
		return "critical"
	case u >= a.Warning:
		return "warning"
	}
	return "none"
}

func (p ReservePolicy) check() error {
	switch {
	case !(p.Ratio >= 0 && p.Ratio < 1):
		return fieldErr("reserve.ratio", "must be a fraction in [0, 1)")
	case !(p.SafetyRatio >= 0 && p.SafetyRatio < 1):
		return fieldErr("reserve.safetyRatio", "must be a fraction in [0, 1)")
	case p.Min < 0 || p.Max < 0 || (p.Max > 0 && p.Min > p.Max):
		return fieldErr("reserve", "need 0 ≤ min ≤ max")
	}
	return nil
}

func sumTokens(items []histItem, idx []int) int {
	n := 0
	for _, i := range idx {
		n += items[i].Tokens
	}
	return n
}

// ratio is a/b to four places; a budget of 0 counts as 1 so that the
// answer stays a finite JSON number.
func ratio(a, b int) float64 {
	return math.Round(float64(a)/float64(max(b, 1))*1e4) / 1e4
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func nonNil(s []int) []int {
	if s == nil {
		return []int{}
	}
	return s
}
