package engine

import (
	"strconv"
	"unicode/utf8"
)

// maxClip is the most bytes of an input an error message quotes.
const maxClip = 80

// Clip returns s if it is at most 80 bytes, else its first bytes (cut
// before a character, never inside one) followed by "…" and its length in
// bytes: what an error message may quote from its input, so that a 1 MB
// operation or encoding name gives a message of a hundred bytes, not of
// a megabyte. Every error that quotes input quotes it through Clip.
func Clip(s string) string {
	if len(s) <= maxClip {
		return s
	}
	n := maxClip
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n] + "… (" + strconv.Itoa(len(s)) + " bytes)"
}
