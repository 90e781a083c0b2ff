package engine

import (
	"strconv"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/live"
)

// Units says how a LiveCounter's offsets count: in bytes of UTF-8, or in
// UTF-16 code units as JavaScript strings and text areas do.
type Units int

const (
	Bytes Units = iota
	UTF16
)

// LiveCounter keeps the exact token count of a text while it is edited, for
// a composer that shows the count on every keystroke. An edit costs time in
// proportion to its size and the pieces around it, not to the text:
// O(edit + the pieces around it). Not safe for concurrent use.
type LiveCounter struct {
	c     counter
	units Units
}

// counter is what a LiveCounter keeps the text and count in: a
// *live.Counter for an Encoding, a recount for an HFTokenizer (hf.go).
type counter interface {
	Reset(text string)
	Edit(at, del int, ins string) int
	Count() int
	Text() string
	Len() int
	Len16() int
	ByteOffset(u int) (int, bool)
	ByteAt(p int) byte
	Encoding() string
}

// MaxLiveCounters is the most live counters one module instance (one
// core.API, one lean module) keeps at once; making another is an error
// (TooManyLiveCounters) until one is freed. Each counter holds its text and
// the pieces around its edits, about 5 KB for a short text, so the bound
// keeps an instance whose counters are never freed near 5 MB instead of
// growing without limit. Every host's bound is this one.
const MaxLiveCounters = 1024

// TooManyLiveCounters is the error for a live counter past MaxLiveCounters.
func TooManyLiveCounters() error {
	return &Error{Err: ErrInvalidRequest, Detail: ": " + strconv.Itoa(MaxLiveCounters) +
		" live counters are open, the most one instance keeps: free one (liveFree) before making another"}
}

// NewLiveCounter returns a counter over an empty text whose offsets count in
// units.
func (e *Encoding) NewLiveCounter(units Units) *LiveCounter {
	return &LiveCounter{c: live.New(e.enc), units: units}
}

// Reset replaces the whole text and returns its count. Text that is not
// UTF-8 is kept as ValidUTF8(text), and offsets count in that. O(n).
func (l *LiveCounter) Reset(text string) int {
	l.c.Reset(ValidUTF8(text))
	return l.c.Count()
}

// Edit deletes del units at offset at, inserts ins there, and returns the
// new count. Offsets must lie within the text and, in UTF-16 units, not
// inside a surrogate pair; in bytes, on character boundaries. A bad offset
// is an error wrapping ErrInvalidRequest (field "at") and changes nothing.
// ins that is not UTF-8 is inserted as ValidUTF8(ins).
func (l *LiveCounter) Edit(at, del int, ins string) (int, error) {
	if at < 0 || del < 0 || at > l.Len() || del > l.Len()-at {
		return l.c.Count(), l.badOffsets(at, del)
	}
	b, e := at, at+del
	if l.units == UTF16 {
		var ok1, ok2 bool
		b, ok1 = l.c.ByteOffset(at)
		e, ok2 = l.c.ByteOffset(at + del)
		if !ok1 || !ok2 {
			return l.c.Count(), l.badOffsets(at, del)
		}
	} else if !l.boundary(b) || !l.boundary(e) {
		return l.c.Count(), l.badOffsets(at, del)
	}
	return l.c.Edit(b, e-b, ValidUTF8(ins)), nil
}

func (l *LiveCounter) badOffsets(at, del int) error {
	unit, inside := " bytes", "a character"
	if l.units == UTF16 {
		unit, inside = " UTF-16 units", "a surrogate pair"
	}
	span := strconv.Itoa(at) + ".." + strconv.Itoa(at+del)
	if at < 0 || del < 0 {
		span = "at " + strconv.Itoa(at) + ", delete " + strconv.Itoa(del)
	}
	return &Error{Err: ErrInvalidRequest, Field: "at", Detail: ": at: offsets " + span +
		" are outside the text (" + strconv.Itoa(l.Len()) + unit + ") or inside " + inside}
}

func (l *LiveCounter) boundary(p int) bool {
	return p == 0 || p == l.c.Len() || utf8.RuneStart(l.c.ByteAt(p))
}

// Count returns the current count. O(1).
func (l *LiveCounter) Count() int { return l.c.Count() }

// Text returns the current text. O(n).
func (l *LiveCounter) Text() string { return l.c.Text() }

// Len returns the text's length in the counter's units.
func (l *LiveCounter) Len() int {
	if l.units == UTF16 {
		return l.c.Len16()
	}
	return l.c.Len()
}

// Encoding returns the name of the counter's encoding.
func (l *LiveCounter) Encoding() string { return l.c.Encoding() }
