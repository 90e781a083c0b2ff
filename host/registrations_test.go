package host_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// TestMemory_Registrations: registrations are kept as the registry
// state they add up to (the last registration of an id wins), not as a
// log: 20,000 registrations (500 in make test) of one id leave one model to give a fresh
// instance, and the heap does not grow with them.
func TestMemory_Registrations(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(2).WithEncodings("o200k_base"))
	n := size(20000, 500) // ~4 ms each in a loaded machine
	// Each request carries 1 KB that the registry does not keep, so that a
	// log of requests would grow the heap by n KB (20 MB in make test-long).
	// The limit allows the two instances' Go heaps to grow their memory
	// once each by a whole arena (+6.2 MB of host heap, after ~350
	// registrations or later, as their garbage collections fall).
	pad := strings.Repeat("x", 1024)
	before := heapInUse()
	for i := range n {
		req := fmt.Appendf(nil, `{"models": [{"id": "acme-%d", "contextWindow": %d, "encoding": "o200k_base"}], "pad": %q}`, i%2, 1000+i, pad)
		if _, err := h.Do(ctx, "registerModels", req); err != nil {
			t.Fatal(err)
		}
	}
	grown := int64(heapInUse()) - int64(before)
	state := host.RegisteredState(h)
	t.Logf("%d registrations: heap %+.1f MB, state %d bytes", n, float64(grown)/(1<<20), len(state))
	if len(state) > 1024 {
		t.Errorf("the state after %d registrations of two ids is %d bytes", n, len(state))
	}
	if grown > 13<<20 {
		t.Errorf("the heap grew %.1f MB over %d registrations of two ids", float64(grown)/(1<<20), n)
	}
	// A second instance, started now, applies the state before its first
	// answer.
	busy, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	fresh, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t0 := time.Now()
	out, err := fresh.Call(ctx, "models", []byte(`{"model": "acme-1"}`))
	t.Logf("first call on a fresh instance: %v", time.Since(t0).Round(time.Microsecond))
	if want := fmt.Sprintf(`"contextWindow":%d`, 1000+n-1); err != nil || !strings.Contains(string(out), want) {
		t.Errorf("fresh instance: %s, %v (want %s)", out, err, want)
	}
	busy.Release()
	fresh.Release()
}

// TestHost_RegistrationsAsNative: a fresh instance given the state answers
// models as core does after the same registrations one by one: replaced
// models move to the end, estimators add up, aliases follow their model.
func TestHost_RegistrationsAsNative(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(2).WithEncodings("o200k_base"))
	api := core.NewAPI()
	for _, req := range []string{
		`{"models": [{"id": "a", "contextWindow": 1000, "encoding": "o200k_base"}, {"id": "b", "aliases": ["bee"], "contextWindow": 2000, "encoding": "o200k_base"}]}`,
		`{"estimators": {"acme": {"base": "o200k_base", "ratio": 1.1, "errorBound": 0.2}}, "models": [{"id": "c", "contextWindow": 3000, "estimator": "acme"}]}`,
		`{"models": [{"id": "A", "contextWindow": 1111, "encoding": "o200k_base"}, {"id": "gpt-4o", "contextWindow": 5000, "encoding": "o200k_base"}]}`,
		`{"estimators": {"acme": {"base": "o200k_base", "ratio": 1.3, "errorBound": 0.1}}}`,
		`{"models": [{"id": "d", "aliases": ["bee"], "contextWindow": 4000, "encoding": "o200k_base"}]}`,
		`{"models": [{"id": "bad", "contextWindow": 0, "encoding": "o200k_base"}]}`,
	} {
		h.Call(ctx, "registerModels", []byte(req))
		api.Call("registerModels", []byte(req))
	}
	instance(t, h) // busy: the next instance is a fresh one
	fresh := instance(t, h)
	for _, req := range []string{`{}`, `{"model": "bee"}`, `{"model": "c"}`, `{"model": "a"}`} {
		got, err := fresh.Call(ctx, "models", []byte(req))
		if want := api.Call("models", []byte(req)); err != nil || string(got) != string(want) {
			t.Errorf("models %s:\n fresh  %s (%v)\n native %s", req, got, err, want)
		}
	}
}
