package core

import (
	"github.com/tokenfit/tokenfit/core/internal/format"
)

// Session defaults from the seed (tiered-injection): a session may inject
// 3,000 tokens in all, at most 500 at a time, and the k-th injection waits
// 5 × (k−1) prompts after the one before it.
const (
	DefaultSessionTokenBudget = 3000
	DefaultMaxPerInjection    = 500
	DefaultBackoffMultiplier  = 5
)

// maxSafeInt is the largest integer a JavaScript number holds exactly. Every
// session number stays at or below it, so the state survives a trip through
// JSON in any host.
const maxSafeInt = 1<<53 - 1

// SessionConfig limits the injections of one session. In JSON a field that
// is absent takes its default (DefaultSessionConfig); in Go start from
// DefaultSessionConfig, since a zero multiplier is invalid.
type SessionConfig struct {
	// MaxTokenBudget is the tokens the whole session may inject; 0 allows
	// none.
	MaxTokenBudget int `json:"maxTokenBudget"`
	// MaxPerInjection caps one injection; 0 allows none.
	MaxPerInjection int `json:"maxPerInjection"`
	// BackoffMultiplier spaces injections out: the k-th waits
	// BackoffMultiplier × (k−1) prompts after the (k−1)-th. At least 1.
	BackoffMultiplier int `json:"backoffMultiplier"`
}

// DefaultSessionConfig returns the seed's limits: 3,000 / 500 / ×5.
func DefaultSessionConfig() SessionConfig {
	return SessionConfig{
		MaxTokenBudget:    DefaultSessionTokenBudget,
		MaxPerInjection:   DefaultMaxPerInjection,
		BackoffMultiplier: DefaultBackoffMultiplier,
	}
}

// UnmarshalJSON decodes a config whose absent fields keep their defaults.
func (c *SessionConfig) UnmarshalJSON(b []byte) error {
	return decodeWith(b, c)
}

// SessionState is what a session has done so far. It goes out with every
// answer and comes back with the next request, so a stateless host (an edge
// function) can carry it; the zero value is a new session.
type SessionState struct {
	// Prompt is the number of prompts seen, this one included once counted.
	Prompt int `json:"prompt"`
	// Injections is the number of injections made.
	Injections int `json:"injections"`
	// TokensUsed is the tokens those injections held (upper bounds when the
	// tokenizer is an estimate).
	TokensUsed int `json:"tokensUsed"`
	// LastInjectionPrompt is the prompt of the latest injection (0: none).
	LastInjectionPrompt int `json:"lastInjectionPrompt"`
}

// Session is a session's limits and state: the `session` field of a plan
// request. Its methods are O(1).
type Session struct {
	Config SessionConfig `json:"config"`
	State  SessionState  `json:"state"`
}

// NewSession returns a new session with the default limits.
func NewSession() Session { return Session{Config: DefaultSessionConfig()} }

// UnmarshalJSON decodes a session whose absent config takes the defaults and
// whose absent state is a new session.
func (s *Session) UnmarshalJSON(b []byte) error {
	return decodeWith(b, s)
}

// Validate checks that every number is a non-negative integer no larger than
// 2^53−1, that the backoff multiplier is at least 1, and that
// the state is consistent with itself. Errors are *FieldError named as in a
// plan request, such as "session.state.tokensUsed".
func (s Session) Validate() error {
	for _, f := range []struct {
		name string
		v    int
	}{
		{"session.config.maxTokenBudget", s.Config.MaxTokenBudget},
		{"session.config.maxPerInjection", s.Config.MaxPerInjection},
		{"session.config.backoffMultiplier", s.Config.BackoffMultiplier},
		{"session.state.prompt", s.State.Prompt},
		{"session.state.injections", s.State.Injections},
		{"session.state.tokensUsed", s.State.TokensUsed},
		{"session.state.lastInjectionPrompt", s.State.LastInjectionPrompt},
	} {
		if f.v < 0 {
			return fieldErr(f.name, "must not be negative, got %d", f.v)
		}
		if f.v > maxSafeInt {
			return fieldErr(f.name, "must be at most %d, got %d", maxSafeInt, f.v)
		}
	}
	if m := s.Config.BackoffMultiplier; m < 1 {
		return fieldErr("session.config.backoffMultiplier", "must be at least 1, got %d", m)
	}
	st := s.State
	if st.Prompt == maxSafeInt {
		return fieldErr("session.state.prompt", "must be below %d: it is counted up by one", maxSafeInt)
	}
	if st.LastInjectionPrompt > st.Prompt {
		return fieldErr("session.state.lastInjectionPrompt", "must not be after session.state.prompt (%d), got %d", st.Prompt, st.LastInjectionPrompt)
	}
	if st.Injections > st.Prompt {
		return fieldErr("session.state.injections", "must not exceed session.state.prompt (%d): one injection per prompt at most, got %d", st.Prompt, st.Injections)
	}
	if st.Injections > 0 && st.LastInjectionPrompt == 0 {
		return fieldErr("session.state.lastInjectionPrompt", "must name the prompt of the latest of %d injections, got 0", st.Injections)
	}
	return nil
}

// Remaining returns the tokens the session may still inject, never negative.
func (s Session) Remaining() int {
	return max(0, s.Config.MaxTokenBudget-s.State.TokensUsed)
}

// Exhausted reports whether the session budget is spent: no more injections.
func (s Session) Exhausted() bool { return s.Remaining() == 0 }

