package core

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/engine"
)

// Token budgets from the seed (tiered-injection). Which one applies, and
// whether a flag, the environment or a config file overrides it, is the
// host's business; core only plans within the budget it is given.
const (
	// DefaultTokenBudget is the budget of an ordinary injection.
	DefaultTokenBudget = 2000
	// DynamicContextTokenBudget is the budget of a hook-triggered
	// (dynamic-context) injection.
	DynamicContextTokenBudget = 500
)

// truncatedSummaryTokens is how many tokens of an item's first content line
// stand in for a summary it does not have.
const truncatedSummaryTokens = 20

// ellipsis ends a content line cut short to stand in for a summary.
const ellipsis = "…"

// Tier is how much of an item a plan injects. Tiers are ordered: a larger
// Tier injects less. In JSON a Tier is "full", "summary", "nameOnly" or
// "omitted".
type Tier uint8

const (
	TierFull     Tier = iota // the whole content
	TierSummary              // the summary, or the content's first line cut short
	TierNameOnly             // `name` [kind] #tag1 #tag2
	TierOmitted              // nothing
)

var tierNames = [...]string{"full", "summary", "nameOnly", "omitted"}

func (t Tier) String() string {
	if int(t) < len(tierNames) {
		return tierNames[t]
	}
	return "Tier(" + strconv.Itoa(int(t)) + ")"
}

// MarshalText encodes a tier by its name.
func (t Tier) MarshalText() ([]byte, error) {
	if int(t) >= len(tierNames) {
		return nil, errNoTier(t)
	}
	return []byte(tierNames[t]), nil
}

// UnmarshalText decodes a tier's name.
func (t *Tier) UnmarshalText(b []byte) error {
	if i := slices.Index(tierNames[:], string(b)); i >= 0 {
		*t = Tier(i)
		return nil
	}
	return fmt.Errorf("%w: unknown tier %q (known: %s)", ErrInvalidRequest, engine.Clip(string(b)), strings.Join(tierNames[:], ", "))
}

// Thresholds map an activation to a tier: at least Full is TierFull, at
// least Summary TierSummary, at least NameOnly TierNameOnly, below it
// TierOmitted. Each is in [0, 1] and Full ≥ Summary ≥ NameOnly.
type Thresholds struct {
	Full     float64 `json:"full"`
	Summary  float64 `json:"summary"`
	NameOnly float64 `json:"nameOnly"`
}

// DefaultThresholds returns the seed's thresholds: 0.7, 0.3 and 0.1.
func DefaultThresholds() Thresholds { return Thresholds{Full: 0.7, Summary: 0.3, NameOnly: 0.1} }

// UnmarshalJSON decodes thresholds whose absent fields keep their defaults,
// so {"full": 0.8} moves only the full threshold.
func (t *Thresholds) UnmarshalJSON(b []byte) error {
	return decodeWith(b, t)
}

func (t Thresholds) validate() error {
	for _, f := range []struct {
		name string
		v    float64
	}{{"thresholds.full", t.Full}, {"thresholds.summary", t.Summary}, {"thresholds.nameOnly", t.NameOnly}} {
		if !(f.v >= 0 && f.v <= 1) { // also false for NaN
			return fieldErr(f.name, "must be a number in [0, 1], got %v", f.v)
		}
	}
	if t.Summary > t.Full {
		return fieldErr("thresholds.summary", "must not exceed thresholds.full (%v), got %v", t.Full, t.Summary)
	}
	if t.NameOnly > t.Summary {
		return fieldErr("thresholds.nameOnly", "must not exceed thresholds.summary (%v), got %v", t.Summary, t.NameOnly)
	}
	return nil
}

// tier returns the tier of an activation.
func (t Thresholds) tier(a float64) Tier {
	switch {
	case a >= t.Full:
		return TierFull
	case a >= t.Summary:
		return TierSummary
	case a >= t.NameOnly:
		return TierNameOnly
	}
	return TierOmitted
}

func (t Thresholds) of(tier Tier) float64 {
	switch tier {
	case TierFull:
		return t.Full
	case TierSummary:
		return t.Summary
	}
	return t.NameOnly
}

