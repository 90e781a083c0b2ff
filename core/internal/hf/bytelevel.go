package hf

// Byte-level BPE (GPT-2's ByteLevel) writes every byte as a printable
// character: the printable Latin-1 bytes stand for themselves, the other 68
// are U+0100 onwards in byte order. Vocabulary and merges in tokenizer.json
// are in that alphabet; the engine works on the bytes.

// byteChar[b] is the character that stands for byte b.
var byteChar = func() (t [256]rune) {
	n := rune(0)
	for b := range 256 {
		if b >= '!' && b <= '~' || b >= 0xA1 && b <= 0xAC || b >= 0xAE {
			t[b] = rune(b)
		} else {
			t[b] = 0x100 + n
			n++
		}
	}
	return t
}()

// charByte maps the characters of byteChar back to bytes (index: rune
// below 0x144), -1 for others.
var charByte = func() (t [0x144]int16) {
	for i := range t {
		t[i] = -1
	}
	for b, r := range byteChar {
		t[r] = int16(b)
	}
	return t
}()

// appendUnByteLevel appends the bytes a byte-level token stands for, or
// returns false when a character of it is outside the alphabet.
func appendUnByteLevel(dst []byte, tok string) ([]byte, bool) {
	for _, r := range tok {
		if r < 0 || int(r) >= len(charByte) || charByte[r] < 0 {
			return dst, false
		}
		dst = append(dst, byte(charByte[r]))
	}
	return dst, true
}
