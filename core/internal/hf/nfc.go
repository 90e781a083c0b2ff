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

// lazy holds compositions' map and unstableBMP's bits, each built on its
// first use: not at start-up, since most programs that link this package
// never normalize, and not as sync.OnceValue package variables, whose
// initialisation would link the builders and these tables into every
// program that imports the package (the lean WebAssembly module imports
// core/engine, and with it this package, without loading a tokenizer).
var lazy struct {
	compOnce, bmpOnce sync.Once
	comp              map[uint64]rune
	bmp               *[1 << 16 / 64]uint64
}

// compositions maps a pair of characters to the one NFC composes them into.
func compositions() map[uint64]rune {
	lazy.compOnce.Do(func() {
		m := make(map[uint64]rune, len(compTriples)/3)
		for i := 0; i+2 < len(compTriples); i += 3 {
			m[uint64(compTriples[i])<<32|uint64(compTriples[i+1])] = compTriples[i+2]
		}
		lazy.comp = m
	})
	return lazy.comp
}

// unstableBMP has a bit for each character below U+10000 in unstableRunes:
// the scan for them looks up every character from U+0300 on (most of a
// text in Chinese), which a binary search made most of Qwen's counting
// time.
func unstableBMP() *[1 << 16 / 64]uint64 {
	lazy.bmpOnce.Do(func() {
		var t [1 << 16 / 64]uint64
		for _, r := range unstableRunes {
			if r < 1<<16 {
				t[r/64] |= 1 << (r % 64)
			}
		}
		lazy.bmp = &t
	})
	return lazy.bmp
}

func unstable(r rune) bool {
	if r < 1<<16 {
		return unstableBMP()[r/64]&(1<<(r%64)) != 0
	}
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
//
// Only the segments around characters NFC may change are normalized: a
// character NFC leaves alone and that has combining class 0 (a boundary)
// starts a segment nothing before it can reach, and an invalid byte is
// one of its own; so each unstable character is normalized from the last
// boundary before it to the next one after it, and the rest is copied.
func nfc(s string) string {
	i := nextUnstable(s, 0)
	if i == len(s) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	var rs []rune
	done := 0 // s[:done] is written
	for i < len(s) {
		start := i
		for start > done {
			r, n := utf8.DecodeLastRuneInString(s[done:start])
			if r == utf8.RuneError && n == 1 {
				break
			}
			start -= n
			if ccc(r) == 0 && !unstable(r) {
				break
			}
		}
		_, n := utf8.DecodeRuneInString(s[i:])
		end := i + n // past the unstable character
		for end < len(s) {
			r, n := utf8.DecodeRuneInString(s[end:])
			if r == utf8.RuneError && n == 1 || ccc(r) == 0 && !unstable(r) {
				break
			}
			end += n
		}
		b.WriteString(s[done:start])
		rs = rs[:0]
		for j := start; j < end; {
			r, n := utf8.DecodeRuneInString(s[j:])
			rs = decompose(rs, r)
			j += n
		}
		order(rs)
		for _, r := range compose(rs) {
			b.WriteRune(r)
		}
		done = end
		i = nextUnstable(s, end)
	}
	b.WriteString(s[done:])
	return b.String()
}

// nextUnstable returns the index of the first character at or after i that
// NFC may change, or len(s).
func nextUnstable(s string, i int) int {
	for i < len(s) {
		if s[i] < 0xCC { // below U+0300 nothing changes
			i++
			continue
		}
		r, n := utf8.DecodeRuneInString(s[i:])
		if r != utf8.RuneError && unstable(r) {
			return i
		}
		i += n
	}
	return i
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
