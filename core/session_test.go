package core

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// The seed's injection prompts for the default ×5 backoff: the k-th
// injection waits 5 × (k−1) prompts after the one before it.
var seedInjectionPrompts = []int{1, 6, 16, 31, 51, 76, 106, 141, 181}

func TestSession_Defaults(t *testing.T) {
	if DefaultTokenBudget != 2000 || DynamicContextTokenBudget != 500 {
		t.Errorf("budgets %d / %d, want 2000 / 500", DefaultTokenBudget, DynamicContextTokenBudget)
	}
	want := SessionConfig{MaxTokenBudget: 3000, MaxPerInjection: 500, BackoffMultiplier: 5}
	if got := DefaultSessionConfig(); got != want {
		t.Errorf("DefaultSessionConfig() = %+v, want %+v", got, want)
	}
	if got := NewSession(); got.Config != want || got.State != (SessionState{}) {
		t.Errorf("NewSession() = %+v", got)
	}
}

func TestSession_Backoff(t *testing.T) {
	for _, tc := range []struct {
		name       string
		multiplier int
		want       []int
	}{
		{"×5", 5, seedInjectionPrompts},
		{"×1", 1, []int{1, 2, 4, 7, 11, 16, 22, 29, 37, 46, 56, 67, 79, 92, 106, 121, 137, 154, 172, 191}},
		{"×20", 20, []int{1, 21, 61, 121}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession()
			s.Config.BackoffMultiplier = tc.multiplier
			var got []int
			for p := 1; p <= 200; p++ {
				next := s.NextInjectionPrompt()
				d := s.Admit()
				if s.State.Prompt != p {
					t.Fatalf("prompt %d counted as %d", p, s.State.Prompt)
				}
				if d.Allowed != (p >= next) || d.Exhausted {
					t.Fatalf("prompt %d: %+v, next injection at %d", p, d, next)
				}
				if d.Allowed {
					if d.Budget != 500 || d.Wait != 0 {
						t.Fatalf("prompt %d: %+v", p, d)
					}
					got = append(got, p)
					s.Record(10)
				} else if d.Wait != next-p || !strings.HasPrefix(d.Reason, "backoff: ") {
					t.Fatalf("prompt %d: %+v, want a wait of %d", p, d, next-p)
				}
			}
			if !slices.Equal(got, tc.want) {
				t.Errorf("injections at %v, want %v", got, tc.want)
			}
			if s.State.Injections != len(tc.want) || s.State.TokensUsed != 10*len(tc.want) || s.State.LastInjectionPrompt != tc.want[len(tc.want)-1] {
				t.Errorf("state %+v", s.State)
			}
		})
	}
	t.Run("reasons", func(t *testing.T) {
		s := NewSession()
		d := s.Admit()
		if d.Reason != "injection 1 of the session is immediate (prompt 1); budget 500 = min(500 per injection, 3000 left of 3000)" {
			t.Errorf("reason = %q", d.Reason)
		}
		s.Record(100)
		d = s.Admit()
		if d.Reason != "backoff: injection 2 must wait 5 × 1 = 5 prompts after prompt 1; 4 more prompts (next at prompt 6)" || d.Wait != 4 {
			t.Errorf("%+v", d)
		}
		for range 4 {
			d = s.Admit()
		}
		if !d.Allowed || d.Reason != "injection 2 allowed at prompt 6, 5 prompts after prompt 1 (backoff 5 × 1); budget 500 = min(500 per injection, 2900 left of 3000)" {
			t.Errorf("%+v", d)
		}
	})
}

