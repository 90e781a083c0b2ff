package tables

//go:generate go run gen_sums.go

// Verify checks a table given at run time, and its prebuilt index when
// there is one, against the digests this build carries (sums.go): a
// flipped bit, a truncated download or a file of another build is an
// error, never a wrong count. Digest finds every change inside one 8-byte
// word (so every flipped bit) and misses any other change with a chance of
// about 2⁻⁶⁴, at a fifth of CRC-32's cost in a cold WebAssembly instance
// (see RATIONALE.md, "Why are tables checked by a digest at load, and by
// SHA-256 when shipped?"); tampering is for SHA256SUMS and Subresource
// Integrity to catch. Cost: one Digest of the bytes, once per load.
func Verify(name string, table, index []byte) error {
	want, ok := sums[name]
	if !ok {
		return bad("no checksum for ", name)
	}
	if got := Digest(table); got != want.table {
		return bad("the ", name, " table is not the one this build knows (digest ", hex64(got), ", want ", hex64(want.table), ")")
	}
	if index == nil {
		return nil
	}
	if got := Digest(index); got != want.index {
		return bad("the ", name, " index is not the one this build knows (digest ", hex64(got), ", want ", hex64(want.index), ")")
	}
	return nil
}

// Digest returns a 64-bit digest of b, for Verify. It takes b eight bytes
// at a time: each step, h = (h ^ w) · K then h ^= h >> 32, is a bijection
// of the state for a given word and of the word for a given state, so a
// change confined to one word always changes the result; the length enters
// first, the last 0-7 bytes as one more word. Not cryptographic. Cost: about
// five operations per 8 bytes where CRC-32 (slicing by 8) takes some thirty,
// which is what a cold WebAssembly instance, running code its baseline
// compiler made, pays for at load (4.8 MB for o200k_base's table and index).
func Digest(b []byte) uint64 {
	const k = 0x9e3779b97f4a7c15 // odd: multiplying by it is a bijection
	h := uint64(len(b)) * k
	for len(b) >= 8 {
		w := uint64(b[0]) | uint64(b[1])<<8 | uint64(b[2])<<16 | uint64(b[3])<<24 |
			uint64(b[4])<<32 | uint64(b[5])<<40 | uint64(b[6])<<48 | uint64(b[7])<<56
		h = (h ^ w) * k
		h ^= h >> 32
		b = b[8:]
	}
	var w uint64
	for i, c := range b {
		w |= uint64(c) << (8 * i)
	}
	h = (h ^ w) * k
	return h ^ h>>29
}

func hex64(v uint64) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 16)
	for i := 15; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}
