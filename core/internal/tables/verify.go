package tables

import "hash/crc32"

//go:generate go run gen_sums.go

// Verify checks a table given at run time, and its prebuilt index when
// there is one, against the checksums this build carries (sums.go): a
// flipped bit, a truncated download or a file of another build is an
// error, never a wrong count. CRC-32 finds every flip of up to three bits
// and every burst of up to 32, at a fraction of SHA-256's cost in
// WebAssembly (see RATIONALE.md, "Why are tables checked by CRC-32 at
// load, and by SHA-256 when shipped?"); tampering is for SHA256SUMS and
// Subresource Integrity to catch. Cost: one CRC-32 of the bytes, once per
// load.
func Verify(name string, table, index []byte) error {
	want, ok := sums[name]
	if !ok {
		return bad("no checksum for ", name)
	}
	if got := crc32.ChecksumIEEE(table); got != want.table {
		return bad("the ", name, " table is not the one this build knows (CRC-32 ", hex32(got), ", want ", hex32(want.table), ")")
	}
	if index == nil {
		return nil
	}
	if got := crc32.ChecksumIEEE(index); got != want.index {
		return bad("the ", name, " index is not the one this build knows (CRC-32 ", hex32(got), ", want ", hex32(want.index), ")")
	}
	return nil
}

func hex32(v uint32) string {
	const digits = "0123456789abcdef"
	b := make([]byte, 8)
	for i := 7; i >= 0; i-- {
		b[i] = digits[v&15]
		v >>= 4
	}
	return string(b)
}
