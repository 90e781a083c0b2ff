package pretok

import (
	"runtime"
	"unicode/utf8"
)

// GPT2 splits like r50k_base and p50k_base:
//
//	's|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+
//
// In WebAssembly Count takes its pieces from GPT2Pieces (swar_cl100k.go),
// which calls GPT2 where the eight-byte window does not decide.
func GPT2(s string, i int) int {
	if asciiStart(s, i) {
		if e := asciiLetters(s, i, prefixGPT2); e > 0 {
			return e
		}
		if e := asciiRestGPT2(s, i); e > 0 {
			return e
		}
	}
	if e := contraction(s, i, false); e > i {
		return e
	}
	if s[i] == ' ' && i+1 < len(s) {
		c, n := classAt(s, i+1)
		switch {
		case c&letter != 0:
			return run(s, i+1+n, letter)
		case c&number != 0:
			return run(s, i+1+n, number)
		case c&notOther == 0:
			return runOther(s, i+1+n)
		}
	}
	c, n := classAt(s, i)
	switch {
	case c&letter != 0:
		return run(s, i+n, letter)
	case c&number != 0:
		return run(s, i+n, number)
	case c&notOther == 0:
		return runOther(s, i+n)
	}
	return whitespace(s, i, false, nil)
}

// Cl100k splits like cl100k_base:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// In WebAssembly Count takes its pieces from Cl100kPieces (swar_cl100k.go),
// which calls Cl100k where the eight-byte window does not decide.
func Cl100k(s string, i int) int {
	if asciiStart(s, i) {
		if e := asciiLetters(s, i, prefixCl100k); e > 0 {
			return e
		}
		if e := asciiRest(s, i, newlines); e > 0 {
			return e
		}
	}
	if e := contraction(s, i, true); e > i {
		return e
	}
	c, n := classAt(s, i)
	if c&letter != 0 {
		return run(s, i+n, letter)
	}
	if c&notPrefix == 0 && i+n < len(s) {
		if c2, n2 := classAt(s, i+n); c2&letter != 0 {
			return run(s, i+n+n2, letter)
		}
	}
	return numberOrRest(s, i, c, n, newlines)
}

// O200k splits like o200k_base:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|
//	\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// Marks (\p{M}) may be a prefix and also fill either letter class.
//
// In WebAssembly most pieces of English and code are decided from the
// eight bytes at i (swar.go), the others by o200kSplit; natively
// o200kSplit's byte loops are as fast and take fewer instructions.
func O200k(s string, i int) int {
	if useWindow {
		return o200kWindow(s, i)
	}
	return o200kSplit(s, i, true)
}

// useWindow is whether O200k starts with the eight-byte window: in
// WebAssembly, where each branch a byte costs a dispatch (RATIONALE.md,
// "Why is the engine's speed in wazero not the speed in V8?").
const useWindow = runtime.GOARCH == "wasm"

// o200kSplit is O200k, with or without the contractions after a word
// (Tekken has none), without the eight-byte window. It is never inlined:
// a profile that sees the window hot would otherwise copy it into
// o200kWindow at each place that gives up, making the window's function
// large, which is what WebAssembly in wazero runs worst (RATIONALE.md).
//
//go:noinline
func o200kSplit(s string, i int, contractions bool) int {
	if asciiStart(s, i) {
		// The fast path for words over ASCII, inline (a call per piece
		// shows): `[^\r\n\p{L}\p{N}]?[U]*[W]+` as one optional upper case
		// letter then lower case ones, ended by ASCII other than a lower
		// case letter or an apostrophe (an upper case letter starts the next
		// word: camelCase). Anything else goes on to the paths below.
		j := i
		if asciiPrefix[s[j]]&prefixO200k != 0 {
			j++
		}
		if j < len(s) && asciiLetter[s[j]] == 2 {
			j++
		}
		if j < len(s) && asciiLetter[s[j]] == 1 {
			for j++; j < len(s) && asciiLetter[s[j]] == 1; j++ {
			}
			if j == len(s) || s[j] < utf8.RuneSelf && s[j] != '\'' {
				return j
			}
		}
		if e := asciiRest(s, i, newlinesSlash); e > 0 {
			return e
		}
	}
	c, n := classAt(s, i)
	prefix := c&notPrefix == 0
	word := c&(upper|lower) != 0
	// The first alternative with and then without the optional prefix, then
	// the second alternative the same way: the order a backtracking engine
	// tries them in.
	if prefix {
		if e := casedWord(s, i+n, contractions); e > 0 {
			return e
		}
	}
	if word {
		if e := casedWord(s, i, contractions); e > 0 {
			return e
		}
	}
	if prefix {
		if e := upperWord(s, i+n, contractions); e > 0 {
			return e
		}
	}
	if word {
		if e := upperWord(s, i, contractions); e > 0 {
			return e
		}
	}
	return numberOrRest(s, i, c, n, newlinesSlash)
}

