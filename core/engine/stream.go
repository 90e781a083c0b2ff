package engine

import (
	"math"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/pretok"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// StreamCounter counts a text that arrives in parts (a file or a pipe too
// big to hold), written as to an io.Writer. Its count equals Count of the
// whole text, whatever the parts: it counts the pre-tokenizer pieces that
// no later text can change and keeps the rest, so it holds about a
// megabyte plus the longest stretch with no place to split (see Held).
// Not safe for concurrent use.
//
// A place to split is a position w such that every piece that ends by w is
// decided by the text up to four characters after it; the pieces are then
// found by scanning the text held, up to that far past w. Scanners read
// further only along a run of whitespace (to its last CR or LF, or to give
// its last space to a word) and, for o200k_base, along a run of letters (an
// upper-case run gives back to its last letter that is also lower case).
// So w is a place to split when the character before it is printable ASCII
// other than a letter, or an ASCII letter followed by ASCII other than a
// letter, or where pretok.Cut says (no whitespace on either side and no run
// across: the incremental counter's rule, which knows every script).
//
// Prose, code and data split at nearly every word, and digits anywhere; a
// run of whitespace, or of letters with no ASCII between words, is held
// whole, as its piece must be.
type StreamCounter struct {
	e         *Encoding
	wordMarks bool
	buf       []byte // the text not counted yet: valid UTF-8, then raw bytes
	valid     int    // buf[:valid] is ValidUTF8 of the bytes it came from
	searched  int    // no place to split lies before this offset of buf
	next      int    // look for a place to split when buf reaches this length
	total     int    // tokens of the text before buf
	chunk     int
	limit     int  // StopAbove's limit; counting stops once total passes it
	over      bool // total passed limit: the rest of the text is ignored
}

// streamChunk is how much text StreamCounter gathers before it looks for a
// place to split: large enough that the search and the copy of what is
// kept cost little against counting.
const streamChunk = 1 << 20

// NewStreamCounter returns a counter over an empty text.
func (e *Encoding) NewStreamCounter() *StreamCounter {
	return &StreamCounter{e: e, wordMarks: e.enc.Pattern == tables.PatternO200k, chunk: streamChunk, next: streamChunk, limit: math.MaxInt}
}

// streamLimitChunk is how much text a counter with a limit (StopAbove)
// gathers at least before it looks for a place to split, so that it reads
// little past a small limit.
const streamLimitChunk = 64 << 10

// StopAbove makes the counter answer as WithinLimit does: it stops counting
// as soon as its count passes limit (the pieces of the text are counted in
// order, as WithinLimit counts them), Count then returns the count where it
// stopped, and what is written after is ignored (Over tells a writer it may
// stop). Until then Count is exact. Call it before the first Write. It also
// makes the counter look for places to split about every 16 bytes a token
// of limit (at least 64 KB, at most a megabyte) rather than every
// megabyte, so that the text it reads past the limit stays in proportion
// to it.
func (s *StreamCounter) StopAbove(limit int) {
	s.limit = limit
	s.over = limit < 0 // WithinLimit's answer to a negative limit: 0, over
	if limit < streamChunk/16 {
		s.chunk = max(16*limit, streamLimitChunk)
		s.next = s.chunk
	}
}

// Over reports whether the count has passed StopAbove's limit: what is
// written from then on is ignored, and Count no longer changes.
func (s *StreamCounter) Over() bool { return s.over }

// Write adds p to the text; it never fails. Bytes that are not UTF-8 count
// as ValidUTF8 makes them, even when a character is split between writes.
// Cost: O(len(p)) amortized, counting included.
func (s *StreamCounter) Write(p []byte) (int, error) {
	if s.over {
		return len(p), nil
	}
	s.buf = append(s.buf, p...)
	if len(s.buf) >= s.next {
		s.split()
	}
	return len(p), nil
}

// Count returns the number of tokens in the text written so far, as if it
// ended here; with StopAbove's limit, the count WithinLimit(text, limit)
// returns for that text. Cost: O(Held()).
func (s *StreamCounter) Count() int {
	switch {
	case s.over:
		return s.total
	case s.limit == math.MaxInt:
		return s.total + s.e.enc.Count(ValidUTF8(string(s.buf)))
	}
	n, _ := s.e.enc.WithinLimit(ValidUTF8(string(s.buf)), s.limit-s.total)
	return s.total + n
}

// Held returns the number of bytes written but not counted yet.
func (s *StreamCounter) Held() int { return len(s.buf) }

// split counts the text up to the last place to split that has at least
// four characters after it (pretok.Cut reads three), and keeps the rest.
// Each byte is searched once, and the text is copied only to count it.
func (s *StreamCounter) split() {
	defer func() { s.next = len(s.buf) + s.chunk }()
	// Make buf valid UTF-8 up to a character that may still be completed.
	end := len(s.buf)
	for k := end - 1; k >= 0 && k >= end-utf8.UTFMax+1; k-- {
		if utf8.RuneStart(s.buf[k]) {
			if !utf8.FullRune(s.buf[k:end]) {
				end = k
			}
			break
		}
	}
	if v := ValidUTF8(string(s.buf[s.valid:end])); len(v) != end-s.valid {
		s.buf = append(append(s.buf[:s.valid:s.valid], v...), s.buf[end:]...)
		end = s.valid + len(v)
	}
	s.valid = end
	stop := s.lastSplit(end - lookahead)
	s.searched = max(s.searched, end-lookahead)
	if stop == 0 {
		return
	}
	// Pieces that end by stop read no further than lookahead past it.
	text := string(s.buf[:stop+lookahead])
	i := 0
	for i < len(text) {
		j := s.e.enc.Next(text, i)
		if j > stop {
			break
		}
		s.total += s.e.enc.CountPiece(text[i:j])
		i = j
		if s.total > s.limit {
			s.over = true
			s.buf, s.valid, s.searched = nil, 0, 0
			return
		}
	}
	s.buf = s.buf[:copy(s.buf, s.buf[i:])]
	s.valid -= i
	s.searched = max(0, s.searched-i)
}

// lookahead is how much text a place to split needs after it: four
// characters at most.
const lookahead = 4 * utf8.UTFMax

// lastSplit returns the last place to split in buf after s.searched and at
// or before hi, or 0.
func (s *StreamCounter) lastSplit(hi int) int {
	lo := max(s.searched, 0)
	if hi <= lo {
		return 0
	}
	base := max(0, lo-utf8.UTFMax)
	text := string(s.buf[base : hi+lookahead])
	for w := hi; w > lo && w > 0; w-- {
		k := w - base
		if !utf8.RuneStart(text[k]) || k == 0 {
			continue
		}
		if asciiSplit(text[k-1], text[k]) || pretok.Cut(text, k, s.wordMarks) {
			return w
		}
	}
	return 0
}

// asciiSplit reports whether the pieces that end by a place between the
// characters a and b (b ASCII or the first byte of a character) are
// decided by the text up to lookahead after it (see StreamCounter).
func asciiSplit(a, b byte) bool {
	switch {
	case a <= ' ' || a >= utf8.RuneSelf-1:
		return false // whitespace, a control character, not ASCII
	case a|0x20 >= 'a' && a|0x20 <= 'z':
		return b < utf8.RuneSelf && !(b|0x20 >= 'a' && b|0x20 <= 'z')
	}
	return true
}
