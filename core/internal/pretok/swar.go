package pretok

import "math/bits"

// o200k_base's eight-byte window, for WebAssembly builds (O200k's
// useWindow, and O200kPieces, which Count calls for many pieces at once):
// eight bytes of text loaded as one word and classed all at once with bit
// arithmetic (SWAR, "SIMD within a register"), each class a lane mask with
// the high bit of each byte that is in it. A piece then ends where the
// first byte leaves its class, found with one count of trailing zeros
// instead of a loop with a test a byte. In WebAssembly every iteration of
// a Go loop goes through the function's block dispatch, and wazero reloads
// the memory's bounds after it, so this takes most of a short piece's
// branches away (RATIONALE.md, "Why is the engine's speed in wazero not the
// speed in V8?"). Natively the byte loops are as fast and take fewer
// instructions.

const (
	lanes1 = 0x0101010101010101 // 1 in each byte
	highs  = 0x8080808080808080 // the high bit of each byte
)

// load8 returns the first eight bytes of s as a little-endian word (Go's
// compiler makes it one load); it requires len(s) >= 8, which a caller that
// tested it spares the bounds checks.
func load8(s string) uint64 {
	return uint64(s[0]) | uint64(s[1])<<8 | uint64(s[2])<<16 | uint64(s[3])<<24 |
		uint64(s[4])<<32 | uint64(s[5])<<40 | uint64(s[6])<<48 | uint64(s[7])<<56
}

// atLeast returns the lanes of x (seven-bit bytes) that are >= c (c >= 1).
func atLeast(x uint64, c byte) uint64 {
	return (x + (0x80-uint64(c))*lanes1) & highs
}

// equal returns the lanes of x (seven-bit bytes) that are c.
func equal(x uint64, c byte) uint64 {
	t := x ^ uint64(c)*lanes1
	return ^(t + 0x7F*lanes1 | t) & highs
}

// lowerLanes returns the lanes of w that are ASCII lower case letters.
func lowerLanes(w uint64) uint64 {
	x := w &^ highs
	return atLeast(x, 'a') &^ atLeast(x, 'z'+1) &^ w & highs
}

// from returns the lanes k to 7 (0 <= k < 8).
func from(k int) uint64 { return highs << (8 * uint(k) & 63) }

// firstLane returns the first lane of m, or 8 when m has none.
func firstLane(m uint64) int { return bits.TrailingZeros64(m) >> 3 }

// lastLane returns the last lane of m (m != 0).
func lastLane(m uint64) int { return (63 - bits.LeadingZeros64(m)) >> 3 }

// has reports whether lane k of m is set.
func has(m uint64, k int) bool { return m>>((8*uint(k)+7)&63)&1 != 0 }

// o200kWindow is O200k in WebAssembly builds: the one piece at i, from
// O200kPieces.
func o200kWindow(s string, i int) int {
	var end [1]int
	O200kPieces(s, i, end[:])
	return end[0]
}

