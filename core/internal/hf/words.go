package hf

import "unicode/utf8"

// Two shortcuts that keep merging exact and make it rare.
//
// Whole tokens: most pieces of the pre-tokenizer are a token of their own.
// Unlike tiktoken's rule, merging by the file's merges need not end in that
// token, so the first merge of each such token is remembered, two bits a
// token: not yet known, merges to itself, merges to something else, kept
// beside its id in the vocabulary's entry (vocab.go). Unlike the piece
// cache, this memo has no collisions.
//
// Cuts in SentencePiece-style text: with no pre-tokenizer, a section is one
// piece, too long for the piece cache and merged whole every time (a
// message in Chinese or Japanese has no ▁ at all). A merge of a left token
// ending with character a and a right one starting with b is the only way
// a token can come to span the position between adjacent characters a and
// b. So where no merge of the file joins such a pair, no merge ever
// crosses that position, and the text can be cut there and its parts
// merged apart with the same result: the merges in one part are never
// candidates in another, and each part's happen in the same order. The
// pairs merges join are kept as bits of a hash of (a, b); a collision only
// keeps a cut from being made. In Gemma 3, Llama 2 and Mistral 7B no merge
// joins a word's last letter to a following ▁, so words are cut apart, and
// runs of Chinese characters at the pairs no token spans.

const (
	selfUnknown = iota
	selfYes
	selfNo
)

// joinBits is a set of character pairs (a, b): exact for two ASCII
// characters, by one bit of a hash each for the others.
type joinBits struct {
	ascii [128][2]uint64 // ascii[a][b/64] bit b%64
	bits  []uint64
	shift uint
}

// newJoinBits makes a set for n pairs, about 1/16 of its hashed bits set
// when they are distinct.
func newJoinBits(n int) joinBits {
	bits := uint(12)
	for 1<<bits < 16*n {
		bits++
	}
	return joinBits{bits: make([]uint64, 1<<bits/64), shift: 64 - bits}
}

func (j *joinBits) index(a, b rune) uint64 {
	return (uint64(uint32(a))<<32 | uint64(uint32(b))) * 0x9E3779B97F4A7C15 >> j.shift
}

// addMerge records the pair a merge of left and right joins.
func (j *joinBits) addMerge(left, right string) {
	a, _ := utf8.DecodeLastRuneInString(left)
	b, _ := utf8.DecodeRuneInString(right)
	if a < utf8.RuneSelf && b < utf8.RuneSelf {
		j.ascii[a][b/64] |= 1 << (b % 64)
		return
	}
	i := j.index(a, b)
	j.bits[i/64] |= 1 << (i % 64)
}

func (j *joinBits) has(a, b rune) bool {
	if uint32(a) < utf8.RuneSelf && uint32(b) < utf8.RuneSelf {
		return j.ascii[a][b/64]&(1<<(b%64)) != 0
	}
	i := j.index(a, b)
	return j.bits[i/64]&(1<<(i%64)) != 0
}

// appendSPWords encodes SentencePiece-style text part by part, cutting
// between each two characters no merge joins. A byte that is not UTF-8
// reads as U+FFFD, as merging reads it; it never merges, so a cut beside
// it is always exact, and one kept by U+FFFD's pairs costs only speed.
func (m *Model) appendSPWords(dst []uint32, s string) []uint32 {
	start, prev := 0, rune(-1)
	for i := 0; i < len(s); {
		c, size := rune(s[i]), 1
		if c >= utf8.RuneSelf {
			c, size = utf8.DecodeRuneInString(s[i:])
		}
		if i > start && !m.joins.has(prev, c) {
			dst = m.appendPiece(dst, s[start:i])
			start = i
		}
		prev = c
		i += size
	}
	return m.appendPiece(dst, s[start:])
}
