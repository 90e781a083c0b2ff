// Package hf loads Hugging Face tokenizer.json files and counts with them
// exactly as Hugging Face's tokenizers do for encode(text,
// add_special_tokens=false): added tokens found first (leftmost, longest),
// then the normalizer, the pre-tokenizer (a hand-written matcher per known
// regex, from package pretok) and byte-level BPE by merge rank.
//
// What it cannot reproduce exactly it refuses at load time with an error
// matching ErrUnsupported that names the construct; it never counts
// differently.
package hf

import (
	"strconv"
	"strings"
	"sync"
	"unsafe"

	"github.com/tokenfit/tokenfit/core/internal/pretok"
)

// Model is a loaded tokenizer. It is read-only and safe for concurrent use.
type Model struct {
	Name string

	next         pretok.Next
	regex        string // the pre-tokenizer's, as the file writes it
	normalizes   bool   // the file has a normalizer (added tokens marked normalized are matched after it)
	nfc          bool   // the normalizer has NFC
	replaceSpace bool   // the normalizer writes spaces as ▁
	prependSpace bool   // the normalizer puts ▁ before each section's text
	spiece       bool   // SentencePiece-style: merges start from characters, unknown ones fall back to bytes
	meta         byte   // a Metaspace pre-tokenizer's prepend scheme (metaNone: none)
	ignoreMerges bool

	vocab  vocabTable  // the model's tokens, by their bytes
	texts  tokenTexts  // by id: the bytes of model tokens, the text of added ones
	byteID [256]uint32 // the token of each byte: a byte-level token, or SentencePiece's <0xXX>
	merges pairTable   // left<<32|right → rank<<32|merged

	added, addedNorm addedSet
	cache            *textCache // pieces (cache.go)
	sections         *textCache // SentencePiece-style: sections (cache.go)
	joins            joinBits   // SentencePiece-style: the character pairs merges join (words.go)
}

// Size returns one past the highest token id.
func (m *Model) Size() int { return m.texts.Len() }

// Token returns the bytes of a token id, and false for an id the tokenizer
// does not have.
func (m *Model) Token(id int) (string, bool) {
	return m.texts.get(id)
}

// The prepend schemes of a Metaspace pre-tokenizer: a ▁ goes before text
// that does not start with one in every section (between added tokens), in
// the first section only (the one at the start of the input), or never.
const (
	metaNone = iota
	metaAlways
	metaFirst
	metaNever
)

// AppendEncode appends the ids of text's tokens to dst. Cost: O(n log n)
// at worst, O(n) for text made of pieces that are whole tokens.
func (m *Model) AppendEncode(dst []uint32, text string) []uint32 {
	sc := scratchPool.Get().(*scratch)
	dst = m.appendEncode(sc, dst, text)
	scratchPool.Put(sc)
	return dst
}

// Count returns the number of tokens in text.
func (m *Model) Count(text string) int {
	sc := scratchPool.Get().(*scratch)
	sc.ids = m.appendEncode(sc, sc.ids[:0], text)
	n := len(sc.ids)
	scratchPool.Put(sc)
	return n
}

// scratch is one encoding's reusable memory: the ids a count discards, and
// the text the normalizer and Metaspace write. A string made over norm or
// meta (view) lives only until that buffer is written again, so nothing
// keeps one (the piece cache keeps a copy), and a count allocates nothing
// but its cache misses.
type scratch struct {
	ids            []uint32
	norm, meta     []byte
	hits, normHits []addedHit // the starts of added tokens waiting (added.go)
}

var scratchPool = sync.Pool{New: func() any { return new(scratch) }}

func view(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	return unsafe.String(&b[0], len(b))
}

// appendSpaces appends s with each space written as ▁.
func appendSpaces(b []byte, s string) []byte {
	for {
		i := strings.IndexByte(s, ' ')
		if i < 0 {
			return append(b, s...)
		}
		b = append(append(b, s[:i]...), "▁"...)
		s = s[i+1:]
	}
}

func (m *Model) appendEncode(sc *scratch, dst []uint32, text string) []uint32 {
	added := m.added.scan(text, sc.hits)
	for i := 0; i < len(text); {
		start, end, id := added.next()
		dst = m.appendSection(sc, dst, text[i:start], i == 0)
		if start < len(text) {
			dst = append(dst, id)
		}
		i = end
	}
	sc.hits = added.hits
	return dst
}

