package host_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/host"
)

// slowText takes seconds to count in the module (one piece as long as the
// text): a call that only a context can cut short.
var slowText = strings.Repeat("a", 2<<20)

// TestDeadline_Call: a context that ends during a call ends the call for
// its caller at once. By default the work goes on in the background and the
// next call takes another instance; WithCloseOnContextDone stops it, and
// retires its instance.
func TestDeadline_Call(t *testing.T) {
	ctx := context.Background()
	for _, stop := range []bool{false, true} {
		h := newHost(t, config(t).WithCloseOnContextDone(stop).WithMaxInstances(2).WithEncodings("o200k_base"))
		for _, tc := range []struct {
			name string
			run  func(ctx context.Context) error
		}{
			{"Count", func(ctx context.Context) error { _, err := h.Count(ctx, "o200k_base", slowText); return err }},
			{"Call", func(ctx context.Context) error {
				_, err := h.Call(ctx, "countTokens", []byte(`{"encoding": "o200k_base", "text": "`+slowText+`"}`))
				return err
			}},
		} {
			t.Run(fmt.Sprintf("%s/stop=%v", tc.name, stop), func(t *testing.T) {
				short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
				defer cancel()
				t0 := time.Now()
				err := tc.run(short)
				if !errors.Is(err, context.DeadlineExceeded) {
					t.Fatalf("error %v, want one wrapping context.DeadlineExceeded", err)
				}
				t.Logf("returned %v past a 50 ms deadline", (time.Since(t0) - 50*time.Millisecond).Round(time.Millisecond))
				if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
					t.Errorf("the next call: %d, %v", n, err)
				}
			})
		}
	}
}

// TestDeadline_Instance: WithCloseOnContextDone, a call on a checked-out
// Instance is stopped when its context ends; the Instance then refuses
// calls (ErrModule) and is retired when released.
func TestDeadline_Instance(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithCloseOnContextDone(true).WithMaxInstances(1).WithEncodings("o200k_base"))
	in, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if _, err := in.Count(short, "o200k_base", slowText); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("stopped call: %v", err)
	}
	if _, err := in.Count(ctx, "o200k_base", "x"); !errors.Is(err, host.ErrModule) {
		t.Errorf("a call on the stopped Instance: %v", err)
	}
	in.Release()
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("the next call: %d, %v", n, err)
	}
}

// TestDeadline_Ended: a context that has already ended gets its error, and
// no instance runs anything for it, even when one is idle.
func TestDeadline_Ended(t *testing.T) {
	h := sharedHost(t)
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := h.Count(ctx, "o200k_base", "x"); !errors.Is(err, context.Canceled) {
		t.Errorf("Count: %v", err)
	}
	if _, err := h.Call(ctx, "version", nil); !errors.Is(err, context.Canceled) {
		t.Errorf("Call: %v", err)
	}
	if _, err := h.Instance(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Instance: %v", err)
	}
}

// TestDeadline_Wait: a call waiting behind a long one for the only instance
// gives up when its context ends, not when the long call does.
func TestDeadline_Wait(t *testing.T) {
	ctx := context.Background()
	h := newHost(t, config(t).WithCloseOnContextDone(true).WithMaxInstances(1).WithEncodings("o200k_base"))
	long, stop := context.WithCancel(ctx)
	started := make(chan struct{})
	var wg sync.WaitGroup
	wg.Go(func() {
		in, err := h.Instance(long)
		close(started)
		if err != nil {
			return
		}
		defer in.Release()
		in.Count(long, "o200k_base", slowText)
	})
	<-started
	short, cancel := context.WithTimeout(ctx, 10*time.Millisecond)
	defer cancel()
	t0 := time.Now()
	if _, err := h.Count(short, "o200k_base", "x"); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("waiting: %v", err)
	}
	t.Logf("returned %v after a 10 ms deadline", time.Since(t0).Round(time.Millisecond))
	stop()
	wg.Wait()
}

// TestClose_WhileBusy: Close with a call under way returns when its
// context ends; calls from then on get ErrClosed; the runtime closes when
// the call ends.
func TestClose_WhileBusy(t *testing.T) {
	ctx := context.Background()
	h, err := host.New(ctx, config(t).WithCloseOnContextDone(true).WithMaxInstances(2).WithEncodings("o200k_base"))
	if err != nil {
		t.Fatal(err)
	}
	long, stop := context.WithCancel(ctx)
	defer stop()
	running := make(chan struct{})
	callErr := make(chan error, 1)
	go func() {
		in, err := h.Instance(ctx)
		if err != nil {
			close(running)
			callErr <- err
			return
		}
		close(running)
		_, err = in.Count(long, "o200k_base", slowText)
		in.Release()
		callErr <- err
	}()
	<-running
	short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer cancel()
	if err := h.Close(short); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Close with a call under way: %v", err)
	}
	if _, err := h.Count(ctx, "o200k_base", "x"); !errors.Is(err, host.ErrClosed) {
		t.Errorf("Count after Close: %v", err)
	}
	stop()
	if err := <-callErr; !errors.Is(err, context.Canceled) {
		t.Errorf("the call under way: %v", err)
	}
	if err := h.Close(ctx); err != nil {
		t.Errorf("Close after the call ended: %v", err)
	}
}

// TestClose_InstanceHeld: with an Instance checked out and Close pending,
// the goroutine holding the Instance still gets answers from it, its calls
// through the Host get ErrClosed at once (no deadlock), and releasing the
// Instance lets Close finish.
func TestClose_InstanceHeld(t *testing.T) {
	ctx := context.Background()
	h, err := host.New(ctx, config(t).WithMaxInstances(2).WithEncodings("o200k_base"))
	if err != nil {
		t.Fatal(err)
	}
	in, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	closed := make(chan error, 1)
	go func() { closed <- h.Close(ctx) }()
	deadline := time.Now().Add(10 * time.Second)
	for {
		_, err := h.Count(ctx, "o200k_base", "x")
		if errors.Is(err, host.ErrClosed) {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("Count through the Host while Close is pending: %v", err)
		}
		time.Sleep(time.Millisecond)
	}
	if n, err := in.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("the held Instance: %d, %v", n, err)
	}
	select {
	case err := <-closed:
		t.Fatalf("Close returned %v with an Instance checked out", err)
	case <-time.After(20 * time.Millisecond):
	}
	in.Release()
	if err := <-closed; err != nil {
		t.Errorf("Close: %v", err)
	}
}
