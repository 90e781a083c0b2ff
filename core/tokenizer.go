package core

import "math"

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

// scaled is base's count times factor, rounded up, with an error bound: an
// estimate for a model whose tokenizer is not public (an exact encoding
// times the registry's ratio, models.go), or any tokenizer calibrated by
// reported usage (a learned factor, calibrate.go), an estimate included.
type scaled struct {
	name   string
	base   Tokenizer
	factor float64
	bound  float64
}

func (s *scaled) Name() string { return s.name }
func (s *scaled) Exact() bool  { return false }

func (s *scaled) Count(text string) int {
	return int(math.Ceil(float64(s.base.Count(text)) * s.factor))
}

func (s *scaled) Upper(count int) int {
	return int(math.Ceil(float64(count) * (1 + s.bound)))
}

func (s *scaled) Truncate(text string, maxTokens int, keep Side) (string, int) {
	part, _ := s.base.Truncate(text, int(float64(maxTokens)/s.factor), keep)
	return part, s.Count(part)
}
