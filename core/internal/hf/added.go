package hf

import "slices"

// addedSet finds added tokens in text as tokenizers.js does: scanning from
// the left, at each position the longest added token that starts there.
//
// The tokens form a byte trie whose edges are one open-addressing table,
// so a position costs a filter load when no token starts with its byte
// and one look-up per byte matched when one does. Gemma 3 has 6,322 added
// tokens starting with <, and 31 runs each of newlines and tabs: a list
// per first byte, tried in turn, cost thousands of comparisons at each <.
type addedSet struct {
	first  [256]bool    // first[b]: a token starts with byte b
	edges  pairTable    // node<<8 | byte → child<<32 | token index+1 (0: none ends at child)
	nodes  uint64       // the trie's nodes but the root (node 0)
	tokens []addedToken // in the order added
}

type addedToken struct {
	text string
	id   uint32
}

// add records an added token; a text added again takes the later id.
func (s *addedSet) add(text string, id uint32) {
	if need := s.edges.n + len(text); 2*need > len(s.edges.keys) {
		s.edges = s.edges.grown(2 * need)
	}
	s.first[text[0]] = true
	node := uint64(0)
	for i := 0; i < len(text); i++ {
		key := node<<8 | uint64(text[i])
		v, ok := s.edges.get(key)
		if !ok {
			s.nodes++
			v = s.nodes << 32
		}
		if i == len(text)-1 {
			if k := uint32(v); k != 0 {
				s.tokens[k-1].id = id
				return
			}
			s.tokens = append(s.tokens, addedToken{text, id})
			v |= uint64(len(s.tokens))
		}
		if !ok || i == len(text)-1 {
			s.edges.put(key, v)
		}
		node = v >> 32
	}
}

// next returns the first added token in s at or after i: its start and
// end and id, or start = len(s) when there is none.
func (s *addedSet) next(text string, i int) (start, end int, id uint32) {
	for ; i < len(text); i++ {
		if !s.first[text[i]] {
			continue
		}
		node, k := uint64(0), uint32(0)
		for j := i; j < len(text); j++ {
			v, ok := s.edges.get(node<<8 | uint64(text[j]))
			if !ok {
				break
			}
			node = v >> 32
			if uint32(v) != 0 {
				k, end = uint32(v), j+1
			}
		}
		if k != 0 {
			return i, end, s.tokens[k-1].id
		}
	}
	return len(text), len(text), 0
}

type listedAdded struct {
	id   uint32
	norm byte
	text string
}

// list returns the set's tokens, each marked norm, by first byte, the
// longest first, then in the order added.
func (s *addedSet) list(norm byte) []listedAdded {
	out := make([]listedAdded, 0, len(s.tokens))
	for _, t := range s.tokens {
		out = append(out, listedAdded{t.id, norm, t.text})
	}
	slices.SortStableFunc(out, func(a, b listedAdded) int {
		if a.text[0] != b.text[0] {
			return int(a.text[0]) - int(b.text[0])
		}
		return len(b.text) - len(a.text)
	})
	return out
}
