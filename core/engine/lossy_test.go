package engine

import (
	"strings"
	"testing"
	"unicode/utf8"
)

// TestLossyUTF8_Standard: the Unicode Standard's examples of U+FFFD
// substitution of maximal subparts (Tables 3-8 to 3-11 of §3.9), which
// TextDecoder and tiktoken's decode give too.
func TestLossyUTF8_Standard(t *testing.T) {
	const r = "\uFFFD"
	for _, tc := range []struct{ in, want string }{
		{"\x61\xF1\x80\x80\xE1\x80\xC2\x62\x80\x63\x80\xBF\x64", "a" + r + r + r + "b" + r + "c" + r + r + "d"}, // Table 3-8
		{"\xC0\xAF\xE0\x80\xBF\xF0\x81\x82\x41", strings.Repeat(r, 8) + "A"},                                    // non-shortest forms
		{"\xED\xA0\x80\xED\xBF\xBF\xED\xAF\x41", strings.Repeat(r, 8) + "A"},                                    // surrogates
		{"\xF4\x91\x92\x93\xFF\x41\x80\xBF\x42", strings.Repeat(r, 5) + "A" + r + r + "B"},                      // past U+10FFFF, FF, lone continuations
		{"\xE1\x80\xE2\xF0\x91\x92\xF1\xBF\x41", strings.Repeat(r, 4) + "A"},                                    // truncated sequences
		{"\xF0\x9F", r}, {"\xF0\x9F\x91", r}, {"x\xF0\x9F\x91\x8D\xF0\x9F", "x👍" + r}, {"\x8D", r},
		{"\xF4\x8F\xBF", r}, {"\xEF\xBF", r}, {"\xED\x9F", r}, {"\xE0\xA0", r}, {"\xC2", r},
		{"", ""}, {"héllo 👍", "héllo 👍"},
	} {
		if got := LossyUTF8(tc.in); got != tc.want {
			t.Errorf("LossyUTF8(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

// TestLossyUTF8_Valid: every two- and three-byte string becomes valid
// UTF-8, keeps the valid ones as they are, and gives at most one U+FFFD
// per byte and at least one per run of bytes ValidUTF8 replaces.
func TestLossyUTF8_Valid(t *testing.T) {
	var buf [3]byte
	for x := 0; x < 1<<24; x += 61 {
		buf[0], buf[1], buf[2] = byte(x>>16), byte(x>>8), byte(x)
		for _, s := range []string{string(buf[:2]), string(buf[:])} {
			got := LossyUTF8(s)
			if !utf8.ValidString(got) || (utf8.ValidString(s) && got != s) {
				t.Fatalf("LossyUTF8(%q) = %q", s, got)
			}
			if n, per := strings.Count(got, "\uFFFD")-strings.Count(s, "\uFFFD"), strings.Count(ValidUTF8(s), "\uFFFD")-strings.Count(s, "\uFFFD"); n > per || (per > 0 && n == 0) {
				t.Fatalf("LossyUTF8(%q) = %q: %d replacements, ValidUTF8 %d", s, got, n, per)
			}
		}
	}
}
