package pretok

import "math/bits"

// o200k_base's eight-byte window, for WebAssembly builds (O200k's
// useWindow): eight bytes of text loaded as one word
// and classed all at once with bit arithmetic (SWAR, "SIMD within a
// register"), each class a lane mask with the high bit of each byte that is
// in it. A piece then ends where the first byte leaves its class, found
// with one count of trailing zeros instead of a loop with a test a byte.
// In WebAssembly every iteration of a Go loop goes through the function's
// block dispatch, and wazero reloads the memory's bounds after it, so this
// takes most of a short piece's branches away (RATIONALE.md, "Why is the
// engine's speed in wazero not the speed in V8?"). Natively the byte loops
// are as fast and take fewer instructions.

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

// o200kWindow is O200k: it splits at i from the eight bytes at i when
// they decide the piece, and leaves it to o200kSplit when they do not:
// fewer than eight bytes left, a non-ASCII byte where the piece could go
// on (or in its first two bytes, where the general path starts), an
// apostrophe after a word (a contraction), a run longer than the window
// other than a word's lower case letters, which it follows eight bytes at
// a time. o200kSplit is called in tail position, so that a piece costs
// the counting loop one call.
func o200kWindow(s string, i int) int {
	t := s[i:]
	if len(t) < 8 {
		return o200kSplit(s, i, true)
	}
	w := load8(t)
	nonASCII := w & highs
	if nonASCII&0x8080 != 0 {
		return o200kSplit(s, i, true)
	}
	// x is w with each non-ASCII byte made 0, which is in none of the
	// classes below (its low seven bits could be any); bit 5 of a letter is
	// its case.
	x := w &^ (nonASCII >> 7 * 0xFF)
	y := x | 0x20*lanes1
	letter := atLeast(y, 'a') &^ atLeast(y, 'z'+1)
	b := byte(w)
	if letter&0x80 != 0 || letter&0x8000 != 0 && asciiPrefix[b]&prefixO200k != 0 {
		// A word over ASCII, `[^\r\n\p{L}\p{N}]?[U]*[W]+|…[U]+[W]*`, is
		// an optional prefix, upper case letters, then lower case ones.
		lower := letter & (x << 2)
		u := firstLane(^(letter &^ lower) & from(int(^letter&0x80>>7)))
		if u == 8 {
			return o200kSplit(s, i, true)
		}
		e := firstLane(^lower & from(u))
		if e == 8 {
			if e := longWord(s, i+8); e > 0 {
				return e
			}
			return o200kSplit(s, i, true)
		}
		if has(nonASCII|equal(x, '\''), e) {
			return o200kSplit(s, i, true)
		}
		return i + e
	}
	if b-'0' < 10 { // \p{N}{1,3}
		digit := atLeast(x, '0') &^ atLeast(x, '9'+1)
		d := firstLane(^digit & highs)
		if d >= 3 {
			return i + 3
		}
		if has(nonASCII, d) {
			return o200kSplit(s, i, true)
		}
		return i + d
	}
	if has(nonASCII, 1) {
		return o200kSplit(s, i, true) // maybe the prefix of a word in another script
	}
	space := equal(x, ' ') | atLeast(x, '\t')&^atLeast(x, '\r'+1)
	digit := atLeast(x, '0') &^ atLeast(x, '9'+1)
	newline := equal(x, '\n') | equal(x, '\r')
	// ` ?[^\s\p{L}\p{N}]+[\r\n/]*`
	other := highs &^ (nonASCII | letter | digit | space)
	q := 0
	if b == ' ' && other&0x8000 != 0 {
		q = 1
	}
	if has(other, q) {
		o := firstLane(^other & from(q+1))
		if o == 8 || has(nonASCII, o) {
			return o200kSplit(s, i, true)
		}
		t := firstLane(^(newline | equal(x, '/')) & from(o))
		if t == 8 {
			return runTrail(s, i+8, newlinesSlash)
		}
		return i + t
	}
	// `\s*[\r\n]+|\s+(?!\S)|\s+`
	r := firstLane(^space & highs)
	if r == 8 || has(nonASCII, r) {
		return o200kSplit(s, i, true)
	}
	if nl := newline &^ from(r); nl != 0 { // r < 8 here
		return i + lastLane(nl) + 1
	}
	if r == 1 {
		return i + 1
	}
	return i + r - 1
}

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
