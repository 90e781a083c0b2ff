package host_test

import (
	"context"
	"fmt"
	"os"
	"strconv"
	"sync"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// TestHost_Concurrent runs 16 goroutines × 10,000 calls (fast path and JSON
// path mixed) against one Host and checks every answer against core. With
// -short the count drops to 300 per goroutine; TOKENFIT_CONCURRENT_CALLS
// sets it (make test-race runs the full size under -race).
func TestHost_Concurrent(t *testing.T) {
	const goroutines = 16
	calls := 10000
	if testing.Short() {
		calls = 300
	}
	if s := os.Getenv("TOKENFIT_CONCURRENT_CALLS"); s != "" {
		n, err := strconv.Atoi(s)
		if err != nil {
			t.Fatal("TOKENFIT_CONCURRENT_CALLS:", err)
		}
		calls = n
	}
	ctx := context.Background()
	h, err := host.New(ctx, config(t).WithMaxInstances(4))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close(ctx)
	encodings := core.EncodingNames()
	api := core.NewAPI()
	var wg sync.WaitGroup
	errs := make(chan error, goroutines)
	for g := range goroutines {
		wg.Go(func() {
			for i := range calls {
				name := encodings[(g+i)%len(encodings)]
				text := fmt.Sprintf("goroutine %d, call %d: héllo wörld 你好 %d", g, i, i*i)
				enc, _ := core.GetEncoding(name)
				if i%4 == 3 {
					req := []byte(fmt.Sprintf(`{"encoding":%q,"text":%q}`, name, text))
					got, err := h.Call(ctx, "countTokens", req)
					if want := api.Call("countTokens", req); err != nil || string(got) != string(want) {
						errs <- fmt.Errorf("g%d call %d: %s, %v; want %s", g, i, got, err, want)
						return
					}
					continue
				}
				n, err := h.Count(ctx, name, text)
				if want := enc.Count(text); err != nil || n != want {
					errs <- fmt.Errorf("g%d call %d: Count = %d, %v; want %d", g, i, n, err, want)
					return
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}
