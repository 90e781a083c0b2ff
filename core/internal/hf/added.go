package hf

import (
	"cmp"
	"slices"
)

// addedSet finds added tokens in text as Hugging Face's libraries do:
// scanning from the left, the first position where an added token starts,
// and there the longest one (the Rust library's leftmost-longest
// Aho–Corasick match; tokenizers.js tries a trie at each position).
//
// What decides the matches is L(i), the longest token text[i:] starts
// with. Found by walking a trie from each position, as tokenizers.js does,
// it costs up to the longest token's length at every position: one token
// "a"×20000+"b" against 100 KB of "a" is 2·10⁹ steps. Here the tokens are
// reversed and made an Aho–Corasick automaton, and the text is read from
// its end: after reading text[i:] backwards, the automaton's state is the
// longest reversed-token prefix that the bytes read end with, that is the
// longest token suffix that text[i:] starts with, and the state's output is
// the longest token among those: L(i), for every i, in one pass of
// amortized constant work per byte. Only a state's own byte is stored: its
// children are consecutive in breadth-first order, found by a binary search
// of their bytes, so the automaton takes 13 bytes per distinct token prefix
// (a trie whose edges were a hash table took about 90 bytes per byte of
// token; 65,536 tokens of 130 bytes, 760 MB).
type addedSet struct {
	tokens  []addedToken   // in the order added
	index   map[string]int // text → index in tokens, while loading (build drops it)
	longest int            // the longest token's length

	// The automaton, built by build: states in breadth-first order, children
	// in byte order, the root 0.
	root  [256]uint32 // the root's child by byte, or 0
	first []uint32    // the children of state s are first[s] to first[s+1]
	label []byte      // the byte that leads to state s
	fail  []uint32    // the state of the longest proper suffix of s's bytes that is a state
	out   []uint32    // index+1 of the longest token that s's bytes (reversed) end with, or 0
}

type addedToken struct {
	text    string // what is matched
	content string // as the file writes it (text before the normalizer), which a table keeps
	id      uint32
}

// add records an added token; a text added again keeps its place and takes
// the later id and content. build must follow the last add.
func (s *addedSet) add(text, content string, id uint32) {
	if k, ok := s.index[text]; ok {
		s.tokens[k].id, s.tokens[k].content = id, content
		return
	}
	if s.index == nil {
		s.index = map[string]int{}
	}
	s.index[text] = len(s.tokens)
	s.tokens = append(s.tokens, addedToken{text, content, id})
	s.longest = max(s.longest, len(text))
}

// build makes the automaton of the reversed tokens. Cost: O(b log t) for t
// tokens of b bytes in all; memory O(b) (the states) and O(t) while it
// runs.
func (s *addedSet) build() {
	s.index = nil
	if len(s.tokens) == 0 {
		return
	}
	// rev is byte d of token k reversed, or -1 past its end.
	rev := func(k int32, d int) int {
		t := s.tokens[k].text
		if d >= len(t) {
			return -1
		}
		return int(t[len(t)-1-d])
	}
	// Level by level: a group is the tokens that share their first d
	// reversed bytes, a state of depth d; split by byte d, they make its
	// children, in byte order, numbered as they come.
	type group struct{ lo, hi int32 }
	order := make([]int32, len(s.tokens))
	for k := range order {
		order[k] = int32(k)
	}
	level := []group{{0, int32(len(order))}}
	// At most a state per byte of token, and the root: room for them all at
	// once, so that growing leaves no copies behind.
	n := 1
	for _, t := range s.tokens {
		n += len(t.text)
	}
	s.label, s.out, s.first = make([]byte, 1, n), make([]uint32, 1, n), make([]uint32, 1, n+1)
	for d, base := 0, 0; len(level) > 0; d++ {
		var next []group
		nextBase := base + len(level)
		for i, g := range level {
			st := base + i
			part := order[g.lo:g.hi]
			if len(part) > 1 {
				slices.SortFunc(part, func(a, b int32) int { return cmp.Compare(rev(a, d), rev(b, d)) })
			}
			lo := g.lo
			if rev(order[lo], d) < 0 { // the token that ends here (texts are distinct)
				s.out[st] = uint32(order[lo]) + 1
				lo++
			}
			s.first[st] = uint32(nextBase + len(next))
			for j := lo; j < g.hi; {
				e := j + 1
				for e < g.hi && rev(order[e], d) == rev(order[j], d) {
					e++
				}
				next = append(next, group{j, e})
				s.first = append(s.first, 0)
				s.label = append(s.label, byte(rev(order[j], d)))
				s.out = append(s.out, 0)
				j = e
			}
		}
		level, base = next, nextBase
	}
	s.first = append(s.first, uint32(len(s.label))) // where the last state's children would start
	for c := s.first[0]; c < s.first[1]; c++ {
		s.root[s.label[c]] = c
	}
	// Failure links and outputs, breadth first: a state's fail is shallower.
	s.fail = make([]uint32, len(s.label))
	for st := range uint32(len(s.label)) {
		for c := s.first[st]; c < s.first[st+1]; c++ {
			f := uint32(0)
			if st != 0 {
				for f = s.fail[st]; ; f = s.fail[f] {
					if x := s.child(f, s.label[c]); x != 0 {
						f = x
						break
					}
					if f == 0 {
						break
					}
				}
			}
			s.fail[c] = f
			if s.out[c] == 0 {
				s.out[c] = s.out[f]
			}
		}
	}
}

