// Package scripts cuts text into runs of one script class, for estimates
// that weigh a public tokenizer's count by script (core's Estimator.Scripts).
//
// A tokenizer that is not public is estimated from a public one, and the
// ratio between the two depends on the script far more than on anything
// else: Claude's tokenizer (3 to 4.6) counts English and code almost
// exactly as o200k_base does, but Chinese about 1.4 times and Hindi about
// 4 times, because o200k_base gives those scripts a large share of its
// 200k tokens. One ratio cannot serve both, so an estimate may weigh the
// base tokenizer's count run by run: the text is cut into runs of one
// class (ASCII spaces and word-separating punctuation stay with the run
// they follow), each run is counted with the base and multiplied by its
// class's weight.
package scripts

import (
	"slices"
	"unicode/utf8"
)

// The script classes. A class missing from an estimator's table weighs 1.
const (
	ASCII    = "ascii"    // U+0000–U+007F: English, code, digits
	Latin    = "latin"    // accented Latin letters
	Greek    = "greek"    // Greek and Coptic
	Cyrillic = "cyrillic" // Cyrillic
	Armenian = "armenian"
	Hebrew   = "hebrew"
	Arabic   = "arabic"   // Arabic, Persian, Urdu
	Indic    = "indic"    // Devanagari to Sinhala
	SEA      = "sea"      // Thai, Lao, Tibetan, Myanmar, Khmer
	Georgian = "georgian" //
	Hangul   = "hangul"   // Korean
	Ethiopic = "ethiopic" //
	Kana     = "kana"     // Hiragana and Katakana
	Han      = "han"      // CJK ideographs, CJK punctuation, full-width forms
	Punct    = "punct"    // general punctuation (U+2000–U+206F)
	Symbol   = "symbol"   // arrows, math, dingbats, box drawing…
	Emoji    = "emoji"    // emoji and pictographs
	Other    = "other"
	// Digits are runs of ASCII digits, cut out of ASCII text only when
	// Runs is asked to: an estimate may price them per digit, for a
	// tokenizer that gives every digit a token where its base groups three.
	Digits = "digits"
)

// Classes lists every class.
var Classes = []string{ASCII, Latin, Greek, Cyrillic, Armenian, Hebrew,
	Arabic, Indic, SEA, Georgian, Hangul, Ethiopic, Kana, Han,
	Punct, Symbol, Emoji, Other, Digits}

type rng struct {
	lo    rune
	class string
}

// ranges maps code points from lo (inclusive) to the next range's lo
// to a class; sorted by lo.
var ranges = []rng{
	{0x0000, ASCII}, {0x0080, Latin}, {0x0250, Other}, {0x0370, Greek},
	{0x0400, Cyrillic}, {0x0530, Armenian}, {0x0590, Hebrew}, {0x0600, Arabic},
	{0x0700, Other}, {0x0750, Arabic}, {0x0780, Other}, {0x0900, Indic},
	{0x0E00, SEA}, {0x10A0, Georgian}, {0x1100, Hangul}, {0x1200, Ethiopic},
	{0x13A0, Other}, {0x1780, SEA}, {0x1800, Other}, {0x1E00, Latin},
	{0x1F00, Greek}, {0x2000, Punct}, {0x2070, Symbol}, {0x2E80, Han},
	{0x3040, Kana}, {0x3100, Han}, {0xA000, Other}, {0xAC00, Hangul},
	{0xD7B0, Other}, {0xF900, Han}, {0xFB00, Other}, {0xFB50, Arabic},
	{0xFE00, Other}, {0xFE70, Arabic}, {0xFF00, Han}, {0xFFF0, Other},
	{0x1F000, Emoji}, {0x1FB00, Other}, {0x20000, Han}, {0x30000, Other},
}

// Of returns the class of a code point. Cost: O(log ranges).
func Of(r rune) string {
	if r < 0x80 {
		return ASCII
	}
	i, found := slices.BinarySearchFunc(ranges, r, func(e rng, r rune) int { return int(e.lo - r) })
	if !found {
		i--
	}
	return ranges[i].class
}

// joinsRun reports whether an ASCII character stays in the run before it
// rather than opening an ASCII run: spaces and the punctuation that
// separates words in every script.
func joinsRun(c byte) bool {
	switch c {
	case ' ', '\t', '\n', '\r', '.', ',', '!', '?', ':', ';', '\'', '"', '(', ')', '-':
		return true
	}
	return false
}

// Runs calls f with each run of text and its class, as a
// script-weighted estimate cuts it, with runs of ASCII digits apart when
// digits is set. Text that is all
// ASCII is one run. Cost: O(len(text)).
func Runs(text string, digits bool, f func(run, class string)) {
	start, class := 0, ""
	for i := 0; i < len(text); {
		r, size := rune(text[i]), 1
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(text[i:])
		}
		c := Of(r)
		switch {
		case digits && '0' <= r && r <= '9':
			c = Digits
		case c == ASCII && class != "" && class != ASCII && class != Digits && joinsRun(text[i]):
			c = class
		}
		if c != class {
			if i > start {
				f(text[start:i], class)
			}
			start, class = i, c
		}
		i += size
	}
	if len(text) > start {
		f(text[start:], class)
	}
}