// casedWord matches [U]*[W]+ and an optional contraction (if
// contractions) at p, where U is
// [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] and W is [\p{Ll}\p{Lm}\p{Lo}\p{M}]. It
// returns 0 when there is no match.
func casedWord(s string, p int, contractions bool) int {
	if p >= len(s) {
		return 0
	}
	q, w := runUpper(s, p)
	if r := run(s, q, lower); r > q {
		return optContraction(s, r, contractions)
	}
	// [U]* gives back characters until [W]+ can take one: the match ends
	// after the last character of the U run that is also in W.
	if w > p {
		return optContraction(s, w, contractions)
	}
	return 0
}

// runUpper is run(s, p, upper) that also returns the end of the last
// character of the run that is also in [W] (p when none is): in the
// scripts without case every letter is in both, and [U]*[W]+ ends there.
func runUpper(s string, p int) (end, lastLower int) {
	lastLower = p
	for i := p; i < len(s); {
		c, n := uint8(0), 1
		if b := s[i]; b < utf8.RuneSelf {
			c = asciiClass[b]
		} else if r, m := decode23(s, i); m != 0 {
			c, n = lookup(r), m
		} else {
			c, n = classAt(s, i)
		}
		if c&upper == 0 {
			return i, lastLower
		}
		i += n
		if c&lower != 0 {
			lastLower = i
		}
	}
	return len(s), lastLower
}

// upperWord matches [U]+[W]* and an optional contraction at p, or returns 0.
func upperWord(s string, p int, contractions bool) int {
	if p >= len(s) {
		return 0
	}
	q := run(s, p, upper)
	if q == p {
		return 0
	}
	return optContraction(s, run(s, q, lower), contractions)
}

// optContraction returns the end of a contraction at i, if contractions
// are in the pattern, or i.
func optContraction(s string, i int, contractions bool) int {
	if !contractions {
		return i
	}
	return contraction(s, i, true)
}

// startOfPrevRune returns the start of the character that ends at k, never
// going before lo. Invalid bytes count as one character each, as in classAt.
func startOfPrevRune(s string, lo, k int) int {
	for j := k - 1; j >= lo && j >= k-4; j-- {
		if s[j] < 0x80 || s[j] >= 0xC0 {
			if _, n := classAt(s, j); j+n == k {
				return j
			}
			break
		}
	}
	return k - 1
}

// The fast paths below take the most common piece of English and code, an
// optional prefix and ASCII letters ended by ASCII that is not a letter, in
// one tight loop. They return 0 whenever the general path could answer
// differently (a non-ASCII byte next, an apostrophe for o200k_base), so the
// scanners stay exact.

// asciiStart reports whether the ASCII fast paths could answer at i: each
// of them returns 0 when the first or the second byte of the piece is not
// ASCII, so a piece of another script skips their calls (in WebAssembly a
// call costs tens of instructions).
func asciiStart(s string, i int) bool {
	return s[i] < utf8.RuneSelf && (i+1 == len(s) || s[i+1] < utf8.RuneSelf)
}

// asciiClass2 marks ASCII lower case (1) and upper case (2) letters.
var asciiLetter = func() (t [256]uint8) {
	for b := 'a'; b <= 'z'; b++ {
		t[b] = 1
		t[b-'a'+'A'] = 2
	}
	return t
}()

// The prefixes a word's fast path takes, as bits of asciiPrefix: GPT-2's
// ` ?`, and the `[^\r\n\p{L}\p{N}]?` of cl100k_base and o200k_base (a space,
// a tab, punctuation: "(foo", ".bar", "_name"). cl100k_base tries its
// contractions first, so an apostrophe is no prefix for its fast path ("'sa"
// is "'s" "a" there); o200k_base has them only as suffixes.
const (
	prefixGPT2 = 1 << iota
	prefixCl100k
	prefixO200k
)

var asciiPrefix = func() (t [256]uint8) {
	t[' '] = prefixGPT2
	for b, c := range asciiClass {
		if c&notPrefix == 0 {
			t[b] |= prefixO200k
			if b != '\'' {
				t[b] |= prefixCl100k
			}
		}
	}
	return t
}()

// asciiLetters: `P?\p{L}+` over ASCII, for r50k/p50k and cl100k_base, where
// P is a byte that asciiPrefix marks with the bit prefix.
func asciiLetters(s string, i int, prefix uint8) int {
	j := i
	if asciiPrefix[s[j]]&prefix != 0 {
		j++
	}
	if j >= len(s) || asciiLetter[s[j]] == 0 {
		return 0
	}
	for j++; j < len(s); j++ {
		if b := s[j]; asciiLetter[b] == 0 {
			if b >= utf8.RuneSelf {
				return 0
			}
			return j
		}
	}
	return j
}

