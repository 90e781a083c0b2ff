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

// Tekken splits like the tokenizer.json of Mistral's Tekken models (Mistral
// NeMo, Pixtral, Ministral, Mistral Small 3): o200k_base's pattern without
// its contractions, and with single digits:
//
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|
//	[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|
//	\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+
//
// As for Qwen2, a number at i can only be matched by \p{N}.
func Tekken(s string, i int) int {
	if c, n := classAt(s, i); c&number != 0 {
		return i + n
	}
	return o200kSplit(s, i, false)
}
