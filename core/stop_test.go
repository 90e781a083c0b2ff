package core_test

import (
	"errors"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
)

// TestDoUntil: a call whose done channel is closed stops with ErrStopped,
// before it starts or at its next check, and the API answers the next
// call; an open channel changes nothing.
func TestDoUntil(t *testing.T) {
	api := core.NewAPI()
	closed := make(chan struct{})
	close(closed)
	if _, err := api.DoUntil(closed, "countTokens", []byte(`{"text": "a"}`)); !errors.Is(err, core.ErrStopped) {
		t.Fatalf("done before the call: %v", err)
	}
	// Chunks of a text that takes far longer to cut than the 20 ms the
	// call is given. In WebAssembly a call holds the only thread, so no
	// timer closes the channel while it runs: the hosts there stop a call
	// from outside the module (serve --stop-abandoned), not through done.
	if runtime.GOARCH == "wasm" {
		return
	}
	req := []byte(`{"maxTokens": 64, "overlap": 32, "text": "` + strings.Repeat("Counting tokens before the request is sent. ", 200000) + `"}`)
	done := make(chan struct{})
	time.AfterFunc(20*time.Millisecond, func() { close(done) })
	if out, err := api.DoUntil(done, "chunk", req); !errors.Is(err, core.ErrStopped) {
		t.Fatalf("done during the call: %.100s, %v", out, err)
	}
	open := make(chan struct{})
	want, _ := api.Do("countChat", []byte(`{"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello"}]}`))
	if got, err := api.DoUntil(open, "countChat", []byte(`{"model": "gpt-4o", "messages": [{"role": "user", "content": "Hello"}]}`)); err != nil || string(got) != string(want) {
		t.Fatalf("an open channel: %s, %v; Do: %s", got, err, want)
	}
}