func TestSession_Exhaustion(t *testing.T) {
	for _, tc := range []struct {
		name   string
		spend  func(budget int) int // tokens injected when allowed
		want   []int                // injection prompts
		budget []int                // each injection's budget
	}{
		{"500 each: six injections", func(b int) int { return b }, seedInjectionPrompts[:6], []int{500, 500, 500, 500, 500, 500}},
		{"450 each, then the rest", func(b int) int { return min(b, 450) }, seedInjectionPrompts[:7], []int{500, 500, 500, 500, 500, 500, 300}},
		{"over the cap counts in full", func(b int) int { return 1000 }, seedInjectionPrompts[:3], []int{500, 500, 500}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := NewSession()
			var got, budgets []int
			exhaustedAt := 0
			for p := 1; p <= 300; p++ {
				d := s.Admit()
				if d.Allowed {
					got = append(got, p)
					budgets = append(budgets, d.Budget)
					s.Record(tc.spend(d.Budget))
				}
				if d.Exhausted {
					if d.Allowed || d.Budget != 0 || !strings.HasPrefix(d.Reason, "session budget exhausted: ") {
						t.Fatalf("prompt %d: %+v", p, d)
					}
					if exhaustedAt == 0 {
						exhaustedAt = p
					}
				} else if exhaustedAt != 0 {
					t.Fatalf("prompt %d: no longer exhausted", p)
				}
			}
			if !slices.Equal(got, tc.want) || !slices.Equal(budgets, tc.budget) {
				t.Errorf("injections at %v with budgets %v, want %v and %v", got, budgets, tc.want, tc.budget)
			}
			if !s.Exhausted() || s.Remaining() != 0 || s.State.TokensUsed < 3000 {
				t.Errorf("state %+v, remaining %d", s.State, s.Remaining())
			}
			if wantAt := tc.want[len(tc.want)-1] + 1; exhaustedAt != wantAt {
				t.Errorf("exhausted first at prompt %d, want %d (right after the last injection)", exhaustedAt, wantAt)
			}
		})
	}
	t.Run("no budget at all", func(t *testing.T) {
		s := NewSession()
		s.Config.MaxTokenBudget = 0
		if d := s.Admit(); d.Allowed || !d.Exhausted {
			t.Errorf("%+v", d)
		}
		s = NewSession()
		s.Config.MaxPerInjection = 0
		if d := s.Admit(); d.Allowed || d.Exhausted || !strings.Contains(d.Reason, "maxPerInjection is 0") {
			t.Errorf("%+v", d)
		}
	})
	t.Run("empty injections are not recorded", func(t *testing.T) {
		s := NewSession()
		s.Admit()
		s.Record(0)
		s.Record(-5)
		if s.State != (SessionState{Prompt: 1}) {
			t.Errorf("state %+v", s.State)
		}
		if d := s.Admit(); !d.Allowed {
			t.Errorf("%+v: nothing was injected, so nothing to back off from", d)
		}
	})
}

func TestSession_Validation(t *testing.T) {
	valid := func() Session {
		s := NewSession()
		s.State = SessionState{Prompt: 10, Injections: 2, TokensUsed: 700, LastInjectionPrompt: 6}
		return s
	}
	for _, tc := range []struct {
		name  string
		edit  func(*Session)
		field string
	}{
		{"negative session budget", func(s *Session) { s.Config.MaxTokenBudget = -1 }, "session.config.maxTokenBudget"},
		{"negative cap", func(s *Session) { s.Config.MaxPerInjection = -500 }, "session.config.maxPerInjection"},
		{"zero multiplier", func(s *Session) { s.Config.BackoffMultiplier = 0 }, "session.config.backoffMultiplier"},
		{"negative multiplier", func(s *Session) { s.Config.BackoffMultiplier = -5 }, "session.config.backoffMultiplier"},
		{"huge multiplier", func(s *Session) { s.Config.BackoffMultiplier = 1 << 60 }, "session.config.backoffMultiplier"},
		{"negative prompt", func(s *Session) { s.State.Prompt = -1 }, "session.state.prompt"},
		{"negative injections", func(s *Session) { s.State.Injections = -1 }, "session.state.injections"},
		{"negative tokens", func(s *Session) { s.State.TokensUsed = -1 }, "session.state.tokensUsed"},
		{"negative last", func(s *Session) { s.State.LastInjectionPrompt = -1 }, "session.state.lastInjectionPrompt"},
		{"last after now", func(s *Session) { s.State.LastInjectionPrompt = 11 }, "session.state.lastInjectionPrompt"},
		{"more injections than prompts", func(s *Session) { s.State.Injections = 11 }, "session.state.injections"},
		{"injections without a last prompt", func(s *Session) { s.State.LastInjectionPrompt = 0 }, "session.state.lastInjectionPrompt"},
		{"prompt at the limit", func(s *Session) { s.State.Prompt = maxSafeInt }, "session.state.prompt"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := valid()
			tc.edit(&s)
			err := s.Validate()
			var fe *FieldError
			if !errors.As(err, &fe) || !errors.Is(err, ErrInvalidRequest) {
				t.Fatalf("err = %v, want a *FieldError", err)
			}
			if fe.Field != tc.field {
				t.Errorf("field = %q, want %q (%v)", fe.Field, tc.field, err)
			}
			// The planner rejects it the same way.
			_, err = PlanInjection(mustEncoding(t, "o200k_base"), PlanRequest{Session: &s})
			if !errors.As(err, &fe) || fe.Field != tc.field {
				t.Errorf("PlanInjection: %v", err)
			}
		})
	}
	for _, s := range []Session{
		valid(), NewSession(),
		{Config: SessionConfig{0, 0, 1}},
		{Config: SessionConfig{maxSafeInt, maxSafeInt, maxSafeInt}, State: SessionState{maxSafeInt - 1, maxSafeInt - 1, maxSafeInt, maxSafeInt - 1}},
	} {
		if err := s.Validate(); err != nil {
			t.Errorf("%+v: %v", s, err)
		}
	}
}

