package core

import (
	"math"

	"github.com/tokenfit/tokenfit/core/engine"

	"github.com/tokenfit/tokenfit/internal/scripts"
)

// Tokenizer counts the tokens of text for a model: exactly (an *Encoding) or
// by an estimate for models whose tokenizer is not public. It is
// core/engine's, so that the request side (core/internal/chat) counts with it too.
type Tokenizer = engine.Tokenizer

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
