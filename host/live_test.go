package host_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/host"
)

// TestHost_LiveNeedsInstance: the pool refuses the live-counter operations
// (their counter would land on whichever instance served the call, where
// any caller could edit it); a checked-out Instance takes them.
func TestHost_LiveNeedsInstance(t *testing.T) {
	ctx := context.Background()
	// A Host of its own: the shared one's instances must not count
	// counters made here (TestParity compares their ids with core's).
	h := newHost(t, config(t).WithMaxInstances(1).WithEncodings("o200k_base"))
	for _, op := range []string{"liveNew", "liveEdit", "liveGet", "liveFree"} {
		if _, err := h.Call(ctx, op, []byte(`{"id": 1, "encoding": "o200k_base"}`)); !errors.Is(err, host.ErrNeedsInstance) {
			t.Errorf("%s on the pool: %v", op, err)
		}
	}
	in := instance(t, h)
	out, err := in.Call(ctx, "liveNew", []byte(`{"encoding": "o200k_base", "text": "Hello world"}`))
	if err != nil || !strings.Contains(string(out), `"tokens":2`) {
		t.Fatalf("liveNew on an Instance: %s, %v", out, err)
	}
}

// TestHost_LiveBound: an instance keeps at most engine.MaxLiveCounters
// live counters; one more is an invalid_request answer until one is freed.
func TestHost_LiveBound(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1).WithEncodings("o200k_base"))
	in := instance(t, h)
	req := []byte(`{"encoding": "o200k_base", "text": "x"}`)
	for i := range engine.MaxLiveCounters {
		if out, err := in.Call(ctx, "liveNew", req); err != nil || strings.HasPrefix(string(out), `{"error"`) {
			t.Fatalf("counter %d: %s, %v", i+1, out, err)
		}
	}
	out, err := in.Call(ctx, "liveNew", req)
	if err != nil || !strings.Contains(string(out), `"code":"invalid_request"`) || !strings.Contains(string(out), fmt.Sprint(engine.MaxLiveCounters)) {
		t.Fatalf("counter %d: %s, %v", engine.MaxLiveCounters+1, out, err)
	}
	if out, err := in.Call(ctx, "liveFree", []byte(`{"id": 7}`)); err != nil || !strings.Contains(string(out), `"freed":true`) {
		t.Fatalf("liveFree: %s, %v", out, err)
	}
	if out, err := in.Call(ctx, "liveNew", req); err != nil || strings.HasPrefix(string(out), `{"error"`) {
		t.Errorf("after a free: %s, %v", out, err)
	}
}