func TestSession_Saturates(t *testing.T) {
	s := Session{
		Config: SessionConfig{MaxTokenBudget: maxSafeInt, MaxPerInjection: maxSafeInt, BackoffMultiplier: maxSafeInt},
		State:  SessionState{Prompt: maxSafeInt - 2, Injections: 1 << 40, TokensUsed: 1, LastInjectionPrompt: maxSafeInt - 3},
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	if got := s.NextInjectionPrompt(); got != maxSafeInt {
		t.Errorf("NextInjectionPrompt() = %d, want it held at %d", got, maxSafeInt)
	}
	if d := s.Admit(); d.Allowed || d.Wait != 1 {
		t.Errorf("%+v", d)
	}
	s.Record(maxSafeInt)
	if s.State.TokensUsed != maxSafeInt || s.Remaining() != 0 {
		t.Errorf("state %+v", s.State)
	}
}

// bigItems fill a 500-token injection many times over.
func bigItems() []PlanItem {
	var items []PlanItem
	for i := range 12 {
		items = append(items, PlanItem{
			ID: fmt.Sprint("b", i), Name: fmt.Sprint("behavior-", i), Kind: []string{"directive", "procedure", "preference"}[i%3],
			Tags: []string{"go"}, Activation: 0.72 + float64(i)/100,
			Content: strings.Repeat(fmt.Sprintf("Rule %d: keep the change small, test it, and say why in the commit message. ", i), 3),
			Summary: fmt.Sprintf("Rule %d: small, tested, explained changes.", i),
		})
	}
	return items
}

// roundTrip sends a request through JSON and the answer back, as a
// stateless host would.
func roundTrip(t *testing.T, tok Tokenizer, req string) (Plan, string) {
	t.Helper()
	var r PlanRequest
	if err := json.Unmarshal([]byte(req), &r); err != nil {
		t.Fatalf("%s: %v", req, err)
	}
	p := mustPlan(t, tok, r)
	b, err := json.Marshal(p)
	if err != nil {
		t.Fatal(err)
	}
	return p, string(b)
}

func TestSession_PlanSequence(t *testing.T) {
	items, err := json.Marshal(bigItems())
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		t.Run(name, func(t *testing.T) {
			enc := mustEncoding(t, name)
			state := `{}`
			var got []int
			used, injections := 0, 0
			for prompt := 1; prompt <= 400; prompt++ {
				req := fmt.Sprintf(`{"budget": %d, "items": %s, "session": {"state": %s}}`, DefaultTokenBudget, items, state)
				p, answer := roundTrip(t, enc, req)
				var out struct {
					Session struct {
						State json.RawMessage `json:"state"`
					} `json:"session"`
				}
				if err := json.Unmarshal([]byte(answer), &out); err != nil {
					t.Fatal(err)
				}
				state = string(out.Session.State)
				s := p.Session
				if s == nil || s.State.Prompt != prompt || s.Config != DefaultSessionConfig() {
					t.Fatalf("prompt %d: session %+v", prompt, s)
				}
				remaining := 3000 - used
				switch {
				case remaining <= 0:
					if s.Allowed || !s.Exhausted || p.Text != "" || !strings.Contains(s.Reason, "exhausted") {
						t.Fatalf("prompt %d: %+v", prompt, s)
					}
				case s.Allowed:
					if want := min(500, remaining); p.Budget != want || s.Budget != want {
						t.Fatalf("prompt %d: budget %d (session %d), want %d", prompt, p.Budget, s.Budget, want)
					}
					if p.OverBudget || p.TotalTokens > p.Budget {
						t.Fatalf("prompt %d: %d tokens for a budget of %d", prompt, p.TotalTokens, p.Budget)
					}
					if s.Injected != (p.TotalTokens > 0) {
						t.Fatalf("prompt %d: injected %v with %d tokens", prompt, s.Injected, p.TotalTokens)
					}
					if s.Injected {
						got = append(got, prompt)
						used += p.TotalTokens
						injections++
					}
				default:
					if p.Text != "" || p.TotalTokens != 0 || s.WaitPrompts <= 0 || !strings.HasPrefix(s.Reason, "backoff: ") {
						t.Fatalf("prompt %d: refused plan %+v", prompt, p)
					}
					for _, it := range p.Items {
						if it.Tier != TierOmitted || !strings.Contains(it.Reason, "backoff") {
							t.Fatalf("prompt %d: %+v", prompt, it)
						}
					}
				}
				if s.State.TokensUsed != used || s.State.Injections != injections || s.RemainingTokens != max(0, 3000-used) {
					t.Fatalf("prompt %d: state %+v, want %d tokens in %d injections", prompt, s.State, used, injections)
				}
			}
			// The first six injections fill their 500 tokens almost to the
			// brim and come at the seed's prompts.
			if len(got) < 6 || !slices.Equal(got[:6], seedInjectionPrompts[:6]) {
				t.Errorf("injections at %v, want %v first", got, seedInjectionPrompts[:6])
			}
			t.Logf("injections at %v, %d tokens used", got, used)
		})
	}
}

