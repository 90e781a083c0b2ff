package postlink

import "fmt"

// leb reads a LEB128 number of at most max bytes at b[p:], sign-extended
// when signed, returning it and the bytes it took.
func leb(b []byte, p, max int, signed bool) (int64, int, error) {
	var v int64
	for i := 0; i < max && p+i < len(b); i++ {
		c := b[p+i]
		v |= int64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if shift := 7 * (i + 1); signed && shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, i + 1, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: bad LEB128 number at byte %d", ErrUnsupported, p)
}

// uleb reads an unsigned LEB128 number of at most 32 bits.
func uleb(b []byte, p int) (uint64, int, error) {
	v, n, err := leb(b, p, 5, false)
	return uint64(v), n, err
}

// sleb32 reads a signed LEB128 number of at most 32 bits.
func sleb32(b []byte, p int) (int32, int, error) {
	v, n, err := leb(b, p, 5, true)
	return int32(v), n, err
}

// sleb64 reads a signed LEB128 number of at most 64 bits.
func sleb64(b []byte, p int) (int64, int, error) { return leb(b, p, 10, true) }

func appendUleb(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

// appendSleb appends v as a signed LEB128 number (of 32 or 64 bits: the
// encoding is the same).
func appendSleb(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
