package core

import (
	"sync"
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
// proportion to its size and the pieces around it, not to the text: about
// 6 µs for a keystroke in a 1 MB document natively. Not safe for concurrent
// use.
type LiveCounter struct {
	c     *live.Counter
	units Units
}

// NewLiveCounter returns a counter over an empty text whose offsets count in
// units.
func (e *Encoding) NewLiveCounter(units Units) *LiveCounter {
	return &LiveCounter{c: live.New(e.enc), units: units}
}

// Reset replaces the whole text and returns its count. O(n).
func (l *LiveCounter) Reset(text string) int {
	l.c.Reset(text)
	return l.c.Count()
}

// Edit deletes del units at offset at, inserts ins there, and returns the
// new count. Offsets must lie within the text and, in UTF-16 units, not
// inside a surrogate pair; in bytes, on character boundaries. A bad offset
// is an error wrapping ErrInvalidRequest and changes nothing.
func (l *LiveCounter) Edit(at, del int, ins string) (int, error) {
	if at < 0 || del < 0 {
		return l.c.Count(), fieldErr("at", "offsets must not be negative")
	}
	// Checked before at+del is formed: it could overflow.
	if n := l.Len(); at > n || del > n-at {
		return l.c.Count(), fieldErr("at", "offsets %d..%d+%d are outside the text (%d units)", at, at, del, n)
	}
	b, e := at, at+del
	switch l.units {
	case UTF16:
		var ok1, ok2 bool
		b, ok1 = l.c.ByteOffset(at)
		e, ok2 = l.c.ByteOffset(at + del)
		if !ok1 || !ok2 {
			return l.c.Count(), fieldErr("at", "offsets %d..%d are outside the text (%d UTF-16 units) or inside a surrogate pair", at, at+del, l.c.Len16())
		}
	default:
		text := l.c.Len()
		if e > text || !l.boundary(b) || !l.boundary(e) {
			return l.c.Count(), fieldErr("at", "offsets %d..%d are outside the text (%d bytes) or inside a character", at, at+del, text)
		}
	}
	return l.c.Edit(b, e-b, ins), nil
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

// lives holds an API's live counters by id, for hosts that reach them
// through JSON (the WebAssembly modules).
type lives struct {
	mu   sync.Mutex
	next int
	m    map[int]*LiveCounter
}

// LiveNewRequest opens a live counter.
type LiveNewRequest struct {
	Target
	Text string `json:"text"`
	// Units is "utf16" (the default: JavaScript offsets) or "bytes".
	Units string `json:"units,omitempty"`
}

// LiveEditRequest edits a live counter's text.
type LiveEditRequest struct {
	ID     int    `json:"id"`
	At     int    `json:"at"`
	Delete int    `json:"delete"`
	Insert string `json:"insert"`
}

// LiveRequest names a live counter (liveText, liveFree) or resets it.
type LiveRequest struct {
	ID   int     `json:"id"`
	Text *string `json:"text,omitempty"`
}

// LiveAnswer is a live counter's state.
type LiveAnswer struct {
	ID     int     `json:"id"`
	Tokens int     `json:"tokens"`
	Length int     `json:"length"`
	Text   *string `json:"text,omitempty"`
	Counted
}

func (a *API) liveNew(r LiveNewRequest) (any, error) {
	e, c, err := a.Registry().exactTarget(r.Target)
	if err != nil {
		return nil, err
	}
	units := UTF16
	switch r.Units {
	case "", "utf16":
	case "bytes":
		units = Bytes
	default:
		return nil, fieldErr("units", `must be "utf16" or "bytes"`)
	}
	l := e.NewLiveCounter(units)
	l.Reset(r.Text)
	a.lives.mu.Lock()
	defer a.lives.mu.Unlock()
	if a.lives.m == nil {
		a.lives.m = map[int]*LiveCounter{}
	}
	a.lives.next++
	a.lives.m[a.lives.next] = l
	return LiveAnswer{ID: a.lives.next, Tokens: l.Count(), Length: l.Len(), Counted: c}, nil
}

func (a *API) live(id int) (*LiveCounter, error) {
	a.lives.mu.Lock()
	defer a.lives.mu.Unlock()
	l := a.lives.m[id]
	if l == nil {
		return nil, fieldErr("id", "no live counter %d (closed, or never opened)", id)
	}
	return l, nil
}

func (a *API) liveEdit(r LiveEditRequest) (any, error) {
	l, err := a.live(r.ID)
	if err != nil {
		return nil, err
	}
	n, err := l.Edit(r.At, r.Delete, r.Insert)
	if err != nil {
		return nil, err
	}
	return LiveAnswer{ID: r.ID, Tokens: n, Length: l.Len(), Counted: l.counted()}, nil
}

func (a *API) liveGet(r LiveRequest) (any, error) {
	l, err := a.live(r.ID)
	if err != nil {
		return nil, err
	}
	if r.Text != nil {
		l.Reset(*r.Text)
		return LiveAnswer{ID: r.ID, Tokens: l.Count(), Length: l.Len(), Counted: l.counted()}, nil
	}
	t := l.Text()
	return LiveAnswer{ID: r.ID, Tokens: l.Count(), Length: l.Len(), Text: &t, Counted: l.counted()}, nil
}

func (a *API) liveFree(r LiveRequest) (any, error) {
	a.lives.mu.Lock()
	defer a.lives.mu.Unlock()
	if a.lives.m[r.ID] == nil {
		return nil, fieldErr("id", "no live counter %d", r.ID)
	}
	delete(a.lives.m, r.ID)
	return map[string]bool{"freed": true}, nil
}

func (l *LiveCounter) counted() Counted {
	return Counted{Encoding: l.c.Encoding(), Exact: true}
}
