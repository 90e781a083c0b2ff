package hf

// Byte-level BPE (GPT-2's ByteLevel) writes every byte as a printable
// character: the printable Latin-1 bytes stand for themselves, the other 68
// are U+0100 onwards in byte order. Vocabulary and merges in tokenizer.json
// are in that alphabet; the engine works on the bytes.

// charByte returns the byte the character r stands for, or -1 for a
// character outside the alphabet: the printable Latin-1 bytes stand for
// themselves, and U+0100 to U+0143 for the other 68 in byte order
// (0x00–0x20, 0x7F–0xA0, 0xAD). A function, not a table built at start-up,
// so that a program importing the package runs none of its code
// (TestCharByte holds it to GPT-2's table).
func charByte(r rune) int {
	switch n := r - 0x100; {
	case r >= '!' && r <= '~' || r >= 0xA1 && r <= 0xAC || r >= 0xAE && r <= 0xFF:
		return int(r)
	case n >= 0 && n < 33:
		return int(n)
	case n >= 33 && n < 67:
		return 0x7F + int(n-33)
	case n == 67:
		return 0xAD
	}
	return -1
}

// appendUnByteLevel appends the bytes a byte-level token stands for, or
// returns false when a character of it is outside the alphabet.
func appendUnByteLevel(dst []byte, tok string) ([]byte, bool) {
	for _, r := range tok {
		b := charByte(r)
		if b < 0 {
			return dst, false
		}
		dst = append(dst, byte(b))
	}
	return dst, true
}
