package host_test

import (
	"context"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
)

// streamText is a text of about 6 MB, over the length the host streams,
// whose long runs (spaces, digits, letters, emoji, CJK, newlines) cross the
// 1 MB parts it is written in, some of them cut inside a character.
func streamText() string {
	var b strings.Builder
	runs := []string{" ", "7", "a", "Z", "👍🏽", "漢字", "\r\n", "ab ", "é", ".,", "\u200d"}
	for i := 0; b.Len() < 6<<20; i++ {
		r := runs[i%len(runs)]
		b.WriteString(strings.Repeat(r, 1+(i*7919)%40000/len(r)))
		b.WriteString("Hello, world: 12,345 tokens. ")
	}
	return b.String()
}

// TestHost_Stream: a long text is counted, and checked against limits,
// through a stream counter in parts, with the answers core gives for the
// whole text: the count, and WithinLimit's answer (verdict and count where
// it stopped) at limits from 0 to past the count, by encoding and by model.
func TestHost_Stream(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	h := sharedHost(t)
	text := streamText()
	reg := core.NewAPI().Registry()
	for _, name := range []string{"o200k_base", "cl100k_base"} {
		e, err := core.GetEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		want := e.Count(text)
		if n, err := h.Count(ctx, name, text); err != nil || n != want {
			t.Errorf("%s: Count = %d, %v; want %d", name, n, err, want)
		}
		for _, limit := range []int{0, 1, 1000, want / 2, want - 1, want, want + 1} {
			req := core.LimitRequest{Target: core.Target{Encoding: name}, Text: text, Limit: limit}
			if name == "o200k_base" && limit%2 == 1 {
				req.Target = core.Target{Model: "gpt-4o"}
			}
			wantA, err := reg.WithinLimit(req)
			if err != nil {
				t.Fatal(err)
			}
			a, err := h.WithinLimit(ctx, req)
			if err != nil || a != wantA {
				t.Errorf("%s: WithinLimit(limit %d) = %+v, %v; want %+v", name, limit, a, err, wantA)
			}
		}
	}
}
