package chat

import (
	"slices"
	"testing"
)

// TestShapes_HistoryFold: the pieces a translated message becomes count,
// stay and go as that message.
func TestShapes_HistoryFold(t *testing.T) {
	h := History{
		{from: &origin{ShapeAnthropic, 0}},
		{from: &origin{ShapeAnthropic, 1}},
		{from: &origin{ShapeAnthropic, 2}}, // a tool result: joins 1's atom
		{from: &origin{ShapeAnthropic, 2}}, // the text after it: a new atom
		{from: &origin{ShapeAnthropic, 3}},
	}
	items := []HistoryItem{{Tokens: 1, Atom: 0}, {Tokens: 2, Atom: 1}, {Tokens: 3, Atom: 1}, {Tokens: 4, Atom: 2}, {Tokens: 5, Atom: 3}}
	got := h.fold(items)
	want := []HistoryItem{{Tokens: 1, Atom: 0}, {Tokens: 2, Atom: 1}, {Tokens: 7, Atom: 1}, {Tokens: 5, Atom: 2}}
	if !slices.Equal(got, want) {
		t.Errorf("fold = %+v, want %+v", got, want)
	}
	if h.Len() != 4 || h.Shape() != ShapeAnthropic {
		t.Errorf("Len %d, Shape %s", h.Len(), h.Shape())
	}
}
