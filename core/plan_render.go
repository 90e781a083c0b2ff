package core

import (
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/format"
)

// Rendering: the text of a plan, item by item and section by section, built
// so that its count is the sum of its segments' counts (see planFit).

// truncatedSummaryTokens is how many tokens of an item's first content line
// stand in for a summary it does not have.
const truncatedSummaryTokens = 20

// ellipsis ends a content line cut short to stand in for a summary.
const ellipsis = "…"

// section is where an item goes in the text.
type section uint8

const (
	secConstraints section = iota
	secDirectives
	secProcedures
	numSections
)

var sectionHeaders = [numSections]string{"## Constraints\n", "## Directives\n", "## Procedures\n"}

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
			note = format.Sprintf("it has no summary, so the first line of its content is shown, cut to %d tokens", truncatedSummaryTokens)
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
