package core

import (
	"strings"
	"unicode/utf8"
)

// Token-aware chunking: split a large text (a tool result, a retrieved
// document) into pieces of at most MaxTokens tokens, instead of cutting at a
// character count such as "16K characters", which is 4K tokens of English
// but 16K of some scripts.

// ChunkRequest asks for Text in chunks of at most MaxTokens tokens, each
// after the first starting Overlap tokens before the previous one ended.
type ChunkRequest struct {
	Target
	Text      string `json:"text"`
	MaxTokens int    `json:"maxTokens"`
	Overlap   int    `json:"overlap,omitempty"`
}

// Chunk is one piece: Text is the input's bytes [Start, End), and Tokens its
// count on its own. Without overlap, chunk i+1 starts where chunk i ends, so
// the chunks concatenate back to the input exactly; with overlap, Text
// [End of the previous chunk, End) is what the chunk adds. Input that is not
// UTF-8 is chunked as ValidUTF8 makes it, and offsets count in that.
type Chunk struct {
	Text string `json:"text"`
	// Start and End are UTF-8 byte offsets of the chunk in the text.
	Start  int `json:"start"`
	End    int `json:"end"`
	Tokens int `json:"tokens"`
	// Cut says where the chunk ended: "paragraph", "line", "sentence",
	// "word", "token" (no better boundary was close) or "end".
	Cut string `json:"cut"`
}

// ChunkAnswer is chunk's answer: the text split into chunks of at most
// maxTokens tokens.
type ChunkAnswer struct {
	Chunks []Chunk `json:"chunks"`
	Counted
}

// nearFraction: a boundary counts as close when it keeps at least this much
// of the tokens a chunk could hold.
const nearFraction = 0.5

// Chunk splits text at token boundaries, preferring to end a chunk after a
// paragraph break, then a line break, then a sentence, then a word, when
// one falls in the last half of the chunk's room. Cost: O(n) for the
// encoding, plus re-counting each chunk on its own. Chunks whose answer
// would outgrow MaxGrowth times the text (tiny chunks of a long text,
// or much overlap) are refused with ErrTooLarge (API.md, Limits).
func (r *Registry) Chunk(req ChunkRequest) (ChunkAnswer, error) {
	switch {
	case req.MaxTokens <= 0:
		return ChunkAnswer{}, fieldErr("maxTokens", "must be a positive number of tokens")
	case req.Overlap < 0 || req.Overlap > req.MaxTokens/2:
		return ChunkAnswer{}, fieldErr("overlap", "must be from 0 to half of maxTokens (%d)", req.MaxTokens/2)
	}
	tok, c, err := r.target(req.Target)
	if err != nil {
		return ChunkAnswer{}, err
	}
	// Boundaries come from an exact encoding: the model's, or the base of
	// its estimate with the room scaled down so the estimate fits.
	enc, room, overlap := boundaries(tok, req.MaxTokens, req.Overlap)
	if enc == nil {
		return ChunkAnswer{}, fieldErr("encoding", "%s is a heuristic: it has no token boundaries to cut at", tok.Name())
	}
	text := ValidUTF8(req.Text)              // the text the chunks concatenate back to
	bounds := enc.AppendEnds([]int{0}, text) // bounds[k]: byte offset after k tokens
	ends := bounds[1:]
	// The answer is held to the answer budget of its text: first by the
	// chunks the tokens make when each adds room-overlap tokens to the
	// ones before (the most it can add but for a chunk shorter than the
	// overlap), before any is cut, then chunk by chunk as the answer will
	// write them (chunkJSON).
	budget, step := answerBudget(len(text)), max(1, room-overlap)
	if need := len(text) + chunkOverhead*((len(ends)+step-1)/step); need > budget {
		return ChunkAnswer{}, tooLarge("the chunks", need, budget)
	}
	size := 0
	// floor moves a token boundary that falls inside a character (an emoji
	// can be two tokens) back to the character's start.
	floor := func(b int) int { return charStart(text, b) }
	out := []Chunk{}
	prevEnd, prevStop := 0, 0 // where the previous chunk ended: token index, byte
	for pos, k := 0, 0; pos < len(text); {
		r.stop.Check()
		limit, cut := len(ends), "end"
		if k+room < len(ends) {
			// With overlap, a chunk must reach past the previous one.
			limit, cut = bestCut(text, bounds, max(k, prevEnd), k+room, room-max(0, prevEnd-k))
		}
		// A chunk counted on its own can differ from its span's tokens in
		// the whole text: give back tokens until it fits.
		e, stop, n := limit, 0, 0
		for ; e > k; e-- {
			stop = floor(bounds[e])
			if stop > pos {
				if n = tok.Count(text[pos:stop]); tok.Upper(n) <= req.MaxTokens {
					break
				}
			}
		}
		if e == k {
			// No token boundary of the whole text fits (" I'" is one token
			// in " I'M" and two on its own): the longest run of characters
			// before the next boundary that fits, else one character anyway.
			for e = k + 1; floor(bounds[e]) <= pos; e++ {
			}
			stop = fitChars(tok, text, pos, floor(bounds[e]), req.MaxTokens)
			n = tok.Count(text[pos:stop])
		}
		inside := stop != floor(bounds[e]) // cut inside token e-1 of the whole text
		if e < limit || inside {
			cut = "token"
		}
		if stop <= prevStop && pos < prevStop {
			// The overlap leaves no room to move forward (a character of
			// several tokens follows): start this chunk where the last ended.
			pos = prevStop
			for k < len(ends) && bounds[k] < pos {
				k++
			}
			continue
		}
		if size += chunkJSON(text[pos:stop], pos, stop, n, cut); size > budget {
			return ChunkAnswer{}, tooLarge("the chunks", size, budget)
		}
		out = append(out, Chunk{Text: text[pos:stop], Start: pos, End: stop, Tokens: n, Cut: cut})
		if stop == len(text) {
			break
		}
		prevEnd, prevStop = e, stop
		if inside { // the next chunk starts inside that token: no tokens to step back over
			k, pos = e-1, stop
			continue
		}
		if overlap == 0 {
			pos = stop
			for k < len(ends) && bounds[k] < pos {
				k++
			}
			continue
		}
		// Step back overlap tokens, but always move forward.
		next := max(e-overlap, k+1)
		for next < e && floor(bounds[next]) <= pos {
			next++
		}
		k, pos = next, floor(bounds[next])
	}
	return ChunkAnswer{Chunks: out, Counted: c}, nil
}

