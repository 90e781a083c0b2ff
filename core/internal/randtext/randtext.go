// Package randtext draws the random strings the differential tests compare
// tokenfit with its references on (tiktoken for the OpenAI encodings,
// tokenizers.js for Hugging Face tokenizers). Tests only.
package randtext

import (
	"math/rand/v2"
	"strings"
	"unicode"
	"unicode/utf8"
)

// Text returns about size bytes of text built from fragments that
// stress the pre-tokenizers: whitespace runs mixed with newlines and tabs,
// contractions, digits, mixed scripts, combining marks and emoji.
func Text(rng *rand.Rand, size int) string {
	var b strings.Builder
	for b.Len() < size {
		switch rng.IntN(16) {
		case 0, 1:
			b.WriteString(pick(rng, whitespace, 1+rng.IntN(6)))
		case 2:
			b.WriteString(pick(rng, []string{"'s", "'t", "'re", "'ve", "'m", "'ll", "'d", "'S", "'T", "'RE", "'Ve", "'LL", "'D", "'ſ", "'", "''", "'x"}, 1))
		case 3:
			b.WriteString(pick(rng, []string{"0", "1", "23", "456", "7890", "٣", "½", "Ⅻ", "𝟙", "①", "²"}, 1+rng.IntN(3)))
		case 4, 5, 6:
			b.WriteString(pick(rng, words, 1))
		case 7:
			b.WriteString(pick(rng, scripts, 1))
		case 8:
			b.WriteString(pick(rng, []string{"\u0301", "\u0308", "\u20dd", "\u093f", "\u0e31", "\u05b4", "\u302a", "\ufe0f", "\u200d", "\U000E0020"}, 1+rng.IntN(2)))
		case 9:
			b.WriteString(pick(rng, []string{"😀", "👍🏽", "👨‍👩‍👧", "🇯🇵", "❤️", "🙂", "🤖", "✨", "🔥"}, 1))
		case 10:
			b.WriteString(pick(rng, []string{".", ",", "!", "?", "/", "//", "\\", "-", "--", "(", ")", "{", "}", "[", "]", "<", ">", "=", "==", "+", "*", "&", "|", "^", "#", "@", "$", "%", "~", "`", "\"", ";", ":", "…", "—", "«", "»"}, 1+rng.IntN(3)))
		case 11:
			// any code point at all
			r := rune(rng.IntN(utf8.MaxRune + 1))
			if 0xD800 <= r && r <= 0xDFFF {
				r = 0xFFFD
			}
			b.WriteRune(r)
		case 12:
			r := rune(0x80 + rng.IntN(0x3000))
			b.WriteRune(r)
		case 13:
			b.WriteString(strings.Repeat(pick(rng, []string{"a", " ", "^", "9", "\n\t", "ab", "=", "\u3000", "漢"}, 1), 1+rng.IntN(40)))
		case 14:
			b.WriteString(pick(rng, []string{"<|endoftext|>", "<|fim_prefix|>", "<|endofprompt|>", "http://x.io/a", "a.b_c", "x->y", "i++", "\"\"\"", "'''"}, 1))
		default:
			b.WriteString(pick(rng, []string{"A", "B", "Z", "ABC", "Hello", "WORLD", "iPhone", "McDonald", "ǅ", "ǈa", "ʰ", "ᵃ"}, 1))
		}
	}
	return b.String()
}

// Comparable keeps out of a random text the two things tokenizers.js answers
// differently from the official tiktoken, whose behaviour tokenfit's scanners
// reproduce (and which the Rust tokenizers' regex engine shares, as far as
// we know):
//
//   - code points Go's Unicode tables (15.0) leave unassigned become U+FFFD:
//     Node's regular expressions answer for Unicode 17.0, tokenfit's for
//     16.0, so a character assigned since is a letter or a mark to one and a
//     symbol to the other;
//   - ſ (U+017F) becomes ž: tokenizers.js folds case in (?i:'s|…) for ASCII
//     only, so "'ſ" is no contraction to it, while tiktoken folds ſ to s.
func Comparable(s string) string {
	return strings.Map(func(r rune) rune {
		if r == 'ſ' {
			return 'ž'
		}
		for _, t := range []*unicode.RangeTable{unicode.L, unicode.M, unicode.N, unicode.P, unicode.S, unicode.Z, unicode.Cc, unicode.Cf, unicode.Co} {
			if unicode.Is(t, r) {
				return r
			}
		}
		return unicode.ReplacementChar
	}, s)
}

func pick(rng *rand.Rand, from []string, n int) string {
	var b strings.Builder
	for range n {
		b.WriteString(from[rng.IntN(len(from))])
	}
	return b.String()
}

var (
	whitespace = []string{" ", " ", " ", "\t", "\n", "\r\n", "\r", "\v", "\f", "\u00a0", "\u3000", "\u2009", "\u0085", "\u2028"}
	words      = []string{"the", " the", "The", " of", " and", "token", " budget", "count", " prompt", "tokenization", "antidisestablishmentarianism", "x", "qwzxv", "fn", "return", "café", "naïve", "ʼn"}
	scripts    = []string{"你好", "世界", "日本語", "カタカナ", "ひらがな", "한국어", "Привет", "мир", "مرحبا", "שלום", "नमस्ते", "สวัสดี", "ሰላም", "Γειά", "Ողջույն", "ᏣᎳᎩ", "ꦧꦱꦗꦮ", "ᠮᠣᠩᠭᠣᠯ", "ཀཁག", "𐌰𐌱", "𝔘𝔫", "Ａｂ"}
)