// NextInjectionPrompt returns the first prompt at which the next injection
// may happen, backoff considered: 0 (any prompt) before the first
// injection, else LastInjectionPrompt + BackoffMultiplier × Injections. It
// does not look at the budget (see Exhausted).
func (s Session) NextInjectionPrompt() int {
	if s.State.Injections == 0 {
		return 0
	}
	wait := satMul(s.Config.BackoffMultiplier, s.State.Injections)
	return satAdd(s.State.LastInjectionPrompt, wait)
}

// SessionDecision says whether an injection may happen at the current prompt.
type SessionDecision struct {
	// Allowed: an injection may happen now, of at most Budget tokens.
	Allowed bool
	// Budget is min(MaxPerInjection, Remaining()) when Allowed, else 0.
	Budget int
	// Exhausted: the session budget is spent, for good.
	Exhausted bool
	// Wait is the number of prompts still to come before the next
	// injection may happen, when backoff is what refuses it.
	Wait int
	// Reason says why, as a sentence.
	Reason string
}

// Admit counts one prompt and decides whether an injection may happen at it.
// Exhaustion comes first, then backoff. Call Record after injecting. Cost:
// O(1).
func (s *Session) Admit() SessionDecision {
	c := s.Config
	s.State.Prompt = satAdd(s.State.Prompt, 1)
	p := s.State.Prompt
	if s.Exhausted() {
		return SessionDecision{Exhausted: true, Reason: format.Sprintf(
			"session budget exhausted: %d of %d tokens used; no more injections", s.State.TokensUsed, c.MaxTokenBudget)}
	}
	k := s.State.Injections + 1 // the injection this prompt would be
	if next := s.NextInjectionPrompt(); p < next {
		wait := next - p
		return SessionDecision{Wait: wait, Reason: format.Sprintf(
			"backoff: injection %d must wait %d × %d = %d prompts after prompt %d; %d more %s (next at prompt %d)",
			k, c.BackoffMultiplier, k-1, next-s.State.LastInjectionPrompt, s.State.LastInjectionPrompt,
			wait, plural(wait, "prompt", "prompts"), next)}
	}
	budget := min(c.MaxPerInjection, s.Remaining())
	if budget == 0 {
		return SessionDecision{Reason: "the session allows no tokens per injection (maxPerInjection is 0)"}
	}
	var why string
	if k == 1 {
		why = format.Sprintf("injection 1 of the session is immediate (prompt %d)", p)
	} else {
		why = format.Sprintf("injection %d allowed at prompt %d, %d prompts after prompt %d (backoff %d × %d)",
			k, p, p-s.State.LastInjectionPrompt, s.State.LastInjectionPrompt, c.BackoffMultiplier, k-1)
	}
	return SessionDecision{Allowed: true, Budget: budget, Reason: format.Sprintf(
		"%s; budget %d = min(%d per injection, %d left of %d)", why, budget, c.MaxPerInjection, s.Remaining(), c.MaxTokenBudget)}
}

// Record notes an injection of tokens at the current prompt. Pass the upper
// bound of the count when the tokenizer is an estimate. Nothing is recorded
// for tokens ≤ 0: an empty injection neither spends budget nor restarts the
// backoff. Cost: O(1).
func (s *Session) Record(tokens int) {
	if tokens <= 0 {
		return
	}
	s.State.Injections = satAdd(s.State.Injections, 1)
	s.State.TokensUsed = satAdd(s.State.TokensUsed, tokens)
	s.State.LastInjectionPrompt = s.State.Prompt
}

// SessionReport is the `session` field of a plan: the limits in force (with
// defaults filled in), the state to send back with the next request, and
// what happened at this prompt.
type SessionReport struct {
	Config SessionConfig `json:"config"`
	State  SessionState  `json:"state"`
	// Allowed: the session let this prompt inject (backoff and budget).
	Allowed bool `json:"allowed"`
	// Injected: a non-empty text was planned and recorded in State.
	Injected bool `json:"injected"`
	// Exhausted: the session budget is spent, now that this prompt is done.
	Exhausted bool `json:"exhausted"`
	// Reason says why, as a sentence.
	Reason string `json:"reason"`
	// Budget is the session's cap on this injection, 0 when not allowed.
	Budget int `json:"budget"`
	// RemainingTokens is what the session may still inject.
	RemainingTokens int `json:"remainingTokens"`
	// WaitPrompts is how many more prompts backoff held this one back by.
	WaitPrompts int `json:"waitPrompts"`
	// NextInjectionPrompt is the first prompt at which the next injection
	// may happen (backoff only), 0 when the session is exhausted.
	NextInjectionPrompt int `json:"nextInjectionPrompt"`
}

// report describes the session after a decision d and, if injected, Record.
func (s Session) report(d SessionDecision, injected bool, reason string) SessionReport {
	r := SessionReport{
		Config:          s.Config,
		State:           s.State,
		Allowed:         d.Allowed,
		Injected:        injected,
		Exhausted:       s.Exhausted(),
		Reason:          reason,
		Budget:          d.Budget,
		RemainingTokens: s.Remaining(),
		WaitPrompts:     d.Wait,
	}
	if !r.Exhausted {
		r.NextInjectionPrompt = max(s.NextInjectionPrompt(), s.State.Prompt+1)
	}
	return r
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}

// satAdd and satMul work on non-negative numbers and stop at maxSafeInt.
func satAdd(a, b int) int {
	if a > maxSafeInt-b {
		return maxSafeInt
	}
	return a + b
}

func satMul(a, b int) int {
	if a != 0 && b > maxSafeInt/a {
		return maxSafeInt
	}
	return a * b
}
