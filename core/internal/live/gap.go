package live

// gapBuffer holds text as b[:gs] + b[ge:], with a gap where edits go. An
// edit moves the gap to it first, copying the bytes in between, so a run of
// edits in one place costs only their own size.
type gapBuffer struct {
	b      []byte
	gs, ge int
}

func (g *gapBuffer) len() int { return len(g.b) - (g.ge - g.gs) }

func (g *gapBuffer) reset(s string) {
	g.b = make([]byte, len(s)+1024)
	copy(g.b, s)
	g.gs, g.ge = len(s), len(g.b)
}

// String returns the whole text. O(n).
func (g *gapBuffer) String() string {
	return string(g.b[:g.gs]) + string(g.b[g.ge:])
}

// slice returns text[lo:hi] as a new string. O(hi-lo).
func (g *gapBuffer) slice(lo, hi int) string {
	switch {
	case hi <= g.gs:
		return string(g.b[lo:hi])
	case lo >= g.gs:
		d := g.ge - g.gs
		return string(g.b[lo+d : hi+d])
	}
	out := make([]byte, 0, hi-lo)
	out = append(out, g.b[lo:g.gs]...)
	out = append(out, g.b[g.ge:g.ge+hi-g.gs]...)
	return string(out)
}

// moveGap puts the gap at text offset p. O(|p - gs|).
func (g *gapBuffer) moveGap(p int) {
	switch {
	case p < g.gs:
		n := g.gs - p
		copy(g.b[g.ge-n:g.ge], g.b[p:g.gs])
		g.gs, g.ge = p, g.ge-n
	case p > g.gs:
		n := p - g.gs
		copy(g.b[g.gs:g.gs+n], g.b[g.ge:g.ge+n])
		g.gs, g.ge = p, g.ge+n
	}
}

// replace deletes del bytes at p and inserts ins there.
func (g *gapBuffer) replace(p, del int, ins string) {
	g.moveGap(p)
	g.ge += del
	if g.ge-g.gs < len(ins) {
		// Grow the gap: double the buffer, at least enough for ins.
		tail := len(g.b) - g.ge
		nb := make([]byte, max(2*len(g.b), g.gs+len(ins)+tail+1024))
		copy(nb, g.b[:g.gs])
		copy(nb[len(nb)-tail:], g.b[g.ge:])
		g.b, g.ge = nb, len(nb)-tail
	}
	copy(g.b[g.gs:], ins)
	g.gs += len(ins)
}
