package core

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"unicode/utf8"
)

func corpusTexts(t testing.TB) map[string]string {
	files, _ := filepath.Glob("../testdata/corpus/*.txt")
	sort.Strings(files)
	out := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		out[filepath.Base(f)] = string(b)
	}
	return out
}

func checkChunks(t *testing.T, name string, tok Tokenizer, text string, req ChunkRequest, a ChunkAnswer) {
	t.Helper()
	text = ValidUTF8(text) // what the chunks hold
	if len(text) > 0 && len(a.Chunks) == 0 {
		t.Fatalf("%s: no chunks", name)
	}
	var joined strings.Builder
	prevEnd := 0
	for i, c := range a.Chunks {
		if c.Text != text[c.Start:c.End] || c.End <= c.Start {
			t.Fatalf("%s: chunk %d [%d,%d) does not match its text", name, i, c.Start, c.End)
		}
		if n := tok.Count(c.Text); n != c.Tokens || tok.Upper(n) > req.MaxTokens && utf8.RuneCountInString(c.Text) != 1 {
			t.Fatalf("%s: chunk %d has %d tokens (reported %d), max %d", name, i, n, c.Tokens, req.MaxTokens)
		}
		if req.Overlap == 0 && c.Start != prevEnd {
			t.Fatalf("%s: chunk %d starts at %d, the previous ended at %d", name, i, c.Start, prevEnd)
		}
		if i > 0 && (c.Start <= a.Chunks[i-1].Start || c.End <= a.Chunks[i-1].End) {
			t.Fatalf("%s: chunk %d does not move forward", name, i)
		}
		if c.Start < prevEnd && req.Overlap == 0 {
			t.Fatalf("%s: overlap without asking", name)
		}
		joined.WriteString(text[max(c.Start, prevEnd):c.End])
		prevEnd = c.End
	}
	if joined.String() != text {
		t.Fatalf("%s: the chunks do not add back up to the text", name)
	}
}

func TestChunk_Corpus(t *testing.T) {
	reg := DefaultRegistry()
	rng := rand.New(rand.NewPCG(1, 2))
	for name, text := range corpusTexts(t) {
		for _, target := range []Target{{Encoding: "o200k_base"}, {Encoding: "cl100k_base"}, {Encoding: "r50k_base"}, {Model: "claude-sonnet-4-5"}} {
			max := 8 + rng.IntN(300)
			for _, overlap := range []int{0, max / 4} {
				req := ChunkRequest{Target: target, Text: text, MaxTokens: max, Overlap: overlap}
				a, err := reg.Chunk(req)
				if err != nil {
					t.Fatal(err)
				}
				tok, _, _ := reg.target(target)
				checkChunks(t, name, tok, text, req, a)
			}
		}
	}
}

func TestChunk_PrefersBoundaries(t *testing.T) {
	para := strings.Repeat("The budget keeps the newest turns. ", 6)
	text := strings.Repeat(para+"\n\n", 20)
	a, err := DefaultRegistry().Chunk(ChunkRequest{Text: text, MaxTokens: 100})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range a.Chunks[:len(a.Chunks)-1] {
		if c.Cut != "paragraph" || !strings.HasSuffix(c.Text, "\n\n") {
			t.Errorf("chunk ends with %q (%s), want a paragraph break", c.Text[len(c.Text)-10:], c.Cut)
		}
	}
	a, _ = DefaultRegistry().Chunk(ChunkRequest{Text: strings.Repeat("One sentence here. ", 100), MaxTokens: 50})
	if c := a.Chunks[0]; c.Cut != "sentence" || !strings.HasSuffix(c.Text, ".") {
		t.Errorf("chunk ends %q (%s), want a sentence end", c.Text, c.Cut)
	}
	a, _ = DefaultRegistry().Chunk(ChunkRequest{Text: strings.Repeat("x", 5000), MaxTokens: 30})
	if c := a.Chunks[0]; c.Cut != "token" || c.Tokens > 30 {
		t.Errorf("unbroken text: %+v", c)
	}
}

func TestChunk_Edges(t *testing.T) {
	reg := DefaultRegistry()
	// A chunk exceeds maxTokens only when it is one character of more
	// tokens. The audit found " I'" of "DON'T I'M" as a chunk of 2 tokens
	// for maxTokens 1: one token of the whole text, two on its own.
	for _, text := range []string{"", "a", "😀", strings.Repeat("😀", 50), strings.Repeat("\n", 300), "🏳️‍🌈🏳️‍🌈🏳️‍🌈",
		"DON'T I'M He'S", "𠀀𠀁𪜀𫝀𬺰 𠮷野家", "ភាសាខ្មែរគ្មានដកឃ្លា", "\u1100\u1161\u11a8 각", "👨‍👩‍👧‍👦👩🏽‍💻🇺🇳 1️⃣",
		strings.Repeat("Z\u0337\u0327\u031b\u0308", 6), "a\xffb\xc3", "line\r\n\r\n  x\t\ty 12345678901234"} {
		for _, name := range EncodingNames() {
			enc, _ := GetEncoding(name)
			for _, max := range []int{1, 2, 3, 7} {
				for _, overlap := range []int{0, max / 2} {
					req := ChunkRequest{Target: Target{Encoding: name}, Text: text, MaxTokens: max, Overlap: overlap}
					a, err := reg.Chunk(req)
					if err != nil {
						t.Fatal(err)
					}
					checkChunks(t, fmt.Sprintf("%s %q max %d overlap %d", name, text, max, overlap), enc, text, req, a)
				}
			}
		}
	}
	for _, req := range []ChunkRequest{{Text: "x", MaxTokens: 0}, {Text: "x", MaxTokens: 10, Overlap: 6}, {Text: "x", MaxTokens: 10, Target: Target{Encoding: "chars4"}}} {
		if _, err := reg.Chunk(req); !errors.Is(err, ErrInvalidRequest) {
			t.Errorf("%+v: %v", req, err)
		}
	}
}

// TestChunkJSON: chunkJSON measures each chunk as the answer writes it,
// so that chunk's check as it cuts is the answer's size.
func TestChunkJSON(t *testing.T) {
	r := DefaultRegistry()
	for _, text := range []string{"Hello world", strings.Repeat("a \"quoted\" \\ line\n\ttab <&> \x01 \u2028 é 👩‍👩‍👧. ", 300)} {
		ans, err := r.Chunk(ChunkRequest{Text: text, MaxTokens: 7, Overlap: 3})
		if err != nil {
			t.Fatal(err)
		}
		b, err := marshal(ans)
		if err != nil {
			t.Fatal(err)
		}
		c, _ := marshal(ChunkAnswer{Chunks: []Chunk{}, Counted: ans.Counted})
		want := len(b) - len(c) + 1 // the comma after the last
		got := 0
		for _, c := range ans.Chunks {
			got += chunkJSON(c.Text, c.Start, c.End, c.Tokens, c.Cut)
		}
		if got != want {
			t.Errorf("%d chunks measured %d bytes, written in %d", len(ans.Chunks), got, want)
		}
	}
}
