package bpe

// Pieces longer than a window (a megabyte of one letter is one piece) are
// merged window by window, so that memory stays bounded whatever the input:
// the merge's scratch is ~40 bytes per byte of what it merges at once.
//
// This is exact, not an approximation. In a BPE over these vocabularies a
// token sequence is the encoding of its text if and only if every adjacent
// pair (a, b) is the encoding of a's bytes followed by b's (the property the
// rust-gems bpe crate builds its backtracking encoder on). Two consequences:
//
//  1. If q is a token boundary of the encoding of w, the tokens of w before
//     q are the encoding of w[:q].
//  2. Encodings of consecutive parts, joined, are the encoding of the whole
//     when each junction pair is valid.
//
// So a window is merged, cut at one of its token boundaries well before its
// end, and the next window starts at the cut; a junction that is not valid
// moves the cut one token back. TestWindow_Exact holds this against merging
// whole pieces.

// window is the most bytes merged at once; cutAt, where in a window it is
// cut. Variables for the tests, which make windows small and cuts late so
// that junctions fail and the step back is exercised.
var (
	window = 1 << 16
	cutAt  = 0.9
)

// eachToken calls f with each token of a piece that is not a whole token,
// in order. Cost: O(n) time; O(window) memory beyond the piece.
func (v *Vocab) eachToken(p string, f func(tok string)) {
	if len(p) <= window {
		v.splitLong(p, func(next []int32) {
			for i := int32(0); int(i) < len(p); i = next[i] {
				f(p[i:next[i]])
			}
		})
		return
	}
	// cur is the window being cut: its text, its token boundaries, and k,
	// the boundary where the next window starts.
	type cut struct {
		w      string
		starts []int32
		k      int
	}
	next := func(pos int) cut {
		w := p[pos:min(len(p), pos+window)]
		var c cut
		v.mergeWindow(w, func(starts []int32) { c = cut{w: w, starts: append([]int32(nil), starts...)} })
		c.k = len(c.starts) - 1
		if pos+len(w) < len(p) { // not the last window: cut before cutAt
			for c.k > 1 && float64(c.starts[c.k]) > float64(len(w))*cutAt {
				c.k--
			}
		}
		return c
	}
	pos := 0
	cur := next(pos)
	for {
		end := pos + int(cur.starts[cur.k])
		if end == len(p) {
			for i := 0; i < cur.k; i++ {
				f(cur.w[cur.starts[i]:cur.starts[i+1]])
			}
			return
		}
		nxt := next(end)
		last := cur.w[cur.starts[cur.k-1]:cur.starts[cur.k]]
		if !v.validPair(last, nxt.w[:nxt.starts[1]]) {
			if cur.k > 1 {
				cur.k-- // cut one token earlier and merge the next window again
				continue
			}
			// No valid junction in this window: merge the rest whole.
			v.mergeWindow(p[pos:], func(starts []int32) {
				for i := 0; i+1 < len(starts); i++ {
					f(p[pos+int(starts[i]) : pos+int(starts[i+1])])
				}
			})
			return
		}
		for i := 0; i < cur.k; i++ {
			f(cur.w[cur.starts[i]:cur.starts[i+1]])
		}
		pos, cur = end, nxt
	}
}

// mergeWindow merges s and hands its token starts, then len(s), to use.
func (v *Vocab) mergeWindow(s string, use func(starts []int32)) {
	v.splitLong(s, func(next []int32) {
		var starts []int32
		for i := int32(0); int(i) < len(s); i = next[i] {
			starts = append(starts, i)
		}
		use(append(starts, int32(len(s))))
	})
}

// validPair reports whether tokens a and b, adjacent, are the encoding of
// their joined bytes. Cost: one merge of at most 2 × maxLen bytes.
func (v *Vocab) validPair(a, b string) bool {
	s := a + b
	if len(s) <= smallPiece {
		var buf [smallPiece + 1]part
		parts := v.splitSmall(s, &buf)
		return len(parts) == 3 && int(parts[1].start) == len(a)
	}
	ok := false
	v.splitLong(s, func(next []int32) {
		ok = int(next[0]) == len(a) && int(next[len(a)]) == len(s)
	})
	return ok
}
