package tables

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
	if !IsPacked(b) {
		return nil, bad("not a .tkp table")
	}
	h := int(u32(b[4:]))
	if h < headerSize || h > len(b)-8 {
		return nil, bad(".tkp: truncated header")
	}
	head := b[8 : 8+h]
	if h != headerSize+int(head[6]) {
		return nil, bad(".tkp: header length ", itoa(h), " does not match its name")
	}
	n := int(u32(head[8:]))
	total := int(u32(head[20:]))
	rest := b[8+h:]
	if n > len(rest) {
		return nil, bad(".tkp: truncated kinds")
	}
	kinds, rest := rest[:n], rest[n:]
	c1, c2 := 0, 0
	for _, k := range kinds {
		switch k {
		case 0:
		case 1:
			c1++
		case 2:
			c2++
		default:
			return nil, bad(".tkp: unknown kind ", itoa(int(k)))
		}
	}
	if c1+6*c2 > len(rest) {
		return nil, bad(".tkp: truncated pairs")
	}
	singles := rest[:c1]
	left, right := rest[c1:c1+3*c2], rest[c1+3*c2:c1+6*c2]
	specials := rest[c1+6*c2:]

	// First pass: each rank's length, checked to fit a byte and to add up
	// to the header's total before anything of that size is allocated.
	lens := make([]byte, n)
	sum := 0
	for r, i2 := 0, 0; r < n; r++ {
		switch kinds[r] {
		case 1:
			lens[r] = 1
			sum++
		case 2:
			a, c := pair(left, right, c2, i2)
			i2++
			if a >= r || c >= r {
				return nil, bad(".tkp: rank ", itoa(r), " joins a later token")
			}
			l := int(lens[a]) + int(lens[c])
			if lens[a] == 0 || lens[c] == 0 || l > 255 {
				return nil, bad(".tkp: rank ", itoa(r), " joins no token or is too long")
			}
			lens[r] = byte(l)
			sum += l
		}
	}
	if sum != total {
		return nil, bad(".tkp: token lengths add to ", itoa(sum), ", the header says ", itoa(total))
	}

	// Second pass: the bytes, each pair copied from the two tokens it joins.
	out := make([]byte, h+n+total+len(specials))
	copy(out, head)
	copy(out[h:], lens)
	body := out[h+n : h+n+total]
	off := make([]uint32, n)
	w, i1, i2 := 0, 0, 0
	for r, k := range kinds {
		off[r] = uint32(w)
		switch k {
		case 1:
			body[w] = singles[i1]
			i1++
			w++
		case 2:
			a, c := pair(left, right, c2, i2)
			i2++
			w += copy(body[w:], body[off[a]:int(off[a])+int(lens[a])])
			w += copy(body[w:], body[off[c]:int(off[c])+int(lens[c])])
		}
	}
	copy(out[h+n+total:], specials)
	return out, nil
}

// pair returns the i-th pair's ranks, each stored as three byte planes of c
// bytes.
func pair(left, right []byte, c, i int) (int, int) {
	a := int(left[i]) | int(left[c+i])<<8 | int(left[2*c+i])<<16
	b := int(right[i]) | int(right[c+i])<<8 | int(right[2*c+i])<<16
	return a, b
}
