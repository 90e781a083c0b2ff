// Package pretok splits text into the pieces that byte-pair encoding works on,
// exactly as the official tiktoken's regular expressions do, without a regexp.
//
// Each encoding family has a hand-written scanner that reproduces its
// pattern's leftmost-first alternation and backtracking: optional prefixes are
// tried first, `\s*[\r\n]+` ends after the last CR or LF of a whitespace run,
// `\s+(?!\S)` gives back the last whitespace character when a non-space
// follows, and case-insensitive contractions accept 'ſ (U+017F) for 's.
//
// A scanner reads each byte of its piece a constant number of times, so
// splitting a text is O(n) whatever it holds. Bytes that are not valid UTF-8
// are classed like U+FFFD (a symbol) and kept as they are.
package pretok

import (
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/pretok/classes"
)

// Next returns the end of the piece that starts at i; it requires i < len(s).
type Next func(s string, i int) int

const (
	letter  = classes.Letter
	number  = classes.Number
	space   = classes.Space
	upper   = classes.Upper
	lower   = classes.Lower
	newline = classes.Newline

	// other is [^\s\p{L}\p{N}] when none of these bits is set.
	notOther = letter | number | space
	// A prefix [^\r\n\p{L}\p{N}] is any character with none of these bits.
	notPrefix = letter | number | newline
)

// asciiClass holds the classes of the 128 ASCII code points.
var asciiClass = func() (t [128]uint8) {
	for r := range t {
		t[r] = stage2[int(stage1[0])<<blockBits|r]
	}
	return t
}()

// classAt returns the class of the character at s[i] and its size in bytes.
func classAt(s string, i int) (uint8, int) {
	if b := s[i]; b < utf8.RuneSelf {
		return asciiClass[b], 1
	}
	if r, n := decode23(s, i); n != 0 {
		return lookup(r), n
	}
	r, n := utf8.DecodeRuneInString(s[i:])
	if r == utf8.RuneError && n == 1 {
		return 0, 1 // an invalid byte: a symbol, like U+FFFD
	}
	return lookup(r), n
}

// decode23 decodes the valid two- or three-byte character at s[i], or
// returns n == 0 for anything else (ASCII, four bytes, invalid). Most
// scripts' letters are two or three bytes; decoding them here saves
// utf8.DecodeRuneInString's call, which in WebAssembly is most of a
// character's cost.
func decode23(s string, i int) (r rune, n int) {
	b := s[i]
	switch {
	case b >= 0xC2 && b < 0xE0 && i+1 < len(s) && s[i+1]&0xC0 == 0x80:
		return rune(b&0x1F)<<6 | rune(s[i+1]&0x3F), 2
	case b >= 0xE0 && b < 0xF0 && i+2 < len(s) && s[i+1]&0xC0 == 0x80 && s[i+2]&0xC0 == 0x80:
		r = rune(b&0x0F)<<12 | rune(s[i+1]&0x3F)<<6 | rune(s[i+2]&0x3F)
		if r >= 0x800 && (r < 0xD800 || r >= 0xE000) {
			return r, 3
		}
	}
	return 0, 0
}

func lookup(r rune) uint8 {
	return stage2[int(stage1[r>>blockBits])<<blockBits|int(r&(1<<blockBits-1))]
}

// run returns the end of the longest run of characters starting at i whose
// class has a bit of want.
func run(s string, i int, want uint8) int {
	for i < len(s) {
		if b := s[i]; b < utf8.RuneSelf {
			if asciiClass[b]&want == 0 {
				return i
			}
			i++
			continue
		}
		if r, n := decode23(s, i); n != 0 {
			if lookup(r)&want == 0 {
				return i
			}
			i += n
			continue
		}
		c, n := classAt(s, i)
		if c&want == 0 {
			return i
		}
		i += n
	}
	return i
}

// runOther returns the end of the longest run of [^\s\p{L}\p{N}] from i.
func runOther(s string, i int) int {
	for i < len(s) {
		c, n := classAt(s, i)
		if c&notOther != 0 {
			return i
		}
		i += n
	}
	return i
}

// runNumbers returns the end of at most max \p{N} characters from i.
func runNumbers(s string, i, max int) int {
	for ; max > 0 && i < len(s); max-- {
		c, n := classAt(s, i)
		if c&number == 0 {
			break
		}
		i += n
	}
	return i
}

// trail is a set of the bytes a pattern lets follow a run of symbols
// (` ?[^\s\p{L}\p{N}]+[\r\n]*`, o200k_base's `[\r\n/]*`), as bits of
// trailOf: one look-up a byte.
type trail uint8

const (
	newlines      trail = 1 // \r and \n
	newlinesSlash trail = 3 // \r, \n and /
)

var trailOf = [256]trail{'\r': 1, '\n': 1, '/': 2}

// runTrail returns the end of the longest run from i of bytes in set.
func runTrail(s string, i int, set trail) int {
	for i < len(s) && trailOf[s[i]]&set != 0 {
		i++
	}
	return i
}

// whitespace matches the whitespace alternatives that every pattern ends
// with, at a whitespace character i. With newlines (cl100k, o200k) it first
// tries `\s*[\r\n]+`; then `\s+(?!\S)` and `\s+`. ends, when not nil,
// says where else the text ends for (?!\S): DeepSeek splits before a number
// or a CJK character.
func whitespace(s string, i int, newlines bool, ends func(s string, j int) bool) int {
	j, last, lastNL, chars := i, i, -1, 0
	for j < len(s) {
		c, n := classAt(s, j)
		if c&space == 0 {
			break
		}
		if c&newline != 0 {
			lastNL = j
		}
		last = j
		j += n
		chars++
	}
	switch {
	case newlines && lastNL >= 0:
		return lastNL + 1 // \s* backtracks to the last CR or LF; [\r\n]+ takes it
	case j == len(s) || chars == 1 || ends != nil && ends(s, j):
		return j
	default:
		return last // \s+(?!\S) gives back the last whitespace character
	}
}

// contraction returns the end of a contraction ('s 't 're 've 'm 'll 'd) at i,
// or i when there is none. foldCase accepts upper case and 'ſ, as (?i:…) does.
func contraction(s string, i int, foldCase bool) int {
	if i+1 >= len(s) || s[i] != '\'' {
		return i
	}
	lc := func(b byte) byte {
		if foldCase && 'A' <= b && b <= 'Z' {
			return b + 'a' - 'A'
		}
		return b
	}
	switch lc(s[i+1]) {
	case 's', 't', 'm', 'd':
		return i + 2
	case 'r', 'v':
		if i+2 < len(s) && lc(s[i+2]) == 'e' {
			return i + 3
		}
	case 'l':
		if i+2 < len(s) && lc(s[i+2]) == 'l' {
			return i + 3
		}
	case 0xC5: // U+017F LATIN SMALL LETTER LONG S folds to s
		if foldCase && i+2 < len(s) && s[i+2] == 0xBF {
			return i + 3
		}
	}
	return i
}