// asciiRest: what cl100k_base and o200k_base match where no word starts,
// over ASCII: \p{N}{1,3}, ` ?[^\s\p{L}\p{N}]+` then trail's bytes, and the
// whitespace alternatives (see whitespace), each in one loop over the bytes
// with one table look-up a byte. It returns 0 where a word could start (a
// letter or a non-ASCII byte after a prefix), at a letter or an apostrophe
// (a contraction), and wherever a run reaches a non-ASCII byte, which might
// continue it.
func asciiRest(s string, i int, trail trail) int {
	b := s[i]
	if b >= utf8.RuneSelf || b == '\'' {
		return 0
	}
	c := asciiClass[b]
	switch {
	case c&number != 0:
		return asciiNumbers(s, i, 3)
	case c&letter != 0:
		return 0
	case c&newline == 0 && i+1 < len(s) && (s[i+1] >= utf8.RuneSelf || asciiLetter[s[i+1]] != 0):
		return 0 // the prefix of a word
	case c&space == 0:
		return asciiOther(s, i, trail)
	case b == ' ' && i+1 < len(s) && asciiClass[s[i+1]]&notOther == 0:
		return asciiOther(s, i+1, trail)
	}
	return asciiSpace(s, i, true)
}

// asciiRestGPT2 is asciiRest for r50k_base and p50k_base: ` ?\p{N}+`,
// ` ?[^\s\p{L}\p{N}]+` and `\s+(?!\S)|\s+`, where only a space is a prefix.
func asciiRestGPT2(s string, i int) int {
	b := s[i]
	if b >= utf8.RuneSelf || b == '\'' {
		return 0
	}
	c := asciiClass[b]
	switch {
	case c&letter != 0:
		return 0
	case c&number != 0:
		return asciiNumbers(s, i, len(s))
	case c&space == 0:
		return asciiOther(s, i, 0)
	case b == ' ' && i+1 < len(s):
		switch d := s[i+1]; {
		case d >= utf8.RuneSelf || asciiLetter[d] != 0:
			return 0
		case asciiClass[d]&number != 0:
			return asciiNumbers(s, i+1, len(s))
		case asciiClass[d]&notOther == 0:
			return asciiOther(s, i+1, 0)
		}
	}
	return asciiSpace(s, i, false)
}

// asciiNumbers matches at most max \p{N} characters from i, a digit, over
// ASCII, or returns 0.
func asciiNumbers(s string, i, max int) int {
	j := i + 1
	for ; j < len(s) && j-i < max; j++ {
		if d := s[j]; d >= utf8.RuneSelf {
			return 0
		} else if asciiClass[d]&number == 0 {
			break
		}
	}
	return j
}

// asciiOther matches `[^\s\p{L}\p{N}]+` then trail's bytes from i, a
// character of that class, over ASCII, or returns 0.
func asciiOther(s string, i int, trail trail) int {
	j := i + 1
	for j < len(s) && otherStop[s[j]] == 0 {
		j++
	}
	if j < len(s) && otherStop[s[j]] == nonASCII {
		return 0
	}
	return runTrail(s, j, trail)
}

// otherStop is 0 for the ASCII bytes of `[^\s\p{L}\p{N}]`, nonASCII for
// the bytes that are not ASCII, and 1 for the rest: one look-up a byte ends
// asciiOther's run, and a call less (the function inlines).
var otherStop = func() (t [256]uint8) {
	for b := range t {
		switch {
		case b >= utf8.RuneSelf:
			t[b] = nonASCII
		case asciiClass[b]&notOther != 0:
			t[b] = 1
		}
	}
	return t
}()

const nonASCII = 2

// asciiSpace is whitespace over ASCII, at a whitespace character i, or 0.
func asciiSpace(s string, i int, newlines bool) int {
	j, lastNL := i, -1
	for ; j < len(s); j++ {
		d := s[j]
		if d >= utf8.RuneSelf {
			return 0
		}
		if asciiClass[d]&space == 0 {
			break
		}
		if asciiClass[d]&newline != 0 {
			lastNL = j
		}
	}
	switch {
	case newlines && lastNL >= 0:
		return lastNL + 1
	case j == len(s) || j == i+1:
		return j
	}
	return j - 1
}

// numberOrRest matches the alternatives cl100k and o200k end with:
// \p{N}{1,3}, then ` ?[^\s\p{L}\p{N}]+` followed by any of trail's bytes,
// then the whitespace ones. c and n are the class and length of the
// character at i.
func numberOrRest(s string, i int, c uint8, n int, trail trail) int {
	if c&number != 0 {
		return runNumbers(s, i+n, 2)
	}
	if s[i] == ' ' && i+1 < len(s) {
		if c2, n2 := classAt(s, i+1); c2&notOther == 0 {
			return runTrail(s, runOther(s, i+1+n2), trail)
		}
	}
	if c&notOther == 0 {
		return runTrail(s, runOther(s, i+n), trail)
	}
	return whitespace(s, i, true, nil)
}
