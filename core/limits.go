package core

import (
	"github.com/tokenfit/tokenfit/core/internal/format"
)

// Budgets. Every operation's work and answer are bounded by its request:
// most are by their nature (a count, a budget, the ids of a text), and the
// few whose answer or rendering can grow faster than their input are held
// to a budget their input sets, and refused with ErrTooLarge (code
// "too_large") before the work that would pass it is done. API.md,
// "Budgets", states them; RATIONALE.md says why these numbers.
const (
	// MaxGrowth and GrowthSlack bound every answer of API.Do: at most
	// MaxGrowth times the request's bytes plus GrowthSlack. chunk holds its
	// chunks to it over its text before it cuts them, and decode its text
	// (DecodeBytesPerID); the bound over every answer is the last check.
	MaxGrowth   = 16
	GrowthSlack = 1 << 20
	// RenderGrowth bounds what a chat template renders, all of which is
	// then counted: at most RenderGrowth times the request's text
	// (chatSize) plus GrowthSlack, a marker token counting one byte. The
	// tools Llama 3.1 and 3.2 print indented are measured before they are
	// printed. Real tool schemas indent to 1.3–2.3 times their size.
	RenderGrowth = 8
	// DecodeBytesPerID bounds decode's text: at most this many bytes an id
	// on average, plus GrowthSlack. The longest token of o200k_base and
	// cl100k_base is 128 bytes; a text of ordinary tokens averages 3–6.
	DecodeBytesPerID = 16
)

// chunkOverhead is the fewest bytes a chunk's JSON adds to its text:
// {"text":"","start":0,"end":1,"tokens":1,"cut":"end"} and a comma.
const chunkOverhead = 50

// chunkJSON is the length of a chunk's JSON in the answer, and a comma.
func chunkJSON(text string, start, end, tokens int, cut string) int {
	return len(`{"text":,"start":,"end":,"tokens":,"cut":""},`) + jsonLen(text) + digits(start) + digits(end) + digits(tokens) + len(cut)
}

// jsonLen is the length of the valid UTF-8 s as the answers' JSON writes
// it (jsonio's Writer.String: quoted, short escapes, \u00XX for the other
// control characters, \u2028 and \u2029). O(len(s)).
func jsonLen(s string) int {
	n := len(s) + 2
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '"' || c == '\\' || c == '\b' || c == '\f' || c == '\n' || c == '\r' || c == '\t':
			n++
		case c < 0x20:
			n += 5
		case c == 0xe2 && i+2 < len(s) && s[i+1] == 0x80 && (s[i+2] == 0xa8 || s[i+2] == 0xa9):
			n += 3
		}
	}
	return n
}

// digits is the length of the decimal n ≥ 0.
func digits(n int) int {
	d := 1
	for ; n >= 10; n /= 10 {
		d++
	}
	return d
}

// renderBudget is the largest rendering of a chat request of n bytes.
func renderBudget(n int) int { return RenderGrowth*n + GrowthSlack }

// answerBudget is the largest answer a request of n bytes may have.
func answerBudget(n int) int { return MaxGrowth*n + GrowthSlack }

// tooLarge is the error of a request whose what would need need bytes,
// over its budget.
func tooLarge(what string, need, budget int) error {
	return format.Errorf("%w: %s would take at least %d bytes, over the %d this request's size allows (API.md, Limits): send less in one request", ErrTooLarge, what, need, budget)
}

// chatSize is what a chat request carries, the base of its rendering
// budget: the bytes of its texts, names, arguments and tool schemas, and 16
// for each message, part, call and tool (the least JSON each takes).
// O(messages + parts + tools).
func chatSize(req *ChatRequest) int {
	n := 0
	for i := range req.Messages {
		m := &req.Messages[i]
		n += 16 + len(m.Role) + len(m.Content.Text) + len(m.Name) + len(m.ToolCallID)
		for _, p := range m.Content.Parts {
			n += 16 + len(p.Type) + len(p.Text)
			if p.ImageURL != nil {
				n += len(p.ImageURL.URL)
			}
		}
		for _, c := range m.ToolCalls {
			n += 16 + len(c.ID) + len(c.Function.Name) + len(c.Function.Arguments)
		}
		if c := m.FunctionCall; c != nil {
			n += 16 + len(c.Name) + len(c.Arguments)
		}
	}
	def := func(f *FunctionDef) int { return 16 + len(f.Name) + len(f.Description) + len(f.Parameters) }
	for i := range req.Tools {
		n += def(&req.Tools[i].Function)
	}
	for i := range req.Functions {
		n += def(&req.Functions[i])
	}
	return n
}

// indentedSize is the length of the JSON compact (as appendPyJSON prints
// it: separators ", " and ": ") printed by appendIndented at depth 0, found
// without printing it: each element of a non-empty container goes on a
// line of its own, indented four spaces a level, and the container's close
// on one at its own level. O(len(compact)).
func indentedSize(compact string) int {
	n, depth, inString := 0, 0, false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if inString {
			n++
			switch c {
			case '\\':
				n++
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			n++
		case '{', '[':
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				n += 2 // {} and [] stay as they are
				i++
				continue
			}
			depth++
			n += 2 + 4*depth // the bracket, then a line at the new depth
		case '}', ']':
			depth--
			n += 2 + 4*depth // a line at the container's depth, then the bracket
		case ',':
			n += 2 + 4*depth // ", " becomes "," and a new line
			i++              // the space
		default:
			n++
		}
	}
	return n
}
