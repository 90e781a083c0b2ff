package pretok

import (
	"unicode"
	"unicode/utf8"
)

// DeepSeek splits like the tokenizer.json of DeepSeek V3 and R1: three Split
// pre-tokenizers in sequence, each isolating its matches within the pieces
// of the one before,
//
//	\p{N}{1,3}
//	[一-龥぀-ゟ゠-ヿ]+
//	[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_`{|}~][A-Za-z]+|[^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+|
//	 ?[\p{P}\p{S}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// so numbers (up to three digits) and runs of CJK ideographs and kana are
// pieces of their own, and the third pattern runs on what lies between,
// where a number or a CJK character ends the text: \s+(?!\S) takes a whole
// whitespace run before one. Characters the third pattern does not match
// are pieces of their own, as long as the next match. \p{P} and \p{S} come
// from Go's unicode tables (15.0), the other classes from pretok's.
func DeepSeek(s string, i int) int {
	c, n := classAt(s, i)
	if c&number != 0 {
		return runNumbers(s, i+n, 2)
	}
	if cjkAt(s, i) {
		j := i
		for j < len(s) && cjkAt(s, j) {
			_, m := utf8.DecodeRuneInString(s[j:])
			j += m
		}
		return j
	}
	if e := deepseekMatch(s, i); e > i {
		return e
	}
	j := i + n
	for j < len(s) && !dsBoundary(s, j) && deepseekMatch(s, j) == j {
		_, m := classAt(s, j)
		j += m
	}
	return j
}

// cjkAt reports whether the character at i is in [一-龥぀-ゟ゠-ヿ].
func cjkAt(s string, i int) bool {
	if s[i] < 0xE3 || s[i] > 0xE9 {
		return false
	}
	r, _ := utf8.DecodeRuneInString(s[i:])
	return r >= 0x4E00 && r <= 0x9FA5 || r >= 0x3040 && r <= 0x30FF
}

// dsBoundary reports whether the character at i ends the third pattern's
// text: a number or a CJK character.
func dsBoundary(s string, i int) bool {
	c, _ := classAt(s, i)
	return c&number != 0 || cjkAt(s, i)
}

// punctSymbol reports \p{P} or \p{S} at i; a byte that is not UTF-8 counts
// as U+FFFD, a symbol.
func punctSymbol(s string, i int) (bool, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiPS[b], 1
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	return unicode.IsPunct(r) || unicode.IsSymbol(r), n
}

// asciiPS marks ASCII punctuation and symbols: the printable bytes that are
// neither letters, digits nor the space. A literal, so that programs that
// never split DeepSeek's way link no Unicode tables for it.
var asciiPS = [128]bool{
	'!': true, '"': true, '#': true, '$': true, '%': true, '&': true, '\'': true, '(': true, ')': true,
	'*': true, '+': true, ',': true, '-': true, '.': true, '/': true, ':': true, ';': true, '<': true,
	'=': true, '>': true, '?': true, '@': true, '[': true, '\\': true, ']': true, '^': true, '_': true,
	'`': true, '{': true, '|': true, '}': true, '~': true,
}

// letterMark reports [\p{L}\p{M}] at i, CJK characters excluded.
func letterMark(s string, i int) (bool, int) {
	c, n := classAt(s, i)
	return c&(upper|lower) != 0 && !cjkAt(s, i), n
}

// deepseekMatch returns the end of the third pattern's match at i, or i.
func deepseekMatch(s string, i int) int {
	// [!"#…~][A-Za-z]+
	if b := s[i]; b < utf8.RuneSelf && asciiPS[b] && i+1 < len(s) && asciiLetter[s[i+1]] != 0 {
		j := i + 2
		for j < len(s) && asciiLetter[s[j]] != 0 {
			j++
		}
		return j
	}
	// [^\r\n\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+
	c, n := classAt(s, i)
	ps, _ := punctSymbol(s, i)
	if c&(letter|newline|number) == 0 && !ps && !cjkAt(s, i) && i+n < len(s) {
		if ok, _ := letterMark(s, i+n); ok {
			return runLetterMark(s, i+n)
		}
	}
	if ok, _ := letterMark(s, i); ok {
		return runLetterMark(s, i)
	}
	// ' ?[\p{P}\p{S}]+[\r\n]*'
	j := i
	if s[j] == ' ' && j+1 < len(s) {
		if ok, _ := punctSymbol(s, j+1); ok {
			j++
		}
	}
	if ok, _ := punctSymbol(s, j); ok && !cjkAt(s, j) {
		for j < len(s) {
			ok, m := punctSymbol(s, j)
			if !ok || cjkAt(s, j) {
				break
			}
			j += m
		}
		return runTrail(s, j, newlines)
	}
	if c&space == 0 {
		return i
	}
	// \s*[\r\n]+|\s+(?!\S)|\s+, where a number or CJK character ends the text
	return whitespace(s, i, true, dsBoundary)
}

func runLetterMark(s string, j int) int {
	for j < len(s) {
		ok, m := letterMark(s, j)
		if !ok {
			break
		}
		j += m
	}
	return j
}
