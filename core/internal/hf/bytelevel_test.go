package hf

import "testing"

// byteChar[b] is the character that stands for byte b: GPT-2's
// bytes_to_unicode (openai/gpt-2, encoder.py), which tokenizer.json's
// ByteLevel pre-tokenizer and decoder use.
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

// TestCharByte holds charByte to the inverse of GPT-2's table: each
// character of it gives its byte, every other character -1.
func TestCharByte(t *testing.T) {
	want := map[rune]int{}
	for b, r := range byteChar {
		want[r] = b
	}
	for r := rune(-1); r < 0x400; r++ {
		w, ok := want[r]
		if !ok {
			w = -1
		}
		if got := charByte(r); got != w {
			t.Errorf("charByte(%#x) = %d, want %d", r, got, w)
		}
	}
}
