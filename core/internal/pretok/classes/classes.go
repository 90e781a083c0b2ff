// Package classes names the character classes the pre-tokenizer patterns test.
// It is shared by the table generator and the scanners.
package classes

// Bits of a code point's class.
const (
	Letter  = 1 << iota // \p{L}
	Number              // \p{N}
	Space               // \s: the White_Space property
	Upper               // [\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}] (o200k_base)
	Lower               // [\p{Ll}\p{Lm}\p{Lo}\p{M}] (o200k_base)
	Newline             // \r or \n
)
