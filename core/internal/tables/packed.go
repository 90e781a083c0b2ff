package tables

import (
	"encoding/binary"
	"math/bits"
)

// The transport form, .tkp: what browsers and edge runtimes download. Every
// token of a BPE vocabulary longer than one byte is two earlier tokens
// joined, so a table travels as pairs of ranks instead of token bytes (27%
// less gzip for o200k_base). js/scripts/pack-tables.mjs writes it; Expand
// turns it back into the exact .tkt bytes, which are then checked like any
// table given at run time (Verify).
//
// Format, version 1 (little-endian):
//
//	offset  size  field
//	0       4     magic "TKFP"
//	4       4     h, the length of the .tkt's header and name
//	8       h     the .tkt's header and name, verbatim (ranks n, token bytes b, checksum)
//	.       n     each rank's kind: 0 no token, 1 one byte, 2 a pair
//	.       c1    the one-byte tokens' bytes, in rank order
//	.       3·c2  the pairs' left ranks, by byte plane (low bytes, then middle, then high)
//	.       3·c2  the pairs' right ranks, likewise
//	.       ...   the .tkt's special tokens, verbatim

const packedMagic = "TKFP"

// IsPacked reports whether b starts as a .tkp does.
func IsPacked(b []byte) bool { return len(b) >= 8 && string(b[:4]) == packedMagic }

// Expand returns the .tkt bytes of a table in the transport form, in a new
// buffer. Damaged input is a FormatError (never a panic, and never more
// memory than the tokens it describes: the lengths are added up before the
// bytes are allocated). The result is not checked against any checksum:
// load it as any table given at run time. Cost: O(output), two passes over
// the pairs; 5 bytes of scratch per rank.
func Expand(b []byte) ([]byte, error) {
	tkt, _, err := ExpandOffsets(b)
	return tkt, err
}

// ExpandOffsets is Expand that also returns the scratch it computed each
// rank's offset in (n+1 words, the last one unset), for a loader to build
// its offsets in (Table.Offsets) instead of allocating as many again.
func ExpandOffsets(b []byte) ([]byte, []uint32, error) {
	if !IsPacked(b) {
		return nil, nil, bad("not a .tkp table")
	}
	h := int(u32(b[4:]))
	if h < headerSize || h > len(b)-8 {
		return nil, nil, bad(".tkp: truncated header")
	}
	head := b[8 : 8+h]
	if h != headerSize+int(head[6]) {
		return nil, nil, bad(".tkp: header length ", itoa(h), " does not match its name")
	}
	n := int(u32(head[8:]))
	total := int(u32(head[20:]))
	rest := b[8+h:]
	if n > len(rest) {
		return nil, nil, bad(".tkp: truncated kinds")
	}
	kinds, rest := rest[:n], rest[n:]
	c1, c2, ok := countKinds(kinds)
	if !ok {
		return nil, nil, bad(".tkp: unknown kind")
	}
	if c1+6*c2 > len(rest) {
		return nil, nil, bad(".tkp: truncated pairs")
	}
	singles := rest[:c1]
	left, right := rest[c1:c1+3*c2], rest[c1+3*c2:c1+6*c2]
	specials := rest[c1+6*c2:]

	x := &expander{kinds: kinds, singles: singles, left: left, right: right, c2: c2, lens: make([]byte, n)}
	// First pass: each rank's length, checked to fit a byte and to add up
	// to the header's total before anything of that size is allocated.
	sum := 0
	for r := 0; r < n; r += chunk {
		s, err := x.lengths(r, min(r+chunk, n))
		if err != nil {
			return nil, nil, err
		}
		sum += s
	}
	if sum != total {
		return nil, nil, bad(".tkp: token lengths add to ", itoa(sum), ", the header says ", itoa(total))
	}
	// Second pass: the bytes, each pair copied from the two tokens it joins.
	// 8 bytes of slack: expand copies words and may write past a token.
	out := make([]byte, h+n+total+len(specials), h+n+total+len(specials)+8)
	copy(out, head)
	copy(out[h:], x.lens)
	x.body, x.off, x.i2 = out[h+n:h+n+total+8], make([]uint32, n+1), 0
	for r := 0; r < n; r += chunk {
		x.expand(r, min(r+chunk, n))
	}
	copy(out[h+n+total:], specials)
	return out, x.off, nil
}

// chunk is how many ranks one call of lengths or expand covers. A cold
// WebAssembly instance runs a function in V8's baseline code until V8 has
// optimised it, and a call that is under way never switches (no on-stack
// replacement): one loop over 200,000 ranks would run baseline code to its
// end, where the later of some fifty calls run optimised code.
const chunk = 4096

