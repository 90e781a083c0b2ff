package pretok

// Cut reports whether position w of s (0 < w < len(s), at a character
// boundary) separates the text for the pre-tokenizer: no piece that ends at
// or before w reads beyond the three characters after w, whatever follows.
//
// That holds when the characters on both sides of w are not whitespace and
// no run of the patterns continues across w: not two letters, two numbers,
// two symbols ([^\s\p{L}\p{N}]), nor, for o200k_base (wordMarks), two
// characters of its word classes, which include the marks. The three
// characters are a contraction ('re) that may follow a word.
//
// The incremental counter cuts the text at such positions, so that an edit
// rescans only the pieces around it.
func Cut(s string, w int, wordMarks bool) bool {
	if w <= 0 || w >= len(s) {
		return false
	}
	x, _ := classAt(s, startOfPrevRune(s, 0, w))
	y, _ := classAt(s, w)
	if (x|y)&space != 0 {
		return false
	}
	switch {
	case x&y&letter != 0, x&y&number != 0:
		return false
	case x&notOther == 0 && y&notOther == 0:
		return false
	case wordMarks && x&(upper|lower) != 0 && y&(upper|lower) != 0:
		return false
	}
	return true
}
