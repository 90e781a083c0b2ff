package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// TestHost_Load runs 16 goroutines × 10,000 mixed calls against one Host
// with fewer instances than goroutines: countTokens, countChat,
// calculateBudget and planInjection on the JSON path, counts on the fast
// path, live counters on checked-out instances, and hostile requests (bad
// JSON, wrong types, unknown names) mixed in. Every answer is checked
// against core natively. make test-race runs it at full size under -race;
// -short takes 200 calls per goroutine, TOKENFIT_LOAD_CALLS sets the number.
func TestHost_Load(t *testing.T) {
	const goroutines = 16
	calls := 10000
	if testing.Short() {
		calls = 200
	}
	if s := os.Getenv("TOKENFIT_LOAD_CALLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal("TOKENFIT_LOAD_CALLS:", err)
		}
		calls = n
	}
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(4))
	for _, e := range core.EncodingNames() {
		core.GetEncoding(e) // "encodings" reports what is loaded
	}
	api := core.NewAPI()

	// The requests and core's answers to them, computed once.
	type call struct {
		op   string
		req  []byte
		want []byte
	}
	var mix []call
	add := func(op, req string) { mix = append(mix, call{op, []byte(req), api.Call(op, []byte(req))}) }
	for i, text := range memoryTexts()[:24] {
		add("countTokens", fmt.Sprintf(`{"encoding": %q, "text": %q}`, core.EncodingNames()[i%4], text))
		add("countChat", fmt.Sprintf(`{"model": %q, "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "name": "ann", "content": %q}],
			"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object", "properties": {"a": {"type": "string"}}}}}]}`,
			[]string{"gpt-4o", "gpt-4", "gpt-3.5-turbo", "claude-sonnet-4-5"}[i%4], text))
		add("planInjection", fmt.Sprintf(`{"budget": %d, "items": [
			{"id": "a", "name": "no-secrets", "kind": "constraint", "activation": 0.9, "content": "Never print secrets.", "summary": "No secrets."},
			{"id": "b", "name": "tests", "kind": "directive", "tags": ["go"], "activation": %v, "content": %q},
			{"id": "c", "name": "steps", "kind": "procedure", "activation": 0.4, "content": "1. Read.\n2. Write."}]}`, 10+i*3, float64(i)/24, text))
	}
	for _, b := range budgetRequests() {
		add("calculateBudget", string(b))
	}
	// Hostile requests whose answers do not depend on an instance's state
	// (the small ones: the megabytes are TestHostile's).
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	for i, c := range f.Cases {
		if c.Huge || c.Op == "count" || slices.Contains(stateful, c.Op) || i%7 != 0 || len(c.Bytes(1)) > 16<<10 {
			continue
		}
		mix = append(mix, call{c.Op, c.Bytes(1), api.Call(c.Op, c.Bytes(1))})
	}
	texts := memoryTexts()

	var wg sync.WaitGroup
	var done, errorAnswers, lives atomic.Int64
	errs := make(chan error, goroutines)
	t0 := time.Now()
	for g := range goroutines {
		wg.Go(func() {
			fail := func(format string, args ...any) { errs <- fmt.Errorf("g%d: "+format, append([]any{g}, args...)...) }
			for i := range calls {
				k := g*calls + i
				switch {
				case k%97 == 0:
					// A live counter on a checked-out instance: a sequence
					// that must see the same module state.
					if err := liveSession(ctx, h, texts[k%len(texts)], k); err != nil {
						fail("call %d: live: %v", i, err)
						return
					}
					lives.Add(1)
				case k%5 == 0:
					enc := core.EncodingNames()[k%4]
					text := texts[k%len(texts)]
					e, _ := core.GetEncoding(enc)
					if n, err := h.Count(ctx, enc, text); err != nil || n != e.Count(text) {
						fail("call %d: Count(%s) = %d, %v; want %d", i, enc, n, err, e.Count(text))
						return
					}
				case k%13 == 0:
					// Typed errors through Do.
					_, err := h.Do(ctx, "countTokens", []byte(`{"text": "x", "encoding": "o300k"}`))
					if !errors.Is(err, core.ErrUnknownEncoding) {
						fail("call %d: Do with an unknown encoding: %v", i, err)
						return
					}
					errorAnswers.Add(1)
				default:
					c := mix[k%len(mix)]
					got, err := h.Call(ctx, c.op, c.req)
					if err != nil || string(got) != string(c.want) {
						fail("call %d: %s %.100s:\n got  %.200s (%v)\n want %.200s", i, c.op, c.req, got, err, c.want)
						return
					}
					if hostile.IsErrorAnswer(got) {
						errorAnswers.Add(1)
					}
				}
				done.Add(1)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	t.Logf("%d goroutines × %d calls: %d answered alike in %v (%d error answers, %d live sessions), %d distinct requests",
		goroutines, calls, done.Load(), time.Since(t0).Round(time.Millisecond), errorAnswers.Load(), lives.Load(), len(mix))
}

// liveSession opens a live counter on a checked-out instance, edits it,
// reads it and frees it, holding each count to a full count of the text.
func liveSession(ctx context.Context, h *host.Host, text string, k int) error {
	in, err := h.Instance(ctx)
	if err != nil {
		return err
	}
	defer in.Release()
	var st struct {
		ID     int     `json:"id"`
		Tokens int     `json:"tokens"`
		Text   *string `json:"text"`
	}
	do := func(op string, req any) error {
		b, _ := json.Marshal(req)
		out, err := in.Call(ctx, op, b)
		if err != nil {
			return err
		}
		if hostile.IsErrorAnswer(out) {
			return fmt.Errorf("%s: %s", op, out)
		}
		return json.Unmarshal(out, &st)
	}
	e, _ := core.GetEncoding("o200k_base")
	if err := do("liveNew", map[string]any{"text": text, "units": "bytes"}); err != nil {
		return err
	}
	id, cur := st.ID, text
	for j, ins := range []string{" and then", "x", "\n\n", "漢字", ""} {
		at := (k + j*7) % (len(cur) + 1)
		for at > 0 && at < len(cur) && !utf8RuneStart(cur[at]) {
			at--
		}
		if err := do("liveEdit", map[string]any{"id": id, "at": at, "insert": ins}); err != nil {
			return err
		}
		cur = cur[:at] + ins + cur[at:]
		if st.Tokens != e.Count(cur) {
			return fmt.Errorf("after inserting %q at %d: %d tokens, want %d", ins, at, st.Tokens, e.Count(cur))
		}
	}
	if err := do("liveGet", map[string]any{"id": id}); err != nil {
		return err
	}
	if st.Text == nil || *st.Text != cur {
		return fmt.Errorf("liveGet text %v, want %q", st.Text, cur)
	}
	out, err := in.Call(ctx, "liveFree", fmt.Appendf(nil, `{"id": %d}`, id))
	if err != nil || !strings.Contains(string(out), `"freed":true`) {
		return fmt.Errorf("liveFree: %s, %v", out, err)
	}
	// An edit after the free is an error answer, and the instance goes on.
	if out, err = in.Call(ctx, "liveEdit", fmt.Appendf(nil, `{"id": %d, "at": 0}`, id)); err != nil || !hostile.IsErrorAnswer(out) {
		return fmt.Errorf("edit after free: %s, %v", out, err)
	}
	return nil
}

func utf8RuneStart(b byte) bool { return b&0xC0 != 0x80 }
