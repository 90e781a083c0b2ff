package engine

// Tokenizer counts the tokens of text for a model: exactly (an *Encoding,
// core's or a loaded tokenizer.json) or by an estimate for models whose
// tokenizer is not public. Core's budgets and plans and the request side's
// chat counts (core/internal/chat) take a Tokenizer, so they work the same
// for both; where an estimate could be short they use Upper. Core names it
// again (core.Tokenizer).
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
