package hf

//go:generate sh -c "node gen_nfc.mjs && gofmt -w nfc_table.go"

import (
	"slices"
	"strings"
	"sync"
	"unicode/utf8"
)

// Unicode Normalization Form C, for tokenizer.json files whose normalizer is
// NFC (Qwen's), with the data of nfc_table.go. Text made only of characters
// NFC leaves alone, whatever surrounds them, comes back as it is without
// allocating (most text); else the text is decomposed, its marks put in
// canonical order, and composed again (UAX #15).

const (
	hangulBase  = 0xAC00
	hangulL     = 0x1100
	hangulV     = 0x1161
	hangulT     = 0x11A7
	hangulVs    = 21
	hangulTs    = 28
	hangulCount = 11172
)

// compositions is built on first use (not at start-up: most programs that
// link this package never normalize).
var compositions = sync.OnceValue(func() map[uint64]rune {
	m := make(map[uint64]rune, len(compTriples)/3)
	for i := 0; i+2 < len(compTriples); i += 3 {
		m[uint64(compTriples[i])<<32|uint64(compTriples[i+1])] = compTriples[i+2]
	}
	return m
})

func unstable(r rune) bool {
	_, found := slices.BinarySearch(unstableRunes, r)
	return found
}

func ccc(r rune) int {
	if r < 0x300 {
		return 0
	}
	if i, found := slices.BinarySearch(cccRunes, r); found {
		return int(cccRanks[i])
	}
	return 0
}

// nfc returns s in NFC. Bytes that are not UTF-8 are kept as they are.
func nfc(s string) string {
	i := 0
	for i < len(s) {
		if s[i] < 0xCC { // below U+0300 nothing changes
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError && unstable(r) {
			break
		}
		i += n
	}
	if i == len(s) {
		return s
	}
	// Normalize from the last starter before i (a character left alone
	// starts a segment nothing before it can reach).
	start := i
	for start > 0 {
		r, n := utf8.DecodeLastRuneInString(s[:start])
		start -= n
		if r != utf8.RuneError && ccc(r) == 0 && !unstable(r) {
			break
		}
	}
	var b strings.Builder
	b.Grow(len(s))
	b.WriteString(s[:start])
	rest := s[start:]
	// Decompose, keeping invalid bytes as their own segments.
	var rs []rune
	flush := func() {
		order(rs)
		rs = compose(rs)
		for _, r := range rs {
			b.WriteRune(r)
		}
		rs = rs[:0]
	}
	for j := 0; j < len(rest); {
		r, n := utf8.DecodeRuneInString(rest[j:])
		if r == utf8.RuneError && n == 1 {
			flush()
			b.WriteByte(rest[j])
			j++
			continue
		}
		rs = decompose(rs, r)
		j += n
	}
	flush()
	return b.String()
}

func decompose(dst []rune, r rune) []rune {
	if r >= hangulBase && r < hangulBase+hangulCount {
		k := r - hangulBase
		dst = append(dst, hangulL+k/(hangulVs*hangulTs), hangulV+k%(hangulVs*hangulTs)/hangulTs)
		if t := k % hangulTs; t != 0 {
			dst = append(dst, hangulT+t)
		}
		return dst
	}
	if i, found := slices.BinarySearch(decompRunes, r); found {
		return append(dst, decompTo[decompOff[i]:decompOff[i+1]]...)
	}
	return append(dst, r)
}

// order sorts each run of marks by combining class, stably.
func order(rs []rune) {
	for i := 1; i < len(rs); i++ {
		c := ccc(rs[i])
		if c == 0 {
			continue
		}
		for j := i; j > 0; j-- {
			p := ccc(rs[j-1])
			if p <= c {
				break
			}
			rs[j-1], rs[j] = rs[j], rs[j-1]
		}
	}
}

// compose joins each starter with the characters it composes with and that
// nothing between blocks.
func compose(rs []rune) []rune {
	out := rs[:0]
	starter, last := -1, -1 // last: class of the last character kept after the starter, -1 for none
	for _, r := range rs {
		c := ccc(r)
		if starter >= 0 && (last == -1 || last > 0 && last < c) {
			if x, ok := composite(out[starter], r); ok {
				out[starter] = x
				continue
			}
		}
		if c == 0 {
			starter, last = len(out), -1
		} else {
			last = c
		}
		out = append(out, r)
	}
	return out
}

func composite(a, b rune) (rune, bool) {
	if a >= hangulL && a < hangulL+19 && b >= hangulV && b < hangulV+hangulVs {
		return hangulBase + ((a-hangulL)*hangulVs+(b-hangulV))*hangulTs, true
	}
	if a >= hangulBase && a < hangulBase+hangulCount && (a-hangulBase)%hangulTs == 0 && b > hangulT && b < hangulT+hangulTs {
		return a + (b - hangulT), true
	}
	x, ok := compositions()[uint64(a)<<32|uint64(b)]
	return x, ok
}