func TestSession_PlanExhaustsExactly(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	item := PlanItem{ID: "a", Kind: "directive", Activation: 0.9, Content: "Say why in every commit message."}
	size := mustPlan(t, enc, PlanRequest{Items: []PlanItem{item}}).TotalTokens
	s := Session{Config: SessionConfig{MaxTokenBudget: 3 * size, MaxPerInjection: 500, BackoffMultiplier: 5}}
	var got []int
	for prompt := 1; prompt <= 60; prompt++ {
		p := mustPlan(t, enc, PlanRequest{Items: []PlanItem{item}, Session: &s})
		if p.Session.Injected {
			got = append(got, prompt)
			if p.TotalTokens != size {
				t.Fatalf("prompt %d: %d tokens, want %d", prompt, p.TotalTokens, size)
			}
		}
		if p.Session.Exhausted != (prompt >= 16) {
			t.Fatalf("prompt %d: exhausted %v", prompt, p.Session.Exhausted)
		}
		if prompt > 16 && (p.Session.Allowed || p.Session.NextInjectionPrompt != 0) {
			t.Fatalf("prompt %d: %+v", prompt, p.Session)
		}
		s.State = p.Session.State
	}
	if want := []int{1, 6, 16}; !slices.Equal(got, want) {
		t.Errorf("injections at %v, want %v", got, want)
	}
}

