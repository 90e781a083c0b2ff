//go:build linux

package host_test

import (
	"context"
	"errors"
	"strings"
	"syscall"
	"testing"
	"unsafe"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// TestHost_InputOver4GiB: a text or request longer than 4 GiB is refused as
// invalid_argument before its length is cut to 32 bits (it used to become a
// 16-byte buffer and a module failure). The text is a mapping of untouched
// pages: it costs no memory.
func TestHost_InputOver4GiB(t *testing.T) {
	const n = 4<<30 + 16
	m, err := syscall.Mmap(-1, 0, n, syscall.PROT_READ, syscall.MAP_PRIVATE|syscall.MAP_ANON)
	if err != nil {
		t.Skip("cannot map 4 GiB here:", err)
	}
	defer syscall.Munmap(m)
	huge := unsafe.String(&m[0], n)
	h := sharedHost(t)
	ctx := context.Background()
	var he *host.Error
	if _, err := h.Count(ctx, "o200k_base", huge); !errors.As(err, &he) || he.Code != "invalid_argument" || !strings.Contains(he.Message, "4294967312 bytes") {
		t.Errorf("Count of 4 GiB + 16 bytes: %v", err)
	}
	if _, err := h.Call(ctx, "countTokens", m); !errors.As(err, &he) || he.Code != "invalid_argument" {
		t.Errorf("Call with 4 GiB + 16 bytes: %v", err)
	}
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Errorf("then Count = %d, %v", n, err)
	}
}

// TestMemory_Above2GiB: an instance whose memory has grown past 2 GiB, then
// to near 4 GiB, still reads its inputs and answers from the right place:
// every address and packed result is read unsigned. make test-long.
func TestMemory_Above2GiB(t *testing.T) {
	if !long() {
		t.Skip("make test-long: grows an instance to near 4 GiB")
	}
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1).WithEncodings("o200k_base"))
	in := instance(t, h)
	defer host.Retire(in) // its gigabytes go when it is released
	e, _ := core.GetEncoding("o200k_base")
	text := strings.Repeat("Hello world, over two gigabytes. ", 3000)
	check := func(when string) {
		t.Helper()
		if n, err := in.Count(ctx, "o200k_base", text); err != nil || n != e.Count(text) {
			t.Fatalf("%s: Count = %d, %v; want %d", when, n, err, e.Count(text))
		}
		ans, err := in.Call(ctx, "encode", []byte(`{"encoding": "o200k_base", "text": "`+text+`"}`))
		if err != nil || !strings.HasPrefix(string(ans), `{"ids":[`) {
			t.Fatalf("%s: encode: %.100s, %v", when, ans, err)
		}
		bad, err := in.Call(ctx, "nope", nil)
		if err != nil || !strings.Contains(string(bad), `"unknown_operation"`) {
			t.Fatalf("%s: an error answer: %.100s, %v", when, bad, err)
		}
		t.Logf("%s: memory %d MB, input buffer at %#x", when, host.MemorySize(in)>>20, host.TextAddress(in))
	}
	// Each step holds memory, then sends a request bigger than any hole
	// below, so that the input buffer (where Count and Call read their
	// text) is made above what is held.
	for _, step := range []struct {
		holds []uint32
		input int
		when  string
	}{
		{[]uint32{1 << 30, 1 << 30}, 64 << 20, "past 2 GiB"},
		{[]uint32{1 << 30, 512 << 20}, 160 << 20, "near 4 GiB"},
	} {
		for _, n := range step.holds {
			if _, err := host.Hold(ctx, in, n); err != nil {
				t.Fatalf("%s: holding %d MB: %v", step.when, n>>20, err)
			}
		}
		if _, err := in.Call(ctx, "version", make([]byte, step.input)); err != nil {
			t.Fatal(err)
		}
		if a := host.TextAddress(in); a < 2<<30 {
			t.Fatalf("%s: the input buffer is at %#x, below 2 GiB", step.when, a)
		}
		check(step.when)
	}
}

// TestMemory_OutOfMemory: an instance whose module runs out of memory (its
// own buffers held to 4 GiB, the most a 32-bit memory has, then more asked
// for) fails that call with ErrModule and the runtime's reason, answers
// nothing after, is closed when released, and the pool's next call is
// answered by a fresh instance. make test-long.
func TestMemory_OutOfMemory(t *testing.T) {
	if !long() {
		t.Skip("make test-long: grows an instance to 4 GiB")
	}
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(1).WithEncodings("o200k_base"))
	in, err := h.Instance(ctx)
	if err != nil {
		t.Fatal(err)
	}
	var failed error
	for i := 0; i < 8 && failed == nil; i++ {
		_, failed = host.Hold(ctx, in, 1<<30-(64<<10))
	}
	if !errors.Is(failed, host.ErrModule) || !strings.Contains(failed.Error(), "out of memory") {
		t.Fatalf("holding past 4 GiB: %v; want ErrModule saying out of memory", failed)
	}
	t.Logf("past 4 GiB (memory %d MB): %.200s", host.MemorySize(in)>>20, failed)
	if _, err := in.Count(ctx, "o200k_base", "Hello world"); !errors.Is(err, host.ErrModule) {
		t.Errorf("the failed instance answered Count: %v", err)
	}
	in.Release()
	if n := host.IdleInstances(h); n != 0 {
		t.Errorf("%d idle instances after releasing the failed one", n)
	}
	if n, err := h.Count(ctx, "o200k_base", "Hello world"); err != nil || n != 2 {
		t.Fatalf("the pool's next Count = %d, %v", n, err)
	}
}
