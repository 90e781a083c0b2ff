package engine

import "unicode/utf8"

// LossyUTF8 returns text with each maximal subpart of an ill-formed UTF-8
// sequence replaced by one U+FFFD, and text itself when it is valid: the
// Unicode Standard's recommended practice (§3.9, "U+FFFD Substitution of
// Maximal Subparts"), which the WHATWG TextDecoder, Python's
// errors="replace" and Rust's String::from_utf8_lossy follow. It is the
// rule for the text of decoded ids, so that a decode equals the official
// tiktoken's (a character cut after its first two bytes is one U+FFFD,
// not two); ValidUTF8, one U+FFFD per byte, stays the rule for input.
// Cost: O(n); allocates only for invalid text.
func LossyUTF8(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	b := make([]byte, 0, len(text)+len(text)/2)
	for i := 0; i < len(text); {
		if r, n := utf8.DecodeRuneInString(text[i:]); r != utf8.RuneError || n > 1 {
			b = append(b, text[i:i+n]...)
			i += n
			continue
		}
		b = append(b, "\uFFFD"...)
		i += maximalSubpart(text[i:])
	}
	return string(b)
}

// maximalSubpart is the length of the longest start of s that is also the
// start of a well-formed sequence, at least 1 (the Unicode Standard's Table
// 3-7 gives the bytes allowed after each first byte); s does not start with
// a whole character.
func maximalSubpart(s string) int {
	need, lo, hi := 0, byte(0x80), byte(0xBF)
	switch c := s[0]; {
	case c >= 0xC2 && c <= 0xDF:
		need = 1
	case c == 0xE0:
		need, lo = 2, 0xA0
	case c == 0xED:
		need, hi = 2, 0x9F
	case c >= 0xE1 && c <= 0xEF:
		need = 2
	case c == 0xF0:
		need, lo = 3, 0x90
	case c == 0xF4:
		need, hi = 3, 0x8F
	case c >= 0xF1 && c <= 0xF3:
		need = 3
	}
	n := 1
	for n <= need && n < len(s) && s[n] >= lo && s[n] <= hi {
		n++
		lo, hi = 0x80, 0xBF
	}
	return n
}