// expander holds a .tkp's parts and the expansion's state between chunks.
type expander struct {
	kinds, singles, left, right []byte
	c2                          int      // the number of pairs
	lens                        []byte   // each rank's length
	body                        []byte   // the token bytes, written by expand
	off                         []uint32 // each rank's offset in body
	i1, i2, w                   int      // the next single, the next pair, the next byte
}

// lengths sets the lengths of ranks r0 to r1 and returns their sum.
//
//go:noinline
func (x *expander) lengths(r0, r1 int) (int, error) {
	lens, i2, sum := x.lens, x.i2, 0
	for r := r0; r < r1; r++ {
		switch x.kinds[r] {
		case 1:
			lens[r] = 1
			sum++
		case 2:
			a, c := pair(x.left, x.right, x.c2, i2)
			i2++
			if a >= r || c >= r {
				return 0, bad(".tkp: rank ", itoa(r), " joins a later token")
			}
			l := int(lens[a]) + int(lens[c])
			if lens[a] == 0 || lens[c] == 0 || l > 255 {
				return 0, bad(".tkp: rank ", itoa(r), " joins no token or is too long")
			}
			lens[r] = byte(l)
			sum += l
		}
	}
	x.i2 = i2
	return sum, nil
}

// expand writes the bytes of ranks r0 to r1, whose lengths lengths has
// checked. A token is copied 8 bytes at a time, a word load and store
// each (a call of copy per token cost more than the copying): the last
// word may carry bytes past the token, which the next token or the
// special tokens overwrite; the 8 bytes after the token bytes are slack.
//
//go:noinline
func (x *expander) expand(r0, r1 int) {
	body, off, lens := x.body, x.off, x.lens
	w, i1, i2 := x.w, x.i1, x.i2
	for r := r0; r < r1; r++ {
		off[r] = uint32(w)
		switch x.kinds[r] {
		case 1:
			body[w] = x.singles[i1]
			i1++
			w++
		case 2:
			// The two tokens, 8 bytes at a time, written out here: as a
			// function (above Go's inlining budget) it was 400,000 calls,
			// which a cold instance's baseline code pays dearly for.
			// encoding/binary compiles to one unaligned 8-byte load and
			// store on amd64, arm64 and wasm, and stays correct where
			// unaligned access is not allowed.
			a, c := pair(x.left, x.right, x.c2, i2)
			i2++
			from, mid := int(off[a]), w+int(lens[a])
			from2, end := int(off[c]), mid+int(lens[c])
			if end+8 > len(body) || from+int(lens[a]) > w || from2+int(lens[c]) > w {
				panic("tables: a pair out of range") // lengths has checked it
			}
			for ; w < mid; w, from = w+8, from+8 {
				binary.LittleEndian.PutUint64(body[w:], binary.LittleEndian.Uint64(body[from:]))
			}
			for w = mid; w < end; w, from2 = w+8, from2+8 {
				binary.LittleEndian.PutUint64(body[w:], binary.LittleEndian.Uint64(body[from2:]))
			}
			w = end
		}
	}
	x.w, x.i1, x.i2 = w, i1, i2
}

// countKinds counts the kinds 1 and 2, and reports whether every kind is 0,
// 1 or 2. Eight at a time: one pass of a few operations per 8 ranks where a
// switch per rank ran V8's baseline code 200,000 times.
func countKinds(kinds []byte) (c1, c2 int, ok bool) {
	const lo = 0x0101010101010101
	var bad uint64
	for ; len(kinds) >= 8; kinds = kinds[8:] {
		w := binary.LittleEndian.Uint64(kinds)
		bad |= w&^(3*lo) | w&(w>>1)&lo // a bit above the two low ones, or 3
		c1 += bits.OnesCount64(w & lo)
		c2 += bits.OnesCount64(w >> 1 & lo)
	}
	for _, k := range kinds {
		bad |= uint64(k)&^3 | uint64(k&(k>>1))
		c1 += int(k & 1)
		c2 += int(k >> 1 & 1)
	}
	return c1, c2, bad == 0
}

// pair returns the i-th pair's ranks, each stored as three byte planes of c
// bytes.
func pair(left, right []byte, c, i int) (int, int) {
	a := int(left[i]) | int(left[c+i])<<8 | int(left[2*c+i])<<16
	b := int(right[i]) | int(right[c+i])<<8 | int(right[2*c+i])<<16
	return a, b
}