// O200kPieces writes the ends of o200k_base's pieces of s from i on (i <
// len(s)) to ends, as O200k would find them one by one, and returns how
// many it wrote: at least one (len(ends) > 0), fewer than len(ends) only
// where s ends. It uses the eight-byte window in every build; Count uses
// it in WebAssembly, where a call costs about what deciding a piece does
// (docs/perf/wazero.md has the numbers), so that one call scans many pieces.
//
// It decides each piece from the eight bytes at its start when they decide
// it, and leaves it to o200kSplit when they do not: fewer than eight bytes
// left, a non-ASCII byte where the piece could go on (or in its first two
// bytes, where the general path starts), an apostrophe after a word (a
// contraction), a run longer than the window other than a word's lower
// case letters, which it follows eight bytes at a time.
//
// Its shape is for Go's WebAssembly code in wazero. There every jump to
// another block of a function, a loop's included, goes through the
// function's dispatch (set a block number, branch to the function's outer
// loop, br_table), and wazero stores every live local before it and loads
// them after; a block that falls through to the next costs nothing. So
// every piece ends in a continue (the one jump a piece must take), the
// conditions a piece takes are computed with bit arithmetic rather than
// && and ||, and every give-up is a call of o200kSplit, which Go's
// compiler lays out of the way (a block that calls is unlikely), where a
// plain break would have been the fallthrough and the common path the
// jump.
func O200kPieces(s string, i int, ends []int) int {
	n := 0
	for n < len(ends) && i < len(s) {
		t := s[i:]
		if len(t) < 8 {
			n, i = push(ends, n, o200kSplit(s, i, true))
			continue
		}
		w := load8(t)
		nonASCII := w & highs
		if nonASCII&0x8080 != 0 {
			n, i = push(ends, n, o200kSplit(s, i, true))
			continue
		}
		// x is w with each non-ASCII byte made 0, which is in none of the
		// classes below (its low seven bits could be any); bit 5 of a
		// letter is its case.
		x := w &^ (nonASCII >> 7 * 0xFF)
		y := x | 0x20*lanes1
		letter := atLeast(y, 'a') &^ atLeast(y, 'z'+1)
		b := byte(w)
		// A word starts with a letter, or with a prefix and a letter.
		prefixed := b2u(asciiPrefix[b]&prefixO200k != 0) << 7
		if (letter|letter>>8&prefixed)&0x80 != 0 {
			// A word over ASCII, `[^\r\n\p{L}\p{N}]?[U]*[W]+|…[U]+[W]*`, is
			// an optional prefix, upper case letters, then lower case ones.
			lower := letter & (x << 2)
			u := firstLane(^(letter &^ lower) & from(int(^letter&0x80>>7)))
			if u == 8 {
				n, i = push(ends, n, o200kSplit(s, i, true))
				continue
			}
			e := firstLane(^lower & from(u))
			if e == 8 {
				e = longWord(s, i+8)
				if e == 0 {
					e = o200kSplit(s, i, true)
				}
				n, i = push(ends, n, e)
				continue
			}
			if has(nonASCII|equal(x, '\''), e) {
				n, i = push(ends, n, o200kSplit(s, i, true))
				continue
			}
			n, i = push(ends, n, i+e)
			continue
		}
		if b-'0' < 10 { // \p{N}{1,3}
			digit := atLeast(x, '0') &^ atLeast(x, '9'+1)
			d := min(firstLane(^digit&highs), 3)
			if has(nonASCII, d) {
				n, i = push(ends, n, o200kSplit(s, i, true))
				continue
			}
			n, i = push(ends, n, i+d)
			continue
		}
		if has(nonASCII, 1) { // maybe the prefix of a word in another script
			n, i = push(ends, n, o200kSplit(s, i, true))
			continue
		}
		space := equal(x, ' ') | atLeast(x, '\t')&^atLeast(x, '\r'+1)
		digit := atLeast(x, '0') &^ atLeast(x, '9'+1)
		newline := equal(x, '\n') | equal(x, '\r')
		// ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
		other := highs &^ (nonASCII | letter | digit | space)
		q := int(b2u(b == ' ') & (other >> 15))
		if has(other, q) {
			o := firstLane(^other & from(q+1))
			if o == 8 || has(nonASCII, o) {
				n, i = push(ends, n, o200kSplit(s, i, true))
				continue
			}
			t := firstLane(^(newline | equal(x, '/')) & from(o))
			if t == 8 {
				n, i = push(ends, n, runTrail(s, i+8, newlinesSlash))
				continue
			}
			n, i = push(ends, n, i+t)
			continue
		}
		// `\s*[\r\n]+|\s+(?!\S)|\s+`
		r := firstLane(^space & highs)
		if r == 8 || has(nonASCII, r) {
			n, i = push(ends, n, o200kSplit(s, i, true))
			continue
		}
		if nl := newline &^ from(r); nl != 0 { // r < 8 here
			n, i = push(ends, n, i+lastLane(nl)+1)
			continue
		}
		// `\s+(?!\S)` gives the last space back, unless it is the only one.
		n, i = push(ends, n, i+r-b2i(r > 1))
	}
	return n
}

// push writes the end j of the n-th piece to ends and returns n+1 and j.
func push(ends []int, n, j int) (int, int) {
	ends[n] = j
	return n + 1, j
}

// b2u is 1 for true and 0 for false, without a branch.
func b2u(b bool) uint64 {
	if b {
		return 1
	}
	return 0
}

// b2i is b2u as an int.
func b2i(b bool) int { return int(b2u(b)) }

// longWord returns the end of a word whose lower case letters go on at j,
// eight bytes at a time, or 0 where o200kWindow has to leave it to the
// general path.
func longWord(s string, j int) int {
	for len(s)-j >= 8 {
		k := firstLane(^lowerLanes(load8(s[j:])) & highs)
		j += k
		if k < 8 {
			break
		}
	}
	for j < len(s) && asciiLetter[s[j]] == 1 {
		j++
	}
	if j < len(s) && (s[j] >= 0x80 || s[j] == '\'') {
		return 0
	}
	return j
}
