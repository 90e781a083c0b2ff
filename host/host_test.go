package host_test

import (
	"context"
	"errors"
	"testing"

	"github.com/tokenfit/tokenfit/core"
)

func TestHost_Count(t *testing.T) {
	ctx := context.Background()
	h := sharedHost(t)
	for _, tc := range []struct {
		name, encoding, text string
	}{
		{"hello", "o200k_base", "Hello world"},
		{"empty", "cl100k_base", ""},
		{"special text", "cl100k_base", "<|endoftext|>"},
		{"cjk", "o200k_base", "こんにちは世界、これはテストです。"},
		{"p50k", "p50k_base", "    def f(x):\n        return x"},
		{"r50k", "r50k_base", "Hello world"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e, err := core.GetEncoding(tc.encoding)
			if err != nil {
				t.Fatal(err)
			}
			got, err := h.Count(ctx, tc.encoding, tc.text)
			if err != nil {
				t.Fatal(err)
			}
			if want := e.Count(tc.text); got != want {
				t.Errorf("Count = %d, want %d", got, want)
			}
		})
	}
	if _, err := h.Count(ctx, "o300k", "x"); !errors.Is(err, core.ErrUnknownEncoding) {
		t.Errorf("unknown encoding: %v", err)
	}
}
