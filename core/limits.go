package core

import (
	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/limit"
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
	GrowthSlack = limit.GrowthSlack
	// RenderGrowth bounds what a chat template renders: at most
	// RenderGrowth times the request's text plus GrowthSlack
	// (core/internal/chat says how).
	RenderGrowth = chat.RenderGrowth
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

// tooLarge is the error of a request whose what would need need bytes,
// over its budget.
func tooLarge(what string, need, budget int) error { return limit.TooLarge(what, need, budget) }

// answerBudget is the largest answer a request of n bytes may have.
func answerBudget(n int) int { return MaxGrowth*n + GrowthSlack }