func TestSession_PlanBudget(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	items := bigItems()
	for _, tc := range []struct {
		name        string
		budget      int
		session     Session
		want, limit int // the plan's budget, the session's
	}{
		{"request below the cap", 100, NewSession(), 100, 500},
		{"unlimited request: the cap", 0, NewSession(), 500, 500},
		{"request above the cap", 2000, NewSession(), 500, 500},
		{"the rest of the session", 2000, Session{Config: DefaultSessionConfig(), State: SessionState{Prompt: 110, Injections: 6, TokensUsed: 2950, LastInjectionPrompt: 76}}, 50, 50},
		{"a custom cap", 0, Session{Config: SessionConfig{10000, 1234, 2}}, 1234, 1234},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := tc.session
			p := mustPlan(t, enc, PlanRequest{Budget: tc.budget, Items: items, Session: &s})
			if p.Budget != tc.want || p.Session.Budget != tc.limit {
				t.Errorf("budget %d (session %d), want %d (%d)", p.Budget, p.Session.Budget, tc.want, tc.limit)
			}
			if !p.Session.Injected || p.TotalTokens > tc.want {
				t.Errorf("%d tokens, injected %v", p.TotalTokens, p.Session.Injected)
			}
			if s != tc.session {
				t.Error("the request's session was changed in place")
			}
		})
	}
	t.Run("over budget is still recorded", func(t *testing.T) {
		k := PlanItem{ID: "k", Kind: "constraint", Activation: 0.9, Content: strings.Repeat("Never leak a secret. ", 150)}
		s := NewSession()
		p := mustPlan(t, enc, PlanRequest{Items: []PlanItem{k}, Session: &s})
		if !p.OverBudget || !p.Session.Injected || p.Session.State.TokensUsed != p.TotalTokens || !strings.Contains(p.Session.Reason, "over the budget") {
			t.Errorf("%+v", p.Session)
		}
	})
	t.Run("nothing to inject", func(t *testing.T) {
		s := NewSession()
		p := mustPlan(t, enc, PlanRequest{Items: []PlanItem{{ID: "x", Activation: 0.01}}, Session: &s})
		if p.Session.Injected || !p.Session.Allowed || p.Session.State != (SessionState{Prompt: 1}) || !strings.Contains(p.Session.Reason, "nothing to inject") {
			t.Errorf("%+v", p.Session)
		}
	})
}

func TestSession_JSON(t *testing.T) {
	enc := mustEncoding(t, "o200k_base")
	for _, tc := range []struct {
		name    string
		session string
		want    SessionConfig
	}{
		{"empty", `{}`, DefaultSessionConfig()},
		{"state only", `{"state": {"prompt": 3}}`, DefaultSessionConfig()},
		{"partial config", `{"config": {"maxPerInjection": 200}}`, SessionConfig{3000, 200, 5}},
		{"full config", `{"config": {"maxTokenBudget": 10, "maxPerInjection": 0, "backoffMultiplier": 1}}`, SessionConfig{10, 0, 1}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, answer := roundTrip(t, enc, `{"items": [{"id": "a", "activation": 0.9, "content": "x"}], "session": `+tc.session+`}`)
			if p.Session.Config != tc.want {
				t.Errorf("config %+v, want %+v", p.Session.Config, tc.want)
			}
			var out struct{ Session map[string]any }
			if err := json.Unmarshal([]byte(answer), &out); err != nil {
				t.Fatal(err)
			}
			for _, k := range []string{"config", "state", "allowed", "injected", "exhausted", "reason", "budget", "remainingTokens", "waitPrompts", "nextInjectionPrompt"} {
				if _, ok := out.Session[k]; !ok {
					t.Errorf("session has no %q: %s", k, answer)
				}
			}
			for _, k := range []string{"prompt", "injections", "tokensUsed", "lastInjectionPrompt"} {
				if _, ok := out.Session["state"].(map[string]any)[k]; !ok {
					t.Errorf("state has no %q: %s", k, answer)
				}
			}
			for _, k := range []string{"maxTokenBudget", "maxPerInjection", "backoffMultiplier"} {
				if _, ok := out.Session["config"].(map[string]any)[k]; !ok {
					t.Errorf("config has no %q: %s", k, answer)
				}
			}
		})
	}
	t.Run("explicit zero multiplier is an error", func(t *testing.T) {
		var r PlanRequest
		if err := json.Unmarshal([]byte(`{"session": {"config": {"backoffMultiplier": 0}}}`), &r); err != nil {
			t.Fatal(err)
		}
		var fe *FieldError
		if _, err := PlanInjection(enc, r); !errors.As(err, &fe) || fe.Field != "session.config.backoffMultiplier" {
			t.Errorf("err = %v", err)
		}
	})
	t.Run("null session", func(t *testing.T) {
		p, _ := roundTrip(t, enc, `{"items": [], "session": null}`)
		if p.Session != nil {
			t.Errorf("session %+v", p.Session)
		}
	})
}

