package postlink

import "fmt"

// uleb reads an unsigned LEB128 number of at most 32 bits at b[p:],
// returning it and the bytes it took.
func uleb(b []byte, p int) (uint64, int, error) {
	var v uint64
	for i := 0; i < 5; i++ {
		if p+i >= len(b) {
			break
		}
		c := b[p+i]
		v |= uint64(c&0x7f) << (7 * i)
		if c < 0x80 {
			return v, i + 1, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: bad LEB128 number at byte %d", ErrUnsupported, p)
}

// sleb32 reads a signed LEB128 number of at most 32 bits.
func sleb32(b []byte, p int) (int32, int, error) {
	var v int64
	for i := 0; i < 5; i++ {
		if p+i >= len(b) {
			break
		}
		c := b[p+i]
		v |= int64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if shift := 7 * (i + 1); shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return int32(v), i + 1, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: bad LEB128 number at byte %d", ErrUnsupported, p)
}

func appendUleb(b []byte, v uint32) []byte {
	for v >= 0x80 {
		b = append(b, byte(v)|0x80)
		v >>= 7
	}
	return append(b, byte(v))
}

func appendSleb32(b []byte, v int32) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}

// sleb64 reads a signed LEB128 number of at most 64 bits.
func sleb64(b []byte, p int) (int64, int, error) {
	var v int64
	for i := 0; i < 10; i++ {
		if p+i >= len(b) {
			break
		}
		c := b[p+i]
		v |= int64(c&0x7f) << (7 * i)
		if c < 0x80 {
			if shift := 7 * (i + 1); shift < 64 && c&0x40 != 0 {
				v |= -1 << shift
			}
			return v, i + 1, nil
		}
	}
	return 0, 0, fmt.Errorf("%w: bad LEB128 number at byte %d", ErrUnsupported, p)
}

func appendSleb64(b []byte, v int64) []byte {
	for {
		c := byte(v & 0x7f)
		v >>= 7
		if (v == 0 && c&0x40 == 0) || (v == -1 && c&0x40 != 0) {
			return append(b, c)
		}
		b = append(b, c|0x80)
	}
}
