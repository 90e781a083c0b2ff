package engine_test

import (
	"errors"
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/engine"
)

// texts are inputs where the engine's paths differ: whole-token words,
// long pieces, CJK, emoji, whitespace runs, special-token text, bad UTF-8.
var texts = []string{
	"", "Hello world", " ", "\n\n\t  x", "I'm here, they'll go", "你好，世界。日本語のテキスト",
	"👨‍👩‍👧‍👦 🇫🇷 ❤️", "<|endoftext|>", strings.Repeat("a", 3000), strings.Repeat("漢", 500),
	"func main() {\n\tfmt.Println(\"hi\")\n}\n", "\xff\xfe bad \xe4\xbd", strings.Repeat(" \n", 300),
}

func encodings(t *testing.T) []string {
	t.Helper()
	names := engine.Names()
	if got := core.EncodingNames(); strings.Join(got, ",") != strings.Join(names, ",") {
		t.Fatalf("engine knows %q, core %q", names, got)
	}
	return names
}

// both returns the engine's and core's encoding of a name, the engine's
// loaded from the same table core embeds.
func both(t *testing.T, name string) (*engine.Encoding, *core.Encoding) {
	t.Helper()
	c, err := core.GetEncoding(name)
	if err != nil {
		t.Fatal(err)
	}
	e, err := engine.Load(core.EncodingTable(name))
	if err != nil {
		t.Fatal(err)
	}
	if e.Name() != name {
		t.Fatalf("Load gave %q for %q", e.Name(), name)
	}
	if again, _ := engine.Get(name); again != e {
		t.Fatalf("Get(%q) is not the loaded encoding", name)
	}
	return e, c
}

func TestEngine_SameAsCore(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, name := range encodings(t) {
		e, c := both(t, name)
		for i, text := range texts {
			if got, want := e.Count(text), c.Count(text); got != want {
				t.Errorf("%s: Count(texts[%d]) = %d, core %d", name, i, got, want)
			}
			ids := e.AppendEncode(nil, text)
			want := c.Encode(text)
			if len(ids) != len(want) {
				t.Fatalf("%s: Encode(texts[%d]) has %d ids, core %d", name, i, len(ids), len(want))
			}
			ints := make([]int, len(ids))
			for k, id := range ids {
				ints[k] = int(id)
				if int(id) != want[k] {
					t.Fatalf("%s: Encode(texts[%d])[%d] = %d, core %d", name, i, k, id, want[k])
				}
			}
			got, err := e.AppendDecode(nil, ints)
			wantText, _ := c.Decode(ints)
			if err != nil || string(got) != wantText {
				t.Errorf("%s: Decode(Encode(texts[%d])) = %q, %v; core %q", name, i, got, err, wantText)
			}
			for _, limit := range []int{0, 1, 5, 100} {
				n, ok := e.WithinLimit(text, limit)
				wn, wok := c.WithinLimit(text, limit)
				if n != wn || ok != wok {
					t.Errorf("%s: WithinLimit(texts[%d], %d) = %d %v, core %d %v", name, i, limit, n, ok, wn, wok)
				}
				for _, end := range []bool{false, true} {
					side := core.KeepStart
					if end {
						side = core.KeepEnd
					}
					s, n := e.Truncate(text, limit, end)
					ws, wn := c.Truncate(text, limit, side)
					if s != ws || n != wn {
						t.Errorf("%s: Truncate(texts[%d], %d, %v) = %q %d, core %q %d", name, i, limit, end, s, n, ws, wn)
					}
				}
			}
		}
		// Random texts of several sizes.
		for _, size := range []int{10, 100, 1000} {
			for k := 0; k < 20; k++ {
				text := randomText(r, size)
				if got, want := e.Count(text), c.Count(text); got != want {
					t.Errorf("%s: Count(%q) = %d, core %d", name, text, got, want)
				}
			}
		}
	}
}

func TestEngine_Errors(t *testing.T) {
	cases := []struct {
		name string
		err  func() error
		want error // core's sentinel of the same meaning
	}{
		{"unknown", func() error { _, err := engine.Get("nope"); return err }, core.ErrUnknownEncoding},
		{"bad table", func() error { _, err := engine.Load([]byte("TKFT junk")); return err }, core.ErrInvalidTable},
		{"bad token", func() error {
			e, _ := engine.Load(core.EncodingTable("r50k_base"))
			_, err := e.AppendDecode(nil, []int{1, 1 << 30})
			return err
		}, core.ErrInvalidToken},
		{"live offset", func() error {
			e, _ := engine.Load(core.EncodingTable("o200k_base"))
			_, err := e.NewLive().Edit(5, 0, "x")
			return err
		}, core.ErrInvalidRequest},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.err()
			if err == nil {
				t.Fatal("no error")
			}
			if got, want := engine.Code(err), core.Code(tc.want); got != want {
				t.Errorf("code %q, core's %q", got, want)
			}
			if !strings.HasPrefix(err.Error(), tc.want.Error()) {
				t.Errorf("message %q does not start like core's %q", err, tc.want)
			}
		})
	}
	// The sentinels read the same as core's, and their codes are core's.
	for _, p := range []struct{ e, c error }{
		{engine.ErrUnknownEncoding, core.ErrUnknownEncoding}, {engine.ErrEncodingNotLoaded, core.ErrEncodingNotLoaded},
		{engine.ErrInvalidTable, core.ErrInvalidTable}, {engine.ErrInvalidRequest, core.ErrInvalidRequest},
		{engine.ErrInvalidToken, core.ErrInvalidToken},
	} {
		if p.e.Error() != p.c.Error() || engine.Code(p.e) != core.Code(p.c) {
			t.Errorf("%q (%s) differs from core's %q (%s)", p.e, engine.Code(p.e), p.c, core.Code(p.c))
		}
	}
	if engine.Code(errors.New("other")) != core.CodeInternal {
		t.Error("an unknown error is not internal")
	}
}

// TestLive_RandomEdits checks the live count against a full recount after
// every random edit, with UTF-16 offsets.
func TestLive_RandomEdits(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	e, _ := both(t, "o200k_base")
	l := e.NewLive()
	text := []uint16{}
	l.Reset("")
	for i := 0; i < 2000; i++ {
		at := r.IntN(len(text) + 1)
		del := r.IntN(min(8, len(text)-at) + 1)
		ins := randomText(r, r.IntN(12))
		n, err := l.Edit(at, del, ins)
		valid := validCut(text, at) && validCut(text, at+del)
		if !valid {
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
		if l.Text() != s || l.Len16() != len(text) {
			t.Fatalf("edit %d: text %q (%d units), want %q (%d)", i, l.Text(), l.Len16(), s, len(text))
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
