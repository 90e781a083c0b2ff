package pretok

// Qwen2 splits like the tokenizer.json of Qwen 2, 2.5 and 3: cl100k_base's
// pattern with single digits instead of runs of up to three:
//
//	(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}|
//	 ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// A number at i can only be matched by the \p{N} alternative (the ones
// before it start with an apostrophe or take no number), so everything else
// is Cl100k's.
func Qwen2(s string, i int) int {
	if c, n := classAt(s, i); c&number != 0 {
		return i + n
	}
	return Cl100k(s, i)
}
