package host_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

func TestHost_Errors(t *testing.T) {
	ctx := context.Background()
	if _, err := host.New(ctx, host.NewConfig().WithModule([]byte{})); !errors.Is(err, host.ErrNoModule) {
		t.Errorf("no module: %v", err)
	}
	if _, err := host.New(ctx, host.NewConfig().WithModule([]byte("\x00asm\x01\x00\x00\x00"))); !errors.Is(err, host.ErrABI) {
		t.Errorf("empty module: %v", err)
	}
	if _, err := host.New(ctx, host.NewConfig().WithModule([]byte("not wasm"))); err == nil {
		t.Error("garbage module: no error")
	}
	if _, err := host.New(ctx, config(t).WithEncodings("o300k")); !errors.Is(err, core.ErrUnknownEncoding) {
		t.Errorf("unknown encoding in the config: %v", err)
	}

	h := sharedHost(t)
	for _, tc := range []struct {
		name string
		err  error
		want error
	}{
		{"Do on a bad request", func() error { _, err := h.Do(ctx, "countTokens", []byte(`{"text": 1}`)); return err }(), core.ErrInvalidRequest},
		{"Do on an unknown operation", func() error { _, err := h.Do(ctx, "nope", nil); return err }(), core.ErrUnknownOperation},
		{"CountTokens with an unknown encoding", func() error {
			_, err := h.CountTokens(ctx, core.CountRequest{Target: core.Target{Encoding: "o300k"}})
			return err
		}(), core.ErrUnknownEncoding},
		{"Decode of a bad id", func() error {
			_, err := h.Decode(ctx, core.DecodeRequest{IDs: []int{1 << 30}})
			return err
		}(), core.ErrInvalidToken},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !errors.Is(tc.err, tc.want) {
				t.Errorf("error %v does not wrap %v", tc.err, tc.want)
			}
			var he *host.Error
			if !errors.As(tc.err, &he) || he.Code != core.Code(tc.want) {
				t.Errorf("error %#v is not a *host.Error with code %s", tc.err, core.Code(tc.want))
			}
		})
	}
	var he *host.Error
	_, err := h.Do(ctx, "truncate", []byte(`{"text": "x", "maxTokens": -1}`))
	if !errors.As(err, &he) || he.Field != "maxTokens" {
		t.Errorf("field of a bad truncate: %#v", err)
	}
}

func TestHost_Typed(t *testing.T) {
	ctx := context.Background()
	h := sharedHost(t)
	reg := core.DefaultRegistry()
	count := core.CountRequest{Target: core.Target{Model: "gpt-4o"}, Text: "Hello world"}
	if got, err := h.CountTokens(ctx, count); err != nil || got.Tokens != 2 || got.Encoding != "o200k_base" {
		t.Errorf("CountTokens = %+v, %v", got, err)
	}
	enc, err := h.Encode(ctx, count)
	if err != nil || len(enc.IDs) != 2 {
		t.Fatalf("Encode = %+v, %v", enc, err)
	}
	dec, err := h.Decode(ctx, core.DecodeRequest{IDs: enc.IDs})
	if err != nil || dec.Text != "Hello world" || !dec.Valid {
		t.Errorf("Decode = %+v, %v", dec, err)
	}
	lim, err := h.WithinLimit(ctx, core.LimitRequest{Text: "Hello world", Limit: 1})
	if err != nil || lim.Within {
		t.Errorf("WithinLimit = %+v, %v", lim, err)
	}
	tr, err := h.Truncate(ctx, core.TruncateRequest{Text: "Hello world", MaxTokens: 1, Keep: "end"})
	if err != nil || tr.Text != " world" {
		t.Errorf("Truncate = %+v, %v", tr, err)
	}
	window := 150000
	reserve := 8192
	tokens := func(n int) core.Section { return core.Section{Tokens: &n} }
	req := core.BudgetRequest{ContextWindow: &window, OutputReserve: &reserve, Sections: core.Sections{
		System: tokens(1200), Procedure: tokens(300), Knowledge: tokens(1500), Episodes: tokens(400), Current: tokens(100)}}
	b, err := h.CalculateBudget(ctx, req)
	if err != nil || b.HistoryBudget != 138308 {
		t.Errorf("CalculateBudget: historyBudget %d, %v; want 138,308", b.HistoryBudget, err)
	}
	if native, _ := core.CalculateBudget(reg, req); native.HistoryBudget != b.HistoryBudget {
		t.Errorf("native historyBudget %d", native.HistoryBudget)
	}
	if v, err := h.Version(ctx); err != nil || v != core.Version {
		t.Errorf("Version = %q, %v", v, err)
	}
}