// normalize applies the file's normalizer (NFC, then ▁ for spaces and
// before the text, which commute), writing into *buf when spaces change:
// the result may be a view of it.
func (m *Model) normalize(buf *[]byte, s string) string {
	if m.nfc {
		s = nfc(s)
	}
	if !m.replaceSpace && !m.prependSpace {
		return s
	}
	b := (*buf)[:0]
	if m.prependSpace {
		b = append(b, "▁"...)
	}
	if m.replaceSpace {
		b = appendSpaces(b, s)
	} else {
		b = append(b, s...)
	}
	*buf = b
	return view(b)
}

// appendSection encodes text that holds no unnormalized added token; first
// is whether it starts the input.
func (m *Model) appendSection(sc *scratch, dst []uint32, s string, first bool) []uint32 {
	if s == "" {
		return dst
	}
	s = m.normalize(&sc.norm, s)
	added := m.addedNorm.scan(s, sc.normHits)
	for i := 0; i < len(s); {
		start, end, id := added.next()
		if part := s[i:start]; part != "" {
			dst = m.appendWords(sc, dst, part, first)
		}
		if start < len(s) {
			dst = append(dst, id)
		}
		i = end
	}
	sc.normHits = added.hits
	return dst
}

// appendWords pre-tokenizes part and encodes its pieces.
func (m *Model) appendWords(sc *scratch, dst []uint32, part string, first bool) []uint32 {
	if !m.spiece {
		for j := 0; j < len(part); {
			k := m.next(part, j)
			dst = m.appendPiece(dst, part[j:k])
			j = k
		}
		return dst
	}
	if m.meta != metaNone {
		b := sc.meta[:0]
		if (m.meta == metaAlways || m.meta == metaFirst && first) && part[0] != ' ' && !strings.HasPrefix(part, "▁") {
			b = append(b, "▁"...)
		}
		sc.meta = appendSpaces(b, part)
		part = view(sc.meta)
	}
	if m.ignoreMerges {
		// The part is the pre-tokenizer's one piece: whole if a token.
		if id, ok := m.vocab.get(part); ok {
			return append(dst, id)
		}
	}
	if len(part) > maxCachedSection {
		return m.appendSPWords(dst, part)
	}
	set, ids, ok := m.sections.get(part)
	if ok {
		return append(dst, ids...)
	}
	n := len(dst)
	dst = m.appendSPWords(dst, part)
	m.sections.put(set, part, dst[n:])
	return dst
}

// appendPiece encodes one piece of the pre-tokenizer by byte-pair merging.
func (m *Model) appendPiece(dst []uint32, p string) []uint32 {
	if len(p) == 1 && !m.spiece {
		return append(dst, m.byteID[p[0]])
	}
	if e := m.vocab.entry(p); e != nil {
		w := e.word.Load()
		id := w & idMask
		if m.ignoreMerges && !m.spiece || w>>selfShift == selfYes {
			return append(dst, id)
		}
		if w>>selfShift == selfUnknown {
			mw := mergePool.Get().(*merger)
			n := len(dst)
			dst = mw.merge(m, p, dst)
			mergePool.Put(mw)
			if len(dst) == n+1 && dst[n] == id {
				e.word.Or(selfYes << selfShift)
			} else {
				e.word.Or(selfNo << selfShift)
			}
			return dst
		}
	}
	if len(p) > maxCachedPiece {
		w := mergePool.Get().(*merger)
		dst = w.merge(m, p, dst)
		mergePool.Put(w)
		return dst
	}
	set, ids, ok := m.cache.get(p)
	if ok {
		return append(dst, ids...)
	}
	w := mergePool.Get().(*merger)
	n := len(dst)
	dst = w.merge(m, p, dst)
	mergePool.Put(w)
	m.cache.put(set, p, dst[n:])
	return dst
}

// AppendDecode appends the bytes of ids to dst, failing on an id the
// tokenizer does not have (naming its index). A tokenizer that puts ▁
// before the text drops the space it decodes to at the start, as its
// decoder does (Strip, or Metaspace's).
func (m *Model) AppendDecode(dst []byte, ids []int) ([]byte, error) {
	start := len(dst)
	for i, id := range ids {
		tok, ok := m.Token(id)
		if !ok {
			return dst, &InvalidTokenError{Index: i, ID: id}
		}
		dst = append(dst, tok...)
	}
	if m.prependSpace || m.meta == metaAlways || m.meta == metaFirst {
		if len(dst) > start && dst[start] == ' ' {
			dst = append(dst[:start], dst[start+1:]...)
		}
	}
	return dst, nil
}

// InvalidTokenError reports an id that is not a token of the tokenizer.
type InvalidTokenError struct{ Index, ID int }

func (e *InvalidTokenError) Error() string {
	return "token " + strconv.Itoa(e.ID) + " at index " + strconv.Itoa(e.Index) + " is not in the vocabulary"
}
