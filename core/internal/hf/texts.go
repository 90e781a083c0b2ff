package hf

import (
	"strings"
	"unsafe"
)

// tokenTexts holds what each id decodes to (a model token's bytes, an added
// token's text) in one byte array, with each id's span beside it: no
// string per token, so that loading allocates a few arrays instead of one
// object per token (Gemma 3 has 262,145), and the collector has no
// pointers to walk in them at each cycle while counting.
type tokenTexts struct {
	bytes []byte // only ever appended to
	spans []textSpan
}

type textSpan struct {
	start, end uint32
	ok         bool // the id is a token
}

// Len returns one past the highest id.
func (t *tokenTexts) Len() int { return len(t.spans) }

// get returns the text of id, a view of bytes (appending never changes the
// bytes it covers), and whether id is a token.
func (t *tokenTexts) get(id int) (string, bool) {
	if id < 0 || id >= len(t.spans) || !t.spans[id].ok {
		return "", false
	}
	s := t.spans[id]
	if s.start == s.end {
		return "", true
	}
	return unsafe.String(&t.bytes[s.start], s.end-s.start), true
}

// has reports whether id is a token.
func (t *tokenTexts) has(id int) bool { return id >= 0 && id < len(t.spans) && t.spans[id].ok }

// set makes text the text of id (copied), replacing an earlier one.
func (t *tokenTexts) set(id int, text string) {
	start := len(t.bytes)
	t.bytes = append(t.bytes, text...)
	t.setSpan(id, start)
}

// setSpan makes bytes[start:] the text of id.
func (t *tokenTexts) setSpan(id, start int) {
	for id >= len(t.spans) {
		t.spans = append(t.spans, textSpan{})
	}
	t.spans[id] = textSpan{uint32(start), uint32(len(t.bytes)), true}
}

// setSpaced makes tok, with each ▁ a space, the text of id (a
// SentencePiece token's).
func (t *tokenTexts) setSpaced(id int, tok string) {
	start := len(t.bytes)
	for {
		i := strings.Index(tok, "▁")
		if i < 0 {
			break
		}
		t.bytes = append(append(t.bytes, tok[:i]...), ' ')
		tok = tok[i+len("▁"):]
	}
	t.bytes = append(t.bytes, tok...)
	t.setSpan(id, start)
}