// TestHost_SharedVectors runs testdata/vectors/budget.json and plan.json
// through the module, as core's tests run them natively.
func TestHost_SharedVectors(t *testing.T) {
	ctx := context.Background()
	h := sharedHost(t)
	for _, file := range []string{"budget", "plan", "shapes"} {
		cases, err := hostile.Vectors(file)
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cases {
			out, err := h.Call(ctx, c.Op, c.Bytes())
			if err == nil {
				err = hostile.Expect(c.Expect, out)
			}
			if err != nil {
				t.Errorf("%s.json %q: %v", file, c.Name, err)
			}
		}
	}
}

// TestHost_RegisterModelsReachesEveryInstance: a registration made through
// one instance is seen by all of them, including those started later.
func TestHost_RegisterModelsReachesEveryInstance(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(3).WithEncodings("o200k_base"))
	// Two instances exist before the registration, a third starts after.
	var held []*host.Instance
	for range 2 {
		in, err := h.Instance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, in)
	}
	for _, in := range held {
		in.Release()
	}
	if _, err := h.Do(ctx, "registerModels", []byte(`{"models": [{"id": "acme-7", "contextWindow": 7000, "encoding": "o200k_base"}]}`)); err != nil {
		t.Fatal(err)
	}
	held = held[:0]
	for i := range 3 {
		in, err := h.Instance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		held = append(held, in)
		out, err := in.Call(ctx, "models", []byte(`{"model": "acme-7"}`))
		if err != nil || !strings.Contains(string(out), `"contextWindow":7000`) {
			t.Errorf("instance %d: %s, %v", i, out, err)
		}
	}
	for _, in := range held {
		in.Release()
	}
}

func TestHost_Close(t *testing.T) {
	ctx := context.Background()
	h, err := host.New(ctx, config(t).WithMaxInstances(1).WithEncodings("r50k_base"))
	if err != nil {
		t.Fatal(err)
	}
	// With the only instance checked out, a call waits until its context
	// ends.
	in, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 20*time.Millisecond)
	defer cancel()
	if _, err := h.Count(short, "r50k_base", "x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting for a busy pool: %v", err)
	}
	if n, err := in.Count(ctx, "r50k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("Instance.Count = %d, %v", n, err)
	}
	var he *host.Error
	if _, err := in.Count(ctx, "o200k_base", "x"); !errors.Is(err, core.ErrEncodingNotLoaded) || !errors.As(err, &he) || he.Encoding != "o200k_base" {
		t.Errorf("an encoding the config left out: %#v", err)
	}
	out, err := in.Call(ctx, "countTokens", []byte(`{"encoding": "cl100k_base", "text": "x"}`))
	if err != nil || !strings.Contains(string(out), `"encoding":"cl100k_base"}}`) {
		t.Errorf("the JSON path's answer names the encoding to load: %s, %v", out, err)
	}
	in.Release()
	in.Release()
	if err := h.Close(ctx); err != nil {
		t.Fatal(err)
	}
	if err := h.Close(ctx); err != nil {
		t.Errorf("second Close: %v", err)
	}
	if _, err := h.Count(ctx, "r50k_base", "x"); !errors.Is(err, host.ErrClosed) {
		t.Errorf("Count after Close: %v", err)
	}
	if _, err := h.Call(ctx, "version", nil); !errors.Is(err, host.ErrClosed) {
		t.Errorf("Call after Close: %v", err)
	}
}

// TestHost_RetiresGrownInstances: an instance whose memory a big request
// grew past the limit is closed when it goes back to the pool, and the next
// call gets a fresh one.
func TestHost_RetiresGrownInstances(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1).WithEncodings("o200k_base").WithMaxInstanceMemory(64<<20))
	in, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	small := host.MemorySize(in)
	// version reads no request, but the request is copied into the
	// instance: 80 MB of it grows the memory past 64 MB.
	if _, err := in.Call(ctx, "version", make([]byte, 80<<20)); err != nil {
		t.Fatal(err)
	}
	if grown := host.MemorySize(in); grown < 80<<20 {
		t.Fatalf("memory %d MB after an 80 MB request", grown>>20)
	}
	in.Release()
	if n := host.IdleInstances(h); n != 0 {
		t.Fatalf("%d idle instances after releasing a grown one", n)
	}
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Fatalf("Count after retiring = %d, %v", n, err)
	}
	in, err = h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer in.Release()
	if m := host.MemorySize(in); m > small+(4<<20) {
		t.Errorf("fresh instance has %d MB, the first had %d MB", m>>20, small>>20)
	}
}
