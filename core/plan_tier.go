package core

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/format"

	"github.com/tokenfit/tokenfit/core/engine"
)

// Tiering: an item's tier by activation, and the demotions that fit a plan
// to its budget (PlanInjection in plan.go; the text in plan_render.go).

// Tier is how much of an item a plan injects. Tiers are ordered: a larger
// Tier injects less. In JSON a Tier is "full", "summary", "nameOnly" or
// "omitted".
//
//genjson:ts 'full' | 'summary' | 'nameOnly' | 'omitted'
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
	return format.Errorf("%w: unknown tier %q (known: %s)", ErrInvalidRequest, engine.Clip(string(b)), strings.Join(tierNames[:], ", "))
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
func (t *Thresholds) UnmarshalJSON(b []byte) error { return decodeWith(b, t) }

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
// plan's text, total, demotions and overBudget. With an *Encoding it keeps
// the sum of the segments' counts; with any other tokenizer, or should the
// sum ever differ from the count of the text, it counts the text again
// after every demotion.
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
func planFit(tok Tokenizer, plan *Plan, entries []*planEntry) {
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
			return
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
}

// reason says why e got its tier, as a sentence.
func (e *planEntry) reason(th Thresholds, budget int, overBudget bool) string {
	a := formatActivation(e.item.Activation)
	var r string
	switch {
	case e.constraint && e.initial != e.raw:
		r = format.Sprintf("constraint: kept at summary (floor), though activation %s < %s", a, formatActivation(th.Summary))
	case e.raw == TierOmitted:
		r = format.Sprintf("activation %s < %s", a, formatActivation(th.NameOnly))
	default:
		r = format.Sprintf("activation %s ≥ %s", a, formatActivation(th.of(e.raw)))
	}
	if e.tier != e.initial {
		r += format.Sprintf("; demoted from %s to %s to fit the budget of %d", e.initial, e.tier, budget)
	}
	if e.tier < TierOmitted && e.note[e.tier] != "" {
		r += "; " + e.note[e.tier]
	}
	if e.constraint && overBudget {
		r += format.Sprintf("; over the budget of %d, but constraints are never demoted", budget)
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
