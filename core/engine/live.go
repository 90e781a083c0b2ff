package engine

import (
	"strconv"

	"github.com/tokenfit/tokenfit/core/internal/live"
)

// Live keeps the exact token count of a text while it is edited, with
// offsets in UTF-16 code units as JavaScript strings and text areas count
// them. An edit costs time in proportion to its size and the pieces around
// it, not to the text. Not safe for concurrent use.
type Live struct {
	c *live.Counter
}

// NewLive returns a live counter over an empty text.
func (e *Encoding) NewLive() *Live { return &Live{c: live.New(e.enc)} }

// Reset replaces the whole text and returns its count. O(n).
func (l *Live) Reset(text string) int {
	l.c.Reset(text)
	return l.c.Count()
}

// Edit deletes del UTF-16 units at offset at, inserts ins there, and returns
// the new count. The offsets must lie within the text and not inside a
// surrogate pair; otherwise the error wraps ErrInvalidRequest and the text
// is unchanged.
func (l *Live) Edit(at, del int, ins string) (int, error) {
	if at < 0 || del < 0 {
		return l.c.Count(), &Error{Err: ErrInvalidRequest, Field: "at", Detail: ": at: offsets must not be negative"}
	}
	b, ok1 := l.c.ByteOffset(at)
	e, ok2 := l.c.ByteOffset(at + del)
	if !ok1 || !ok2 {
		return l.c.Count(), &Error{Err: ErrInvalidRequest, Field: "at", Detail: ": at: offsets " + strconv.Itoa(at) + ".." + strconv.Itoa(at+del) +
			" are outside the text (" + strconv.Itoa(l.c.Len16()) + " UTF-16 units) or inside a surrogate pair"}
	}
	return l.c.Edit(b, e-b, ins), nil
}

// Count returns the current count. O(1).
func (l *Live) Count() int { return l.c.Count() }

// Text returns the current text. O(n).
func (l *Live) Text() string { return l.c.Text() }

// Len16 returns the text's length in UTF-16 code units.
func (l *Live) Len16() int { return l.c.Len16() }