// PlanRequest asks which items to inject, and how much of each, within a
// budget.
type PlanRequest struct {
	// Budget is the most tokens the text may hold; 0 means no limit.
	Budget int `json:"budget"`
	// Items are the candidates, each with its activation.
	Items []PlanItem `json:"items"`
	// Thresholds default to DefaultThresholds when nil.
	Thresholds *Thresholds `json:"thresholds,omitempty"`
	// Session, when given, paces injections over a session (see Session).
	Session *Session `json:"session,omitempty"`
}

// PlanItem is one candidate for injection: a behavior, a rule, a memory.
type PlanItem struct {
	// ID is unique within the request and not empty.
	ID string `json:"id"`
	// Name shows in the name-only form; the ID stands in when it is empty.
	Name string `json:"name"`
	// Kind "constraint" (never below the summary tier, never demoted) goes
	// under Constraints, "procedure" under Procedures, any other kind under
	// Directives; the match ignores case. An empty kind shows as
	// "directive".
	Kind string `json:"kind"`
	// Tags show in the name-only form as #tag.
	Tags []string `json:"tags"`
	// Activation in [0, 1] decides the tier.
	Activation float64 `json:"activation"`
	// Content is injected whole at the full tier.
	Content string `json:"content"`
	// Summary, optional, is injected at the summary tier; without it the
	// content's first line, cut short, is.
	Summary string `json:"summary"`
}

// Plan is what to inject: each item's tier and why, and the compiled text.
type Plan struct {
	// Items are the request's items in their order.
	Items []PlannedItem `json:"items"`
	// TotalTokens is the Count of Text.
	TotalTokens int `json:"totalTokens"`
	// Budget is the budget the plan was made for: the request's, lowered by
	// the session's cap when there is a session; 0 means no limit (or, with
	// a session, that it allowed no injection at this prompt).
	Budget int `json:"budget"`
	// Text is the compiled prompt text: sections "## Constraints",
	// "## Directives" and "## Procedures", each listing its full, summary
	// and name-only items as "- …" lines; every line ends with "\n" and none
	// is blank. Empty when nothing is injected.
	Text string `json:"text"`
	// Demotions are the steps taken to fit the budget, in order.
	Demotions []Demotion `json:"demotions"`
	// OverBudget reports that the text does not fit the budget even with
	// every item that may be demoted omitted: the constraints alone exceed
	// it.
	OverBudget bool `json:"overBudget"`
	// Session is the session's report when the request had one.
	Session *SessionReport `json:"session,omitempty"`
	// Exact is false when the tokenizer is an estimate; the plan then fits
	// the budget by the estimate's upper bound.
	Exact bool `json:"exact"`
	// Encoding names the tokenizer.
	Encoding string `json:"encoding"`
}

// PlannedItem is one item's place in a plan.
type PlannedItem struct {
	ID   string `json:"id"`
	Tier Tier   `json:"tier"`
	// Reason says why the item got its tier, as a sentence.
	Reason string `json:"reason"`
	// Tokens is the Count of the item's line(s) in Text, trailing newline
	// included; 0 when omitted. For the OpenAI encodings these counts and
	// the section headers' add up to TotalTokens.
	Tokens int `json:"tokens"`
}

// Demotion is one step of fitting a plan to its budget.
type Demotion struct {
	ID   string `json:"id"`
	From Tier   `json:"from"`
	To   Tier   `json:"to"`
}

// section is where an item goes in the text.
type section uint8

const (
	secConstraints section = iota
	secDirectives
	secProcedures
	numSections
)

var sectionHeaders = [numSections]string{"## Constraints\n", "## Directives\n", "## Procedures\n"}

// planEntry is an item being planned.
type planEntry struct {
	idx        int
	item       *PlanItem
	sec        section
	constraint bool
	raw        Tier // the tier by activation alone
	initial    Tier // after the constraint floor
	tier       Tier // now

	// The item's segment at each tier from initial down to TierOmitted
	// (constraints: initial only), its count, and how it was rendered.
	seg    [TierOmitted + 1]string
	tokens [TierOmitted + 1]int
	note   [TierOmitted + 1]string
}