// child returns the child of state st by byte c, or 0.
func (s *addedSet) child(st uint32, c byte) uint32 {
	if st == 0 {
		return s.root[c]
	}
	lo, hi := s.first[st], s.first[st+1]
	for lo < hi {
		mid := lo + (hi-lo)/2
		if s.label[mid] < c {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < s.first[st+1] && s.label[lo] == c {
		return lo
	}
	return 0
}

// addedHit is a position where a token starts, and that token (index+1).
type addedHit struct {
	pos int
	tok uint32
}

// addedScan gives the added tokens of one text in turn, leftmost first.
// It reads the text backwards in windows of addedWindow bytes (or the
// longest token's length, if longer), each from longest-1 bytes past its
// end, where the automaton's state is right again whatever came after: the
// text is read at most twice, and the starts waiting to be given are at
// most a window's.
type addedScan struct {
	set  *addedSet
	text string
	pos  int        // where the next token may start
	end  int        // hits holds the starts below end (at pos or later)
	hits []addedHit // by decreasing position
}

const addedWindow = 4096

// scan returns the scan of text, keeping the starts in hits' memory.
func (s *addedSet) scan(text string, hits []addedHit) addedScan {
	return addedScan{set: s, text: text, hits: hits[:0]}
}

// next returns the next added token: its start and end and id, or start =
// len(text) when there is none. Cost: O(n) amortized over a text of n
// bytes.
func (a *addedScan) next() (start, end int, id uint32) {
	s := a.set
	for {
		for len(a.hits) > 0 {
			h := a.hits[len(a.hits)-1]
			a.hits = a.hits[:len(a.hits)-1]
			if h.pos >= a.pos {
				t := &s.tokens[h.tok-1]
				a.pos = h.pos + len(t.text)
				return h.pos, a.pos, t.id
			}
		}
		if a.end >= len(a.text) || len(s.tokens) == 0 {
			a.pos = len(a.text)
			return a.pos, a.pos, 0
		}
		a.end = max(a.pos, a.end)
		a.fill(a.end, min(len(a.text), a.end+max(addedWindow, s.longest)))
	}
}

// fill finds the longest token starting at each position of [from, to)
// (appending them to hits, the last first) and sets end to to.
func (a *addedScan) fill(from, to int) {
	s, text := a.set, a.text
	st := uint32(0)
	for i := min(len(text), to+s.longest-1) - 1; i >= from; i-- {
		c := text[i]
		if st == 0 {
			if st = s.root[c]; st == 0 {
				continue
			}
		} else {
			for {
				if x := s.child(st, c); x != 0 {
					st = x
					break
				}
				if st == 0 {
					break
				}
				st = s.fail[st]
			}
		}
		if k := s.out[st]; k != 0 && i < to {
			a.hits = append(a.hits, addedHit{i, k})
		}
	}
	a.end = to
}

type listedAdded struct {
	id   uint32
	norm byte
	text string
}

// list returns the set's tokens (their content), each marked norm, by
// first byte, the longest first, then in the order added.
func (s *addedSet) list(norm byte) []listedAdded {
	out := make([]listedAdded, 0, len(s.tokens))
	for _, t := range s.tokens {
		out = append(out, listedAdded{t.id, norm, t.content})
	}
	slices.SortStableFunc(out, func(a, b listedAdded) int {
		if a.text[0] != b.text[0] {
			return int(a.text[0]) - int(b.text[0])
		}
		return len(b.text) - len(a.text)
	})
	return out
}
