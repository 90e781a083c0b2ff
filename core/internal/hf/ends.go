package hf

import (
	"sort"
	"strings"
	"unicode/utf8"
)

// Where tokens end in the text they came from. A token's bytes are not
// always the text's: the normalizer or Metaspace put a ▁ before a section
// (Llama 2, Gemma 3, Mistral v0.3), which decodes to a space the text never
// had; a SentencePiece token writes both a space and a ▁ of the text as ▁;
// NFC composes characters (Qwen). Summing the lengths of the tokens' bytes,
// as the OpenAI encodings may, would put every later boundary a byte or more
// past or short of the text's.

// AppendEnds appends, for each token of AppendEncode(dst, text), the offset
// in text where its text ends. A ▁ the normalizer added is no text: a token
// made only of it ends where the text before it ended. Where NFC changed the
// text, a token ending inside a character NFC composed ends at that
// character's start. The offsets never decrease and the last is len(text).
// Cost: O(n), as AppendEncode.
func (m *Model) AppendEnds(dst []int, text string) []int {
	sc := scratchPool.Get().(*scratch)
	added := m.added.scan(text, sc.hits)
	for i := 0; i < len(text); {
		start, end, _ := added.next()
		if start > i {
			sc.ids = m.appendSection(sc, sc.ids[:0], text[i:start], i == 0)
			dst = m.sectionEnds(dst, sc.ids, text[i:start], i)
		}
		if start < len(text) {
			dst = append(dst, end)
		}
		i = end
	}
	sc.hits = added.hits
	scratchPool.Put(sc)
	return dst
}

// sectionEnds appends the ends of the tokens ids that a section of the
// input, sec at offset base, encoded to. It walks the tokens' bytes against
// the normalized section: a ▁ of a SentencePiece token (a space in
// m.texts) is a space or a ▁ of the text, else one the normalizer added,
// which takes no text.
func (m *Model) sectionEnds(dst []int, ids []uint32, sec string, base int) []int {
	norm := sec
	if m.nfc {
		norm = nfc(sec)
	}
	back := identity
	if norm != sec {
		back = nfcOffsets(sec)
	}
	o := 0
	// The ▁ Prepend puts before the input is the decoders' to strip: the
	// first ▁ there is none of the text's, whatever follows. Elsewhere one
	// the normalizer added decodes to a space, and takes the text's next
	// space if there is one, so that decoding the first k tokens gives the
	// text up to their end.
	added := m.prependSpace && base == 0
	for _, id := range ids {
		tok, _ := m.texts.get(int(id))
		if !m.spiece || len(tok) == 1 && m.byteID[tok[0]] == id {
			o = min(o+len(tok), len(norm))
			added = false
		} else {
			for q := 0; q < len(tok); {
				meta := tok[q] == ' ' || strings.HasPrefix(tok[q:], "▁") // a model token's ▁ is a space in m.texts, an added token's is itself
				switch {
				case !meta:
					o = min(o+1, len(norm))
				case added:
				case o < len(norm) && norm[o] == ' ':
					o++
				case strings.HasPrefix(norm[o:], "▁"):
					o += len("▁")
				}
				if meta && tok[q] != ' ' {
					q += len("▁")
				} else {
					q++
				}
				added = false
			}
		}
		dst = append(dst, base+back(o))
	}
	if n := len(dst); n > 0 && len(ids) > 0 {
		dst[n-1] = base + len(sec) // whatever the normalizer did, the section ends there
	}
	return dst
}

func identity(o int) int { return o }

// nfcOffsets returns the map from offsets in nfc(s) to offsets in s: s cut
// before each character NFC leaves alone whatever precedes it normalizes
// piece by piece, so a piece's end maps to its end, and an offset inside a
// piece to itself while NFC left the piece's bytes up to it alone, else to
// where it stopped leaving them alone (a character boundary).
func nfcOffsets(s string) func(int) int {
	type piece struct{ normEnd, end, same int } // same: bytes NFC left alone at the piece's start
	var pieces []piece
	n, start := 0, 0
	for i := 0; i <= len(s); {
		cut := i == len(s)
		var size int
		if !cut {
			var r rune
			r, size = utf8.DecodeRuneInString(s[i:])
			cut = i > start && (r == utf8.RuneError && size == 1 || ccc(r) == 0 && !unstable(r))
		}
		if cut && i > start {
			norm := nfc(s[start:i])
			same := 0
			for same < len(norm) && same < i-start && norm[same] == s[start+same] {
				same++
			}
			for same > 0 && start+same < i && !utf8.RuneStart(s[start+same]) {
				same--
			}
			n += len(norm)
			pieces = append(pieces, piece{n, i, same})
			start = i
		}
		if i == len(s) {
			break
		}
		i += size
	}
	return func(o int) int {
		k := sort.Search(len(pieces), func(k int) bool { return pieces[k].normEnd >= o })
		switch {
		case k == len(pieces):
			return len(s)
		case pieces[k].normEnd == o:
			return pieces[k].end
		}
		normStart, start := 0, 0
		if k > 0 {
			normStart, start = pieces[k-1].normEnd, pieces[k-1].end
		}
		return start + min(o-normStart, pieces[k].same)
	}
}