// PlanInjection decides each item's tier and compiles the text (see Plan).
//
// Tiers follow activation (Thresholds); constraints never go below the
// summary tier. While the text does not fit the budget (by tok.Upper of its
// count), the non-constraint item with the lowest activation (ties: the
// earlier in the request) is demoted one tier — full → summary → name only
// → omitted — and the text counted again; constraints are never demoted.
// With a Session the call counts one prompt; when backoff or an exhausted
// session budget refuses the injection, the plan is empty and says why.
//
// BPE counts do not add up in general, but the text is built so that they
// do here: every line group (a header or an item) starts with '#' or '-' and
// ends with a non-space character before its "\n", and the pre-tokenizers of
// all four OpenAI encodings always split right after such a "\n" (see the
// comment in planFit). So with an *Encoding each item's count at each tier
// is taken once, a demotion costs O(1), and the final text is counted once
// to confirm the sum. Cost: O(n + k log k) for n bytes of items and k items.
// Other tokenizers (estimates) promise no such thing, so the text is counted
// again after every demotion: O(n + d·(n + k)) for d demotions.
func PlanInjection(tok Tokenizer, req PlanRequest) (Plan, error) {
	if tok == nil {
		return Plan{}, fmt.Errorf("%w: no tokenizer", ErrInvalidRequest)
	}
	if err := validatePlanRequest(&req); err != nil {
		return Plan{}, err
	}
	th := DefaultThresholds()
	if req.Thresholds != nil {
		th = *req.Thresholds
	}
	plan := Plan{
		Items:     make([]PlannedItem, len(req.Items)),
		Demotions: []Demotion{},
		Budget:    req.Budget,
		Exact:     tok.Exact(),
		Encoding:  tok.Name(),
	}

	var sess Session
	var decision SessionDecision
	if req.Session != nil {
		sess = *req.Session
		decision = sess.Admit()
		if !decision.Allowed {
			for i, it := range req.Items {
				plan.Items[i] = PlannedItem{ID: it.ID, Tier: TierOmitted, Reason: "no injection at this prompt: " + decision.Reason}
			}
			plan.Budget = 0
			r := sess.report(decision, false, decision.Reason)
			plan.Session = &r
			return plan, nil
		}
		if plan.Budget == 0 || decision.Budget < plan.Budget {
			plan.Budget = decision.Budget
		}
	}

	planItems(tok, &plan, req.Items, th)

	if req.Session != nil {
		used := 0
		if plan.TotalTokens > 0 {
			used = tok.Upper(plan.TotalTokens)
		}
		sess.Record(used)
		reason := decision.Reason
		if used == 0 {
			reason += "; nothing to inject, so nothing recorded"
		} else {
			reason += fmt.Sprintf("; recorded %d tokens", used)
			if plan.OverBudget {
				reason += " (over the budget: the constraints alone exceed it)"
			}
		}
		r := sess.report(decision, used > 0, reason)
		plan.Session = &r
	}
	return plan, nil
}

// planItems plans items within plan.Budget, filling in the rest of plan. It
// reports whether it recounted the text after every demotion (see planFit).
func planItems(tok Tokenizer, plan *Plan, items []PlanItem, th Thresholds) (recounted bool) {
	entries := newPlanEntries(tok, items, th)
	recounted = planFit(tok, plan, entries)
	for _, e := range entries {
		plan.Items[e.idx] = PlannedItem{
			ID:     e.item.ID,
			Tier:   e.tier,
			Reason: e.reason(th, plan.Budget, plan.OverBudget),
			Tokens: e.tokens[e.tier],
		}
	}
	return recounted
}

func validatePlanRequest(req *PlanRequest) error {
	if req.Budget < 0 {
		return fieldErr("budget", "must not be negative, got %d", req.Budget)
	}
	if req.Thresholds != nil {
		if err := req.Thresholds.validate(); err != nil {
			return err
		}
	}
	seen := make(map[string]int, len(req.Items))
	for i := range req.Items {
		it := &req.Items[i]
		if it.ID == "" {
			return fieldErr(fmt.Sprintf("items[%d].id", i), "must not be empty")
		}
		if j, dup := seen[it.ID]; dup {
			return fieldErr(fmt.Sprintf("items[%d].id", i), "%q is also the id of items[%d]; ids must be unique", engine.Clip(it.ID), j)
		}
		seen[it.ID] = i
		if a := it.Activation; !(a >= 0 && a <= 1) { // also false for NaN
			return fieldErr(fmt.Sprintf("items[%d].activation", i), "must be a number in [0, 1], got %v", a)
		}
	}
	if req.Session != nil {
		return req.Session.Validate()
	}
	return nil
}

