package pretok

// Cl100kPieces and GPT2Pieces are O200kPieces for cl100k_base and for
// r50k_base and p50k_base: the eight-byte window (swar.go) as a loop that
// writes many pieces' ends a call, for Count in WebAssembly. They decide
// the pieces their patterns' ASCII alternatives match from the eight bytes
// at a piece's start and call the one-piece scanner (Cl100k, GPT2) where
// those bytes do not decide: fewer than eight left, a non-ASCII byte among
// the first two or where the piece could go on, an apostrophe at the start
// (a contraction), a run longer than the window other than a word's
// letters, which they follow eight bytes at a time. They are shaped like
// O200kPieces, for the dispatch of Go's WebAssembly code in wazero: each
// piece ends in a continue, and every give-up is a call.

// Cl100kPieces writes the ends of cl100k_base's pieces of s from i on (i <
// len(s)) to ends, as Cl100k would find them one by one, and returns how
// many it wrote: at least one (len(ends) > 0), fewer than len(ends) only
// where s ends.
func Cl100kPieces(s string, i int, ends []int) int {
	n := 0
	for n < len(ends) && i < len(s) {
		t := s[i:]
		if len(t) < 8 {
			n, i = push(ends, n, Cl100k(s, i))
			continue
		}
		w := load8(t)
		nonASCII := w & highs
		b := byte(w)
		if nonASCII&0x8080 != 0 || b == '\'' {
			n, i = push(ends, n, Cl100k(s, i))
			continue
		}
		x := w &^ (nonASCII >> 7 * 0xFF)
		letter := letterLanes(x)
		// `[^\r\n\p{L}\p{N}]?\p{L}+`: an optional prefix, then letters.
		prefixed := b2u(asciiPrefix[b]&prefixCl100k != 0) << 7
		if (letter|letter>>8&prefixed)&0x80 != 0 {
			e := firstLane(^letter & from(int(^letter&0x80>>7)))
			if e == 8 {
				e = longLetters(s, i+8)
				if e == 0 {
					e = Cl100k(s, i)
				}
				n, i = push(ends, n, e)
				continue
			}
			if has(nonASCII, e) {
				n, i = push(ends, n, Cl100k(s, i))
				continue
			}
			n, i = push(ends, n, i+e)
			continue
		}
		if b-'0' < 10 { // \p{N}{1,3}
			digit := atLeast(x, '0') &^ atLeast(x, '9'+1)
			d := min(firstLane(^digit&highs), 3)
			if has(nonASCII, d) {
				n, i = push(ends, n, Cl100k(s, i))
				continue
			}
			n, i = push(ends, n, i+d)
			continue
		}
		space := equal(x, ' ') | atLeast(x, '\t')&^atLeast(x, '\r'+1)
		digit := atLeast(x, '0') &^ atLeast(x, '9'+1)
		newline := equal(x, '\n') | equal(x, '\r')
		// ` ?[^\s\p{L}\p{N}]+[\r\n]*`
		other := highs &^ (nonASCII | letter | digit | space)
		q := int(b2u(b == ' ') & (other >> 15))
		if has(other, q) {
			o := firstLane(^other & from(q+1))
			if o == 8 || has(nonASCII, o) {
				n, i = push(ends, n, Cl100k(s, i))
				continue
			}
			t := firstLane(^newline & from(o))
			if t == 8 {
				n, i = push(ends, n, runTrail(s, i+8, newlines))
				continue
			}
			n, i = push(ends, n, i+t)
			continue
		}
		// `\s*[\r\n]+|\s+(?!\S)|\s+`
		r := firstLane(^space & highs)
		if r == 8 || has(nonASCII, r) {
			n, i = push(ends, n, Cl100k(s, i))
			continue
		}
		if nl := newline &^ from(r); nl != 0 {
			n, i = push(ends, n, i+lastLane(nl)+1)
			continue
		}
		// `\s+(?!\S)` gives the last space back, unless it is the only one.
		n, i = push(ends, n, i+r-b2i(r > 1))
	}
	return n
}

// GPT2Pieces is Cl100kPieces for r50k_base and p50k_base (GPT2's pattern):
// a space is the only prefix, of letters, digits (any number of them) or
// symbols, and whitespace has no rule of its own for CR and LF.
func GPT2Pieces(s string, i int, ends []int) int {
	n := 0
	for n < len(ends) && i < len(s) {
		t := s[i:]
		if len(t) < 8 {
			n, i = push(ends, n, GPT2(s, i))
			continue
		}
		w := load8(t)
		nonASCII := w & highs
		b := byte(w)
		if nonASCII&0x8080 != 0 || b == '\'' {
			n, i = push(ends, n, GPT2(s, i))
			continue
		}
		x := w &^ (nonASCII >> 7 * 0xFF)
		letter := letterLanes(x)
		// q is 1 after the optional space, where the letters, digits or
		// symbols start; a space followed by whitespace leaves q at a
		// space, which is none of the three.
		q := b2i(b == ' ')
		if has(letter, q) { // ` ?\p{L}+`
			e := firstLane(^letter & from(q))
			if e == 8 {
				e = longLetters(s, i+8)
				if e == 0 {
					e = GPT2(s, i)
				}
				n, i = push(ends, n, e)
				continue
			}
			if has(nonASCII, e) {
				n, i = push(ends, n, GPT2(s, i))
				continue
			}
			n, i = push(ends, n, i+e)
			continue
		}
		digit := atLeast(x, '0') &^ atLeast(x, '9'+1)
		space := equal(x, ' ') | atLeast(x, '\t')&^atLeast(x, '\r'+1)
		other := highs &^ (nonASCII | letter | digit | space)
		if has(digit|other, q) { // ` ?\p{N}+` or ` ?[^\s\p{L}\p{N}]+`
			run := digit
			if !has(digit, q) {
				run = other
			}
			e := firstLane(^run & from(q))
			if e == 8 || has(nonASCII, e) {
				n, i = push(ends, n, GPT2(s, i))
				continue
			}
			n, i = push(ends, n, i+e)
			continue
		}
		// `\s+(?!\S)|\s+`
		r := firstLane(^space & highs)
		if r == 8 || has(nonASCII, r) {
			n, i = push(ends, n, GPT2(s, i))
			continue
		}
		n, i = push(ends, n, i+r-b2i(r > 1))
	}
	return n
}

// letterLanes returns the lanes of x (seven-bit bytes) that are ASCII
// letters, of either case: bit 5 set, upper case folds to lower.
func letterLanes(x uint64) uint64 {
	y := x | 0x20*lanes1
	return atLeast(y, 'a') &^ atLeast(y, 'z'+1)
}

// longLetters returns the end of a run of ASCII letters that goes on at j,
// eight bytes at a time, or 0 where it reaches a byte that is not ASCII
// (which might be a letter): the one-piece scanner decides that piece.
func longLetters(s string, j int) int {
	for len(s)-j >= 8 {
		w := load8(s[j:])
		k := firstLane(^(letterLanes(w&^highs) &^ w) & highs)
		j += k
		if k < 8 {
			break
		}
	}
	for j < len(s) && asciiLetter[s[j]] != 0 {
		j++
	}
	if j < len(s) && s[j] >= 0x80 {
		return 0
	}
	return j
}