func FuzzSession(f *testing.F) {
	f.Add(3000, 500, 5, 0, 0, 0, 0, uint64(1), uint16(300))
	f.Add(0, 0, 1, 5, 1, 0, 5, uint64(2), uint16(10))
	f.Add(maxSafeInt, maxSafeInt, maxSafeInt, maxSafeInt-1, maxSafeInt-1, maxSafeInt, maxSafeInt-1, uint64(3), uint16(5))
	f.Add(100, 30, 2, 9, 3, 99, 9, uint64(4), uint16(0))
	f.Fuzz(func(t *testing.T, budget, cap, mult, prompt, injections, used, last int, seed uint64, steps uint16) {
		s := Session{
			Config: SessionConfig{MaxTokenBudget: budget, MaxPerInjection: cap, BackoffMultiplier: mult},
			State:  SessionState{Prompt: prompt, Injections: injections, TokensUsed: used, LastInjectionPrompt: last},
		}
		if err := s.Validate(); err != nil {
			var fe *FieldError
			if !errors.As(err, &fe) || !strings.HasPrefix(fe.Field, "session.") {
				t.Fatalf("err = %v", err)
			}
			return
		}
		for i := range int(steps % 512) {
			if s.State.Prompt >= maxSafeInt-1 {
				break
			}
			before := s
			next := s.NextInjectionPrompt()
			d := s.Admit()
			if s.State.Prompt != before.State.Prompt+1 || s.State.Injections != before.State.Injections || s.State.TokensUsed != before.State.TokensUsed {
				t.Fatalf("Admit changed more than the prompt: %+v → %+v", before.State, s.State)
			}
			switch {
			case before.Exhausted():
				if !d.Exhausted || d.Allowed {
					t.Fatalf("%+v: %+v", before, d)
				}
			case s.State.Prompt < next:
				if d.Allowed || d.Wait != next-s.State.Prompt {
					t.Fatalf("%+v: %+v, next %d", before, d, next)
				}
			case before.Config.MaxPerInjection == 0:
				if d.Allowed {
					t.Fatalf("%+v: %+v", before, d)
				}
			default:
				if !d.Allowed || d.Budget != min(s.Config.MaxPerInjection, s.Remaining()) || d.Budget <= 0 {
					t.Fatalf("%+v: %+v", before, d)
				}
			}
			if d.Reason == "" {
				t.Fatal("no reason")
			}
			if d.Allowed {
				tokens := int((seed >> (i % 60)) % uint64(d.Budget+2))
				s.Record(tokens)
				if tokens > 0 && (s.State.Injections != before.State.Injections+1 || s.State.LastInjectionPrompt != s.State.Prompt) {
					t.Fatalf("Record(%d): %+v", tokens, s.State)
				}
			}
			if err := s.Validate(); err != nil && s.State.Prompt < maxSafeInt {
				t.Fatalf("state became invalid: %v (%+v)", err, s.State)
			}
			r := s.report(d, false, d.Reason)
			if r.RemainingTokens != s.Remaining() || r.Exhausted != s.Exhausted() || (!r.Exhausted && r.NextInjectionPrompt <= s.State.Prompt) {
				t.Fatalf("report %+v", r)
			}
		}
	})
}
