package core

import (
	"errors"
	"strings"
	"testing"
	"unicode/utf16"
	"unicode/utf8"
)

// FuzzLive edits a live counter as the fuzzer says and holds its count to a
// full count of the same text after every edit, in bytes and in UTF-16
// units. Text that is not UTF-8 is held as ValidUTF8 makes it, as every
// count does. A refused edit changes nothing, and is refused exactly when
// its offsets are bad.
func FuzzLive(f *testing.F) {
	f.Add("Hello world", []byte{5, 0, 1, 0, 3, 2}, uint8(0))
	f.Add("they're here", []byte{4, 0, 2, 7, 1, 0}, uint8(1))
	f.Add("a\xffb\xc3 x", []byte{1, 1, 3, 2, 0, 5}, uint8(2))
	f.Add(strings.Repeat("word ", 50)+"\n\n  end", []byte{100, 3, 4, 200, 0, 6, 7, 9, 1}, uint8(3))
	f.Add("😀漢字 😀", []byte{1, 1, 0, 2, 2, 2}, uint8(0))
	inserts := []string{"", " ", "a", "'re", "\n", "  ", "😀", "漢", "1", "ab cd", "\xff", "\u0301", "'s", ".", "\r\n", "x"}
	f.Fuzz(func(t *testing.T, text string, edits []byte, enc uint8) {
		name := EncodingNames()[int(enc)%len(EncodingNames())]
		e, err := GetEncoding(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, units := range []Units{Bytes, UTF16} {
			l := e.NewLiveCounter(units)
			if n := l.Reset(text); n != e.Count(text) {
				t.Fatalf("%s: Reset(%q) = %d, want %d", name, text, n, e.Count(text))
			}
			cur := ValidUTF8(text)
			for k := 0; k+2 < len(edits); k += 3 {
				ins := inserts[int(edits[k+2])%len(inserts)]
				size := len(cur)
				if units == UTF16 {
					size = len(utf16.Encode([]rune(cur)))
				}
				at := int(edits[k]) % (size + 2) // one past the end is refused
				del := int(edits[k+1]) % 4
				next, ok := applyEdit(cur, units, at, del, ins)
				n, err := l.Edit(at, del, ins)
				if ok != (err == nil) {
					t.Fatalf("%s %v: Edit(%d, %d, %q) on %q: error %v, want ok=%v", name, units, at, del, ins, cur, err, ok)
				}
				if err != nil {
					if !errors.Is(err, ErrInvalidRequest) || n != e.Count(cur) {
						t.Fatalf("%s: a refused edit: %v, count %d", name, err, n)
					}
					continue
				}
				cur = next
				if want := e.Count(cur); n != want || l.Count() != want || l.Text() != cur {
					t.Fatalf("%s %v: after Edit(%d, %d, %q): count %d (text %q), want %d (text %q)", name, units, at, del, ins, n, l.Text(), want, cur)
				}
			}
		}
	})
}

// applyEdit is the edit done on a string, and whether the counter must
// accept it.
func applyEdit(s string, units Units, at, del int, ins string) (string, bool) {
	if units == UTF16 {
		u := utf16.Encode([]rune(s))
		if at+del > len(u) || inPair(u, at) || inPair(u, at+del) {
			return s, false
		}
		return string(utf16.Decode(u[:at])) + ValidUTF8(ins) + string(utf16.Decode(u[at+del:])), true
	}
	boundary := func(p int) bool { return p == 0 || p == len(s) || p < len(s) && utf8.RuneStart(s[p]) }
	if at+del > len(s) || !boundary(at) || !boundary(at+del) {
		return s, false
	}
	return s[:at] + ValidUTF8(ins) + s[at+del:], true
}

// inPair reports whether offset p falls between the halves of a surrogate
// pair.
func inPair(u []uint16, p int) bool {
	return p > 0 && p < len(u) && utf16.IsSurrogate(rune(u[p])) && u[p] >= 0xDC00
}
