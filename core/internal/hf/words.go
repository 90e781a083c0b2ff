package hf

import (
	"strings"
	"sync/atomic"
	"unicode/utf8"
)

// Two shortcuts that keep merging exact and make it rare.
//
// Whole tokens: most pieces of the pre-tokenizer are a token of their own.
// Unlike tiktoken's rule, merging by the file's merges need not end in that
// token, so the first merge of each such token is remembered, two bits a
// token: not yet known, merges to itself, merges to something else. Unlike
// the piece cache, this memo has no collisions.
//
// Words of SentencePiece-style text: with no pre-tokenizer, a section is
// one piece, too long for the piece cache and merged whole every time. A
// merge spanning the position before a ▁ makes a token in which the
// character before that position is followed by ▁; when no vocabulary
// token holds that character followed by ▁, the text can be cut there and
// its words merged apart, with the same result. Gemma 3's vocabulary has one
// such character (">▁</"), Llama 2's none, and runs of ▁ stay whole.

const (
	selfUnknown = iota
	selfYes
	selfNo
)

// self reports what merging the bytes of token id gives, as remembered.
func (m *Model) self(id uint32) uint32 {
	if int(id/16) >= len(m.selfBits) {
		return selfNo
	}
	return m.selfBits[id/16].Load() >> (id % 16 * 2) & 3
}

func (m *Model) setSelf(id, v uint32) {
	if int(id/16) < len(m.selfBits) {
		m.selfBits[id/16].Or(v << (id % 16 * 2))
	}
}

// initWords sizes the whole-token memo and finds the characters a token
// joins to a following ▁, once the vocabulary is known.
func (m *Model) initWords() {
	m.selfBits = make([]atomic.Uint32, (len(m.tokens)+15)/16)
	if !m.spiece {
		return
	}
	for e := uint32(1); int(e) <= m.vocab.Len(); e++ {
		tok := m.vocab.key(e)
		for k := strings.Index(tok, "▁"); k >= 0; {
			if k > 0 {
				if c, _ := utf8.DecodeLastRuneInString(tok[:k]); c != '▁' && !strings.ContainsRune(m.joinsMeta, c) {
					m.joinsMeta += string(c)
				}
			}
			next := strings.Index(tok[k+len("▁"):], "▁")
			if next < 0 {
				break
			}
			k += len("▁") + next
		}
	}
}

// appendSPWords encodes SentencePiece-style text word by word, cutting
// before each ▁ where no token can span the cut.
func (m *Model) appendSPWords(dst []uint32, s string) []uint32 {
	start := 0
	for k := 0; ; {
		i := strings.Index(s[k:], "▁")
		if i < 0 {
			break
		}
		k += i
		if k > start {
			if c, _ := utf8.DecodeLastRuneInString(s[:k]); c != '▁' && !strings.ContainsRune(m.joinsMeta, c) {
				dst = m.appendPiece(dst, s[start:k])
				start = k
			}
		}
		k += len("▁")
	}
	return m.appendPiece(dst, s[start:])
}
