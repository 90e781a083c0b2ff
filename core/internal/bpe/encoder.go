package bpe

import (
	"runtime"
	"strconv"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/pretok"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// Encoder is one encoding: a vocabulary and its pre-tokenizer. Special-token
// text such as <|endoftext|> is ordinary text to it, as in tiktoken's
// encode_ordinary. It is safe for concurrent use.
type Encoder struct {
	*Vocab
}

// New builds an encoder over a parsed table. With own false it uses the
// table's bytes in place (see NewVocab).
func New(t *tables.Table, own bool) (*Encoder, error) {
	v, err := NewVocab(t, own)
	if err != nil {
		return nil, err
	}
	switch t.Pattern {
	case tables.PatternGPT2, tables.PatternCl100k, tables.PatternO200k:
	default:
		return nil, &tables.FormatError{Reason: "unknown pattern " + strconv.Itoa(int(t.Pattern))}
	}
	return &Encoder{Vocab: v}, nil
}

// NewIndexed builds an encoder over a parsed table and its prebuilt index
// (see NewVocabIndexed).
func NewIndexed(t *tables.Table, idx []byte, own bool) (*Encoder, error) {
	v, err := NewVocabIndexed(t, idx, own)
	if err != nil {
		return nil, err
	}
	return &Encoder{Vocab: v}, nil
}

// Next returns the end of the piece of s that starts at i (i < len(s)). A
// switch, not a function value: direct calls are cheaper, in WebAssembly
// most of all.
func (e *Encoder) Next(s string, i int) int {
	switch e.Pattern {
	case tables.PatternO200k:
		return pretok.O200k(s, i)
	case tables.PatternCl100k:
		return pretok.Cl100k(s, i)
	}
	return pretok.GPT2(s, i)
}

// Count returns the number of tokens in s. Cost: O(n) to split s; each piece
// that is a whole token costs one look-up, others a merge (O(k²) for short
// pieces, O(k log k) for long ones). It does not allocate.
//
// One loop per pattern, each calling its scanner directly and counting a
// piece of one or two bytes inline: in WebAssembly a call level per piece
// shows, and natively a call costs its registers (spilled and reloaded
// around it). The lines of the loops keep their offsets from the top of
// the function: the wasip1 modules' profile (default.pgo) names its hot
// calls by them. In WebAssembly builds Count is countBatched.
func (e *Encoder) Count(s string) int {
	if batchPieces {
		return e.countBatched(s)
	}

	n := 0
	switch e.Pattern {
	case tables.PatternO200k:
		for i := 0; i < len(s); {
			j := pretok.O200k(s, i)
			if p := s[i:j]; len(p) > 2 {
				n += e.countLong(p)
			} else {
				n += e.countShort(p)
			}
			i = j
		}
	case tables.PatternCl100k:
		for i := 0; i < len(s); {
			j := pretok.Cl100k(s, i)
			if p := s[i:j]; len(p) > 2 {
				n += e.countLong(p)
			} else {
				n += e.countShort(p)
			}
			i = j
		}
	default:
		for i := 0; i < len(s); {
			j := pretok.GPT2(s, i)
			if p := s[i:j]; len(p) > 2 {
				n += e.countLong(p)
			} else {
				n += e.countShort(p)
			}
			i = j
		}
	}
	return n
}

// batchPieces is whether Count asks the scanners for many pieces a call
// (countBatched): in WebAssembly, where a call costs about as much as
// deciding a piece (RATIONALE.md, "Why is the engine's speed in wazero not
// the speed in V8?"). Natively the scanners are called a piece at a time.
const batchPieces = runtime.GOARCH == "wasm"

// pieceBatch is how many pieces countBatched asks a scanner for at once:
// in wazero more ran faster (1,024 by 1.01x more), but the array is zeroed
// on every count, a 200-byte message's too.
const pieceBatch = 256

// countBatched is Count with the scanner's pieces taken pieceBatch at a
// time (pretok.O200kPieces, Cl100kPieces, GPT2Pieces). It is shaped, like
// the scanners, for Go's WebAssembly code in wazero, where every jump to
// another block costs a dispatch and falling through costs nothing
// (pretok.O200kPieces): a piece of one or two bytes is counted without a
// branch and ends in the loop's one jump; longer ones take countLong's
// cases (inline: the profile that inlines countLong into Count's loops
// does not know this one).
func (e *Encoder) countBatched(s string) int {
	var ends [pieceBatch]int
	n := 0
	for i := 0; i < len(s); {
		for _, j := range ends[:e.batch(s, i, ends[:])] {
			p := s[i:j]
			i = j
			if len(p) <= 2 {
				// Two tokens for a pair pair2 does not have, else one; a
				// single byte reads its own pair, and counts one.
				miss := uint64(e.pair2[int(p[0])<<8|int(p[len(p)-1])]) - 1
				n += 1 + (len(p)-1)&int(miss>>63)
				continue
			}
			if len(p) < cachedFirst {
				n++
				if r, h := e.rankHash(p); r == noRank {
					n += e.merged(p, h) - 1
				}
				continue
			}
			if len(p) <= keyBytes {
				n += e.countCachedFirst(p)
				continue
			}
			n += e.countLonger(p)
		}
	}
	return n
}

// batch writes the ends of the pieces of s from i on to ends, as many as
// it holds, with the pattern's batch scanner, and returns how many it
// wrote.
func (e *Encoder) batch(s string, i int, ends []int) int {
	switch e.Pattern {
	case tables.PatternO200k:
		return pretok.O200kPieces(s, i, ends)
	case tables.PatternCl100k:
		return pretok.Cl100kPieces(s, i, ends)
	}
	return pretok.GPT2Pieces(s, i, ends)
}

// withinBatched is WithinLimit's loop in WebAssembly builds: the pieces
// pieceBatch at a time, as countBatched takes them, each counted by count
// and the count tested after each, so that it stops at the same piece as
// the loop of one piece a call. It returns the count there. (The test in
// countBatched's loop cost Count 2-4% in wazero: RATIONALE.md.)
func (e *Encoder) withinBatched(s string, limit int) int {
	var ends [pieceBatch]int
	n := 0
	for i := 0; i < len(s); {
		for _, j := range ends[:e.batch(s, i, ends[:])] {
			n += e.count(s[i:j])
			i = j
			if n > limit {
				return n
			}
		}
	}
	return n
}

// CountPiece returns the number of tokens of one piece that Next produced.
func (e *Encoder) CountPiece(p string) int { return e.count(p) }

// WithinLimit counts s until the count passes limit. It returns the count
// and true when s has at most limit tokens, or a count above limit and false
// as soon as that is known. Cost: proportional to the text read.
func (e *Encoder) WithinLimit(s string, limit int) (int, bool) {
	if limit < 0 {
		return 0, false
	}
	if batchPieces {
		n := e.withinBatched(s, limit)
		return n, n <= limit
	}
	n := 0
	for i := 0; i < len(s); {
		j := e.Next(s, i)
		n += e.count(s[i:j])
		if n > limit {
			return n, false
		}
		i = j
	}
	return n, true
}

// AppendEncode appends the ranks of s's tokens to dst. Cost: as Count, plus
// the output.
func (e *Encoder) AppendEncode(dst []uint32, s string) []uint32 {
	for i := 0; i < len(s); {
		j := e.Next(s, i)
		dst = e.appendRanks(dst, s[i:j])
		i = j
	}
	return dst
}

// AppendDecode appends the bytes of ranks to dst. The bytes of a token list
// cut at an arbitrary point need not be valid UTF-8. It fails on a rank the
// encoding does not have, naming its index.
func (e *Encoder) AppendDecode(dst []byte, ranks []int) ([]byte, error) {
	for i, r := range ranks {
		tok, ok := e.Token(r)
		if !ok {
			return dst, &InvalidTokenError{Index: i, Rank: r}
		}
		dst = append(dst, tok...)
	}
	return dst, nil
}

// InvalidTokenError reports a rank that no token of the encoding has.
type InvalidTokenError struct {
	Index, Rank int
}

func (e *InvalidTokenError) Error() string {
	return "token " + strconv.Itoa(e.Rank) + " at index " + strconv.Itoa(e.Index) + " is not in the vocabulary"
}

// Truncate returns the longest part of s, at its start (or at its end when
// fromEnd), that ends on one of s's token boundaries and on a character
// boundary and holds at most max tokens when counted on its own, and that
// count. Cost: O(n).
func (e *Encoder) Truncate(s string, max int, fromEnd bool) (string, int) {
	if max <= 0 || s == "" {
		return "", 0
	}
	if n, ok := e.WithinLimit(s, max); ok {
		return s, n
	}
	// Token boundaries of s, as byte offsets.
	var ranks []uint32
	ranks = e.AppendEncode(ranks, s)
	bounds := make([]int, len(ranks)+1)
	for i, r := range ranks {
		bounds[i+1] = bounds[i] + int(e.off[r+1]-e.off[r])
	}
	// Cut after max tokens (or before the last max), then move the cut one
	// token at a time until the part, counted on its own, fits: a piece cut
	// short or a word cut at its start can tokenize differently.
	for k := max; k > 0; k-- {
		var part string
		if fromEnd {
			cut := bounds[len(ranks)-k]
			for cut < len(s) && !utf8.RuneStart(s[cut]) {
				cut++
			}
			part = s[cut:]
		} else {
			cut := bounds[k]
			for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
				cut--
			}
			part = s[:cut]
		}
		if n, ok := e.WithinLimit(part, max); ok {
			return part, n
		}
	}
	return "", 0
}