// newPlanEntries tiers the items and renders and counts each at every tier
// it can reach. Cost: O(n) for n bytes of items.
func newPlanEntries(tok Tokenizer, items []PlanItem, th Thresholds) []*planEntry {
	entries := make([]*planEntry, len(items))
	for i := range items {
		it := &items[i]
		e := &planEntry{idx: i, item: it}
		switch kind := strings.TrimSpace(it.Kind); {
		case strings.EqualFold(kind, "constraint"):
			e.sec, e.constraint = secConstraints, true
		case strings.EqualFold(kind, "procedure"):
			e.sec = secProcedures
		default:
			e.sec = secDirectives
		}
		e.raw = th.tier(it.Activation)
		e.initial = e.raw
		if e.constraint && e.initial > TierSummary {
			e.initial = TierSummary
		}
		e.tier = e.initial
		last := TierNameOnly
		if e.constraint {
			last = e.initial
		}
		for t := e.initial; t <= last; t++ {
			e.seg[t], e.note[t] = renderItem(tok, it, t)
			e.tokens[t] = tok.Count(e.seg[t])
		}
		entries[i] = e
	}
	return entries
}

// planFit demotes items until the text fits plan.Budget and fills in the
// plan's text, total, demotions and overBudget. It reports whether it
// recounted the text after every demotion (any tokenizer but an *Encoding).
//
// Why the counts add up. The text is a sequence of segments s₁ s₂ … each
// followed by "\n", where every segment starts with '#' or '-' and ends with
// a character that is not white space (\s, the White_Space property). Take
// the "\n" between sᵢ and sᵢ₊₁, and X = '#' or '-' after it. No alternative
// of the r50k/p50k, cl100k or o200k patterns matches across it:
//   - the letter, number and contraction alternatives match no "\n", and
//     their optional prefixes exclude "\r\n";
//   - ` ?[^\s\p{L}\p{N}]+` (r50k/p50k) stops before "\n"; its cl100k and
//     o200k forms may go on with `[\r\n]*` or `[\r\n/]*`, which take the
//     "\n" but not X (hence no '/' at a segment's start);
//   - `\s*[\r\n]+`, `\s+(?!\S)` and `\s+` match white space only, and the
//     only white space around the "\n" is the "\n" itself, since sᵢ ends and
//     sᵢ₊₁ starts with other characters: they match the "\n" alone.
//
// So a piece always ends right after the "\n", and no match tried from
// inside "sᵢ\n" reaches X. The patterns have no look-behind, and their one
// look-ahead only changes which alternative takes that lone "\n" (r50k/p50k:
// `\s+(?!\S)` at the end of "sᵢ\n" alone, `\s+` before X), not the piece.
// Hence the pieces of the text are those of each "sᵢ\n" counted alone, and
// Count(text) = Σ Count(sᵢ "\n"). TestPlanner_SpaceClass checks that our
// trimming's white space is the pre-tokenizers' \s; TestPlanner_SegmentsAdd
// and FuzzPlan check the sum.
func planFit(tok Tokenizer, plan *Plan, entries []*planEntry) (recounted bool) {
	budget := plan.Budget
	// The demotion order: non-constraints by activation ascending, ties by
	// request order. It does not depend on the counts, only where it stops
	// does.
	order := make([]*planEntry, 0, len(entries))
	for _, e := range entries {
		if !e.constraint && e.initial < TierOmitted {
			order = append(order, e)
		}
	}
	slices.SortStableFunc(order, func(a, b *planEntry) int {
		if a.item.Activation != b.item.Activation {
			if a.item.Activation < b.item.Activation {
				return -1
			}
			return 1
		}
		return a.idx - b.idx
	})
	// The text's order: by activation descending, ties by request order.
	ranked := slices.Clone(entries)
	slices.SortStableFunc(ranked, func(a, b *planEntry) int {
		if a.item.Activation != b.item.Activation {
			if a.item.Activation > b.item.Activation {
				return -1
			}
			return 1
		}
		return a.idx - b.idx
	})

	fits := func(n int) bool { return budget == 0 || tok.Upper(n) <= budget }

	// Fast, for the OpenAI encodings: keep the sum of the segments' counts.
	if _, additive := tok.(*Encoding); additive {
		var live [numSections]int
		sum := 0
		for _, e := range entries {
			if e.tier < TierOmitted {
				sum += e.tokens[e.tier]
				if live[e.sec] == 0 {
					sum += tok.Count(sectionHeaders[e.sec])
				}
				live[e.sec]++
			}
		}
		for next := 0; !fits(sum) && next < len(order); {
			e := order[next]
			from := e.tier
			e.tier++
			sum += e.tokens[e.tier] - e.tokens[from]
			if e.tier == TierOmitted {
				if live[e.sec]--; live[e.sec] == 0 {
					sum -= tok.Count(sectionHeaders[e.sec])
				}
				next++
			}
			plan.Demotions = append(plan.Demotions, Demotion{ID: e.item.ID, From: from, To: e.tier})
		}
		plan.Text = assemble(ranked)
		plan.TotalTokens = tok.Count(plan.Text)
		if plan.TotalTokens == sum {
			plan.OverBudget = !fits(plan.TotalTokens)
			return false
		}
		// Unreachable by the argument above; should it ever be reached,
		// the plain way below still gives the right plan.
		for _, e := range entries {
			e.tier = e.initial
		}
		plan.Demotions = plan.Demotions[:0]
	}

	// Plain, for tokenizers whose counts need not add (estimates): count the
	// whole text after every demotion.
	plan.Text = assemble(ranked)
	plan.TotalTokens = tok.Count(plan.Text)
	for next := 0; !fits(plan.TotalTokens) && next < len(order); {
		e := order[next]
		from := e.tier
		e.tier++
		if e.tier == TierOmitted {
			next++
		}
		plan.Demotions = append(plan.Demotions, Demotion{ID: e.item.ID, From: from, To: e.tier})
		plan.Text = assemble(ranked)
		plan.TotalTokens = tok.Count(plan.Text)
	}
	plan.OverBudget = !fits(plan.TotalTokens)
	return true
}