// boundaries picks the exact encoding whose token boundaries chunks are cut
// at, and the room in its tokens.
func boundaries(tok Tokenizer, maxTokens, overlap int) (idTokenizer, int, int) {
	switch t := tok.(type) {
	case idTokenizer:
		return t, maxTokens, overlap
	case *scaled:
		enc, room, ov := boundaries(t.base, maxTokens, overlap)
		scale := t.most() * (1 + t.bound)
		return enc, max(1, int(float64(room)/scale)), int(float64(ov) / scale)
	}
	return nil, 0, 0
}

// bestCut chooses where a chunk that starts at token k and may run to token
// limit ends: after the last paragraph break, line break, sentence end or
// word end in its last half, in that order of preference.
func bestCut(text string, bounds []int, k, limit, room int) (int, string) {
	lo := k + max(1, int(float64(room)*nearFraction))
	for _, kind := range []struct {
		name string
		ends func(before string, after byte) bool
	}{
		{"paragraph", func(b string, _ byte) bool { return strings.HasSuffix(b, "\n\n") || strings.HasSuffix(b, "\r\n\r\n") }},
		{"line", func(b string, _ byte) bool { return strings.HasSuffix(b, "\n") }},
		{"sentence", endsSentence},
		{"word", func(b string, after byte) bool { return after == ' ' || after == '\t' || after == '\n' }},
	} {
		for e := limit; e >= lo; e-- {
			at := bounds[e]
			if at <= 0 || at >= len(text) {
				continue
			}
			if kind.ends(text[:at], text[at]) {
				return e, kind.name
			}
		}
	}
	return limit, "token"
}

// endsSentence reports whether text ending in b ends a sentence: a full stop,
// question or exclamation mark (Latin, CJK, Arabic, Devanagari) before a
// space or line break.
func endsSentence(b string, after byte) bool {
	for _, mark := range []string{".", "!", "?", "。", "！", "？", "؟", "।", "…"} {
		if strings.HasSuffix(b, mark) {
			return after == ' ' || after == '\n' || after == '\r' || len(mark) > 1
		}
	}
	return false
}

// fitChars returns the end of the longest run of whole characters of
// text[pos:hi] that counts at most maxTokens on its own, or of its first
// character when none does. Cost: O((hi-pos)²), hi-pos within one token.
func fitChars(tok Tokenizer, text string, pos, hi, maxTokens int) int {
	_, first := utf8.DecodeRuneInString(text[pos:hi])
	for c := hi - 1; c > pos+first; c-- {
		if utf8.RuneStart(text[c]) && tok.Upper(tok.Count(text[pos:c])) <= maxTokens {
			return c
		}
	}
	return pos + first
}

// charStart returns b, or the start of the valid UTF-8 sequence that b falls
// inside. Bytes that are not valid UTF-8 are characters of their own.
func charStart(text string, b int) int {
	for j := b - 1; j >= 0 && j >= b-3 && b < len(text); j-- {
		if utf8.RuneStart(text[j]) {
			if r, n := utf8.DecodeRuneInString(text[j:]); r != utf8.RuneError || n > 1 {
				if j+n > b {
					return j
				}
			}
			break
		}
	}
	return b
}
