package core

import (
	"github.com/tokenfit/tokenfit/core/internal/format"
	"github.com/tokenfit/tokenfit/core/internal/measure"
)

// The character heuristics of the seed documents, selectable by name where
// an encoding is expected. They are fast and rough: ±15–30% on English prose,
// far worse on code and CJK (where a token is 1–2 characters, not 4). Use
// them to reproduce the seeds' numbers, not to guard a window.
const (
	// Chars4 is max(1, len/4) with len in UTF-16 code units, the text rule
	// of memory-budget-formula's ApproximateTokenCounter (its +4 per chat
	// message is not applied: chats count by the chat rules).
	Chars4 = "chars4"
	// Bytes4 is (len+3)/4 with len in UTF-8 bytes (seed: tiered-injection).
	Bytes4 = "bytes4"
)

// heuristicErrorBound is the seeds' own claim for character heuristics
// ("off by up to 30%").
const heuristicErrorBound = 0.3

type heuristic struct {
	name  string
	count func(string) int
}

var heuristics = map[string]*heuristic{
	Chars4: {Chars4, func(s string) int { return max(1, measure.UTF16Len(s)/4) }},
	Bytes4: {Bytes4, func(s string) int { return (len(s) + 3) / 4 }},
}

func (h *heuristic) Name() string          { return h.name }
func (h *heuristic) Exact() bool           { return false }
func (h *heuristic) Count(text string) int { return h.count(ValidUTF8(text)) }
func (h *heuristic) Upper(count int) int   { return count + (count*3+9)/10 }

func (h *heuristic) Truncate(text string, maxTokens int, keep Side) (string, int) {
	text = ValidUTF8(text)
	if h.count(text) <= maxTokens {
		return text, h.count(text)
	}
	// Both heuristics grow with length: find the longest fitting part by
	// halving over character boundaries.
	idx := make([]int, 0, len(text)+1)
	for i := range text {
		idx = append(idx, i)
	}
	idx = append(idx, len(text))
	part := func(k int) string { // the first (or last) k characters
		if keep == KeepEnd {
			return text[idx[len(idx)-1-k]:]
		}
		return text[:idx[k]]
	}
	lo, hi := 0, len(idx)-1
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if h.count(part(mid)) <= maxTokens {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	if h.count(part(lo)) > maxTokens {
		return "", 0
	}
	p := part(lo)
	return p, h.count(p)
}

// TokenizerByName returns the tokenizer for an encoding name (o200k_base, …)
// or a heuristic name (chars4, bytes4).
func TokenizerByName(name string) (Tokenizer, error) {
	if h, ok := heuristics[name]; ok {
		return h, nil
	}
	e, err := GetEncoding(name)
	if err != nil {
		return nil, format.Errorf("%w (heuristics: %s, %s)", err, Chars4, Bytes4)
	}
	return e, nil
}
