package core

import (
	"math"

	"github.com/tokenfit/tokenfit/internal/scripts"
)

// Tokenizer counts the tokens of text for a model: exactly (an *Encoding) or
// by an estimate for models whose tokenizer is not public. Budgets and plans
// take a Tokenizer, so they work the same for both; where an estimate could
// be short they use Upper.
type Tokenizer interface {
	// Name is the encoding's name, or the estimator's (such as
	// "estimate:claude" or "chars4").
	Name() string
	// Exact reports whether Count equals the provider's own count.
	Exact() bool
	// Count returns the number of tokens in text (the estimate, if inexact).
	Count(text string) int
	// Upper returns a count the provider's own count of the same text will
	// not exceed, given count from Count: count itself when exact.
	Upper(count int) int
	// Truncate returns the longest start (or end) of text whose Count is at
	// most maxTokens, never cut inside a character, and that count.
	Truncate(text string, maxTokens int, keep Side) (string, int)
}

var _ Tokenizer = (*Encoding)(nil)

// scaled is base's count times factor, rounded, with an error bound: an
// estimate for a model whose tokenizer is not public (an exact encoding
// times the registry's ratio, models.go; weighted by script when the
// estimator has weights: internal/scripts), or any tokenizer calibrated
// by reported usage (a learned factor, calibrate.go), an estimate included.
// Rounding to the nearest, not up, keeps a count made of many small parts
// (a chat's messages) unbiased.
type scaled struct {
	name    string
	base    Tokenizer
	factor  float64
	bound   float64
	weights map[string]float64 // by script class; nil: every class weighs 1
}

func (s *scaled) Name() string { return s.name }
func (s *scaled) Exact() bool  { return false }

// Count costs O(len(text)) beyond the base's count.
func (s *scaled) Count(text string) int {
	if s.weights == nil {
		return int(math.Round(float64(s.base.Count(text)) * s.factor))
	}
	sum := 0.0
	perDigit, digits := s.weights[scripts.Digits]
	scripts.Runs(text, digits, func(run, class string) {
		if class == scripts.Digits {
			sum += perDigit * float64(len(run))
			return
		}
		w, ok := s.weights[class]
		if !ok {
			w = 1
		}
		sum += w * float64(s.base.Count(run))
	})
	return int(math.Round(sum * s.factor))
}

func (s *scaled) Upper(count int) int {
	return int(math.Ceil(float64(count) * (1 + s.bound)))
}

// most is the most Count gives per token of the base: the factor times the
// heaviest weight.
func (s *scaled) most() float64 {
	w := 1.0
	for _, v := range s.weights {
		w = max(w, v)
	}
	return s.factor * w
}

// Truncate cuts the base's count at the room the text's own weighting
// leaves, then trims until the estimate fits. Cost: O(n log n) at worst.
func (s *scaled) Truncate(text string, maxTokens int, keep Side) (string, int) {
	per := s.factor
	if s.weights != nil {
		if b := s.base.Count(text); b > 0 {
			per = max(per, float64(s.Count(text))/float64(b))
		}
	}
	room := int(float64(maxTokens) / per)
	for {
		part, _ := s.base.Truncate(text, room, keep)
		if n := s.Count(part); n <= maxTokens || room == 0 {
			if n > maxTokens {
				return "", 0
			}
			return part, n
		}
		room = room * 9 / 10
	}
}
