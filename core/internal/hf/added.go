package hf

// addedSet finds added tokens in text as tokenizers.js does: scanning from
// the left, at each position the longest added token that starts there.
type addedSet struct {
	byFirst [256][]addedToken // by first byte, longest first
}

type addedToken struct {
	text string
	id   uint32
}

func (s *addedSet) add(text string, id uint32) {
	l := s.byFirst[text[0]]
	i := 0
	for i < len(l) && len(l[i].text) >= len(text) {
		if l[i].text == text {
			l[i].id = id
			return
		}
		i++
	}
	l = append(l, addedToken{})
	copy(l[i+1:], l[i:])
	l[i] = addedToken{text, id}
	s.byFirst[text[0]] = l
}

// next returns the first added token in s at or after i: its start and
// end and id, or start = len(s) when there is none. A token's second byte
// is compared first, inline: Gemma 3's 31 runs of newlines, 30 of ▁ and
// 6,322 tokens starting with < are mostly told apart by it.
func (s *addedSet) next(text string, i int) (start, end int, id uint32) {
	for ; i < len(text); i++ {
		l := s.byFirst[text[i]]
		if len(l) == 0 {
			continue
		}
		var second byte
		if i+1 < len(text) {
			second = text[i+1]
		}
		for _, t := range l {
			if len(t.text) > 1 && (t.text[1] != second || len(text)-i < len(t.text)) {
				continue
			}
			if len(text)-i >= len(t.text) && text[i:i+len(t.text)] == t.text {
				return i, i + len(t.text), t.id
			}
		}
	}
	return len(text), len(text), 0
}

type listedAdded struct {
	id   uint32
	norm byte
	text string
}

// list returns the set's tokens, each marked norm.
func (s *addedSet) list(norm byte) []listedAdded {
	var out []listedAdded
	for _, l := range s.byFirst {
		for _, t := range l {
			out = append(out, listedAdded{t.id, norm, t.text})
		}
	}
	return out
}
