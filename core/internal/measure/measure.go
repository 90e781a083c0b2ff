// Package measure holds the small string measures that core and its engine
// share.
package measure

// UTF16Len returns the length of s in UTF-16 code units, as JavaScript
// strings count: two for a character outside the Basic Multilingual Plane,
// one for anything else (an invalid byte becomes one U+FFFD). O(len(s)).
func UTF16Len(s string) int {
	i := 0
	for i < len(s) && s[i] < 0x80 {
		i++
	}
	if i == len(s) {
		return i // ASCII: one unit a byte
	}
	n := 0
	for _, r := range s {
		if r >= 0x10000 {
			n += 2
		} else {
			n++
		}
	}
	return n
}
