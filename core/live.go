package core

import (
	"sync"

	"github.com/tokenfit/tokenfit/core/engine"
)

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
	if len(a.lives.m) >= engine.MaxLiveCounters {
		return nil, engine.TooManyLiveCounters()
	}
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
	return LiveAnswer{ID: r.ID, Tokens: n, Length: l.Len(), Counted: counted(l)}, nil
}

func (a *API) liveGet(r LiveRequest) (any, error) {
	l, err := a.live(r.ID)
	if err != nil {
		return nil, err
	}
	if r.Text != nil {
		l.Reset(*r.Text)
		return LiveAnswer{ID: r.ID, Tokens: l.Count(), Length: l.Len(), Counted: counted(l)}, nil
	}
	t := l.Text()
	return LiveAnswer{ID: r.ID, Tokens: l.Count(), Length: l.Len(), Text: &t, Counted: counted(l)}, nil
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

func counted(l *LiveCounter) Counted {
	return Counted{Encoding: l.Encoding(), Exact: true}
}