// assemble compiles the text from the entries' current tiers: sections in
// order, and in each its full, then summary, then name-only items, in the
// order of ranked. Cost: O(k + n).
func assemble(ranked []*planEntry) string {
	var buckets [numSections][TierOmitted][]*planEntry
	size := 0
	for _, e := range ranked {
		if e.tier < TierOmitted {
			buckets[e.sec][e.tier] = append(buckets[e.sec][e.tier], e)
			size += len(e.seg[e.tier])
		}
	}
	var b strings.Builder
	b.Grow(size + 64)
	for s := range numSections {
		header := false
		for t := range TierOmitted {
			for _, e := range buckets[s][t] {
				if !header {
					b.WriteString(sectionHeaders[s])
					header = true
				}
				b.WriteString(e.seg[t])
			}
		}
	}
	return b.String()
}

// renderItem returns an item's segment at tier t (before TierOmitted),
// newline included, and a note on how it was rendered for the reason ("" for
// the plain case).
func renderItem(tok Tokenizer, it *PlanItem, t Tier) (seg, note string) {
	switch t {
	case TierFull:
		if s := renderLines(it.Content); s != "" {
			return s, ""
		}
		if s := renderLines(it.Summary); s != "" {
			return s, "it has no content, so its summary is shown"
		}
		return renderNameOnly(it), "it has no content or summary, so its name is shown"
	case TierSummary:
		if s := renderLines(it.Summary); s != "" {
			return s, ""
		}
		first := firstLine(it.Content)
		if first == "" {
			return renderNameOnly(it), "it has no summary or content, so its name is shown"
		}
		cut, _ := tok.Truncate(first, truncatedSummaryTokens, KeepStart)
		switch {
		case cut != first:
			note = fmt.Sprintf("it has no summary, so the first line of its content is shown, cut to %d tokens", truncatedSummaryTokens)
		case first != strings.TrimFunc(it.Content, unicode.IsSpace):
			note = "it has no summary, so the first line of its content is shown"
		default:
			return "- " + first + "\n", "it has no summary, and its content is one short line, shown whole"
		}
		return "- " + trimRightSpace(cut) + ellipsis + "\n", note
	}
	return renderNameOnly(it), ""
}

// renderNameOnly returns "- `name` [kind] #tag1 #tag2\n". Name, kind and
// tags are put on one line (white space runs become one space); a tag's own
// leading '#' is not doubled and empty tags are left out.
func renderNameOnly(it *PlanItem) string {
	name := oneLine(it.Name)
	if name == "" {
		name = oneLine(it.ID)
	}
	kind := oneLine(it.Kind)
	if kind == "" {
		kind = "directive"
	}
	var b strings.Builder
	b.WriteString("- `")
	b.WriteString(name)
	b.WriteString("` [")
	b.WriteString(kind)
	b.WriteString("]")
	for _, tag := range it.Tags {
		if tag = oneLine(strings.TrimLeft(oneLine(tag), "#")); tag != "" {
			b.WriteString(" #")
			b.WriteString(tag)
		}
	}
	b.WriteString("\n")
	return b.String()
}

// renderLines returns text as a list item: "- " and its first non-blank line,
// then each further non-blank line indented by two spaces, every line
// without trailing white space and ending with "\n"; "" when text is blank.
// Blank lines are left out, so the text never holds one.
func renderLines(text string) string {
	var b strings.Builder
	for line := range splitLines(text) {
		line = trimRightSpace(line)
		if b.Len() == 0 {
			line = strings.TrimLeftFunc(line, unicode.IsSpace)
		}
		if line == "" {
			continue
		}
		if b.Len() == 0 {
			b.Grow(len(text) + 8)
			b.WriteString("- ")
		} else {
			b.WriteString("  ")
		}
		b.WriteString(line)
		b.WriteByte('\n')
	}
	return b.String()
}

// firstLine returns the first non-blank line of text, trimmed.
func firstLine(text string) string {
	for line := range splitLines(text) {
		if line = strings.TrimFunc(line, unicode.IsSpace); line != "" {
			return line
		}
	}
	return ""
}

// splitLines yields the lines of text, split at every line break Python's
// str.splitlines knows (\n, \r\n, \r, \v, \f, \x1c–\x1e, U+0085, U+2028,
// U+2029), so that no reader finds a blank line where we wrote none.
func splitLines(text string) func(func(string) bool) {
	return func(yield func(string) bool) {
		start := 0
		for i := 0; i < len(text); {
			r, n := utf8.DecodeRuneInString(text[i:])
			switch r {
			case '\r':
				if i+1 < len(text) && text[i+1] == '\n' {
					n = 2
				}
				fallthrough
			case '\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\u0085', '\u2028', '\u2029':
				if !yield(text[start:i]) {
					return
				}
				start = i + n
			}
			i += n
		}
		yield(text[start:])
	}
}

// oneLine puts text on one line: runs of white space and line breaks become
// one space, and the ends are trimmed.
func oneLine(text string) string {
	if !strings.ContainsFunc(text, isSpaceOrBreak) {
		return text
	}
	return strings.Join(strings.FieldsFunc(text, isSpaceOrBreak), " ")
}

func isSpaceOrBreak(r rune) bool {
	return unicode.IsSpace(r) || r == '\x1c' || r == '\x1d' || r == '\x1e'
}

func trimRightSpace(s string) string { return strings.TrimRightFunc(s, unicode.IsSpace) }

// reason says why e got its tier, as a sentence.
func (e *planEntry) reason(th Thresholds, budget int, overBudget bool) string {
	a := formatActivation(e.item.Activation)
	var r string
	switch {
	case e.constraint && e.initial != e.raw:
		r = fmt.Sprintf("constraint: kept at summary (floor), though activation %s < %s", a, formatActivation(th.Summary))
	case e.raw == TierOmitted:
		r = fmt.Sprintf("activation %s < %s", a, formatActivation(th.NameOnly))
	default:
		r = fmt.Sprintf("activation %s ≥ %s", a, formatActivation(th.of(e.raw)))
	}
	if e.tier != e.initial {
		r += fmt.Sprintf("; demoted from %s to %s to fit the budget of %d", e.initial, e.tier, budget)
	}
	if e.tier < TierOmitted && e.note[e.tier] != "" {
		r += "; " + e.note[e.tier]
	}
	if e.constraint && overBudget {
		r += fmt.Sprintf("; over the budget of %d, but constraints are never demoted", budget)
	}
	return r
}

// formatActivation writes a number with at least two decimals and as many
// more as it needs: 0.7 → "0.70", 0.695 → "0.695".
func formatActivation(a float64) string {
	if math.IsNaN(a) || math.IsInf(a, 0) {
		return strconv.FormatFloat(a, 'g', -1, 64)
	}
	s := strconv.FormatFloat(a, 'f', -1, 64)
	dot := strings.IndexByte(s, '.')
	if dot < 0 {
		return s + ".00"
	}
	if len(s)-dot-1 < 2 {
		s += "0"
	}
	return s
}
