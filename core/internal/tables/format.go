// Package tables holds the compact vocabulary tables of the OpenAI encodings
// and the code that reads and writes their binary format.
//
// A table is the source of truth for one encoding's token bytes. The engine
// uses it in place: ranks are implied by order, so loading a table costs one
// pass over its lengths (O(n)) and no per-token allocation.
//
// Format, version 1 (all integers little-endian):
//
//	offset  size  field
//	0       4     magic "TKFT"
//	4       1     version (1)
//	5       1     pre-tokenizer pattern (see Pattern)
//	6       1     length of the encoding name, k
//	7       1     reserved, 0
//	8       4     n, one past the highest ordinary rank
//	12      4     number of special tokens, s
//	16      4     CRC-32 (IEEE) of every byte after the 24-byte header
//	20      4     total length of the token bytes, b
//	24      k     encoding name
//	.       n     token lengths, one byte each (1..255; 0 marks a rank with no
//	              ordinary token, such as p50k_base's 50256)
//	.       b     token bytes, concatenated in rank order
//	.       ...   s special tokens: 4-byte rank, 1-byte length, the text
package tables

import (
	"errors"
	"hash/crc32"
	"strconv"
)

// Pattern names the pre-tokenizer an encoding was trained with.
type Pattern uint8

const (
	PatternGPT2   Pattern = 1 // r50k_base, p50k_base
	PatternCl100k Pattern = 2 // cl100k_base
	PatternO200k  Pattern = 3 // o200k_base
)

// Special is a special token: text such as <|endoftext|> with a rank of its own.
type Special struct {
	Rank uint32
	Text string
}

// Table is a parsed vocabulary. Its slices alias the bytes it was parsed from.
type Table struct {
	Name     string
	CRC      uint32 // the header's checksum: identifies the table
	Pattern  Pattern
	Lengths  []byte // Lengths[rank] is the byte length of token rank, 0 for none
	Bytes    []byte // all token bytes in rank order
	Specials []Special
	// Offsets, when not nil, is n+1 words of memory whoever computes each
	// rank's offset from Lengths may compute them in (ExpandOffsets' own
	// scratch, reused rather than allocated again); nothing is assumed of
	// its contents.
	Offsets []uint32
}

const (
	magic      = "TKFT"
	version    = 1
	headerSize = 24
)

// ErrFormat reports bytes that are not a valid table.
var ErrFormat = errors.New("tables: not a valid vocabulary table")

// FormatError says what is wrong with a table; it matches ErrFormat. (The
// engine avoids fmt: the lean WebAssembly build leaves it out.)
type FormatError struct{ Reason string }

func (e *FormatError) Error() string { return ErrFormat.Error() + ": " + e.Reason }

// Is reports that a FormatError is an ErrFormat.
func (e *FormatError) Is(target error) bool { return target == ErrFormat }

func bad(reason ...string) error {
	r := ""
	for _, s := range reason {
		r += s
	}
	return &FormatError{Reason: r}
}

func itoa(n int) string { return strconv.Itoa(n) }

// Marshal encodes a vocabulary. tokens[rank] holds the bytes of each ordinary
// token, nil for a rank without one; specials must be sorted by rank.
func Marshal(name string, p Pattern, tokens [][]byte, specials []Special) ([]byte, error) {
	if len(name) == 0 || len(name) > 255 {
		return nil, bad("bad encoding name ", strconv.Quote(name))
	}
	total := 0
	for rank, t := range tokens {
		if len(t) > 255 {
			return nil, bad("token ", itoa(rank), " has ", itoa(len(t)), " bytes; the format holds at most 255")
		}
		total += len(t)
	}
	buf := make([]byte, headerSize, headerSize+len(name)+len(tokens)+total+len(specials)*32)
	copy(buf, magic)
	buf[4] = version
	buf[5] = byte(p)
	buf[6] = byte(len(name))
	putU32(buf[8:], uint32(len(tokens)))
	putU32(buf[12:], uint32(len(specials)))
	putU32(buf[20:], uint32(total))
	buf = append(buf, name...)
	for _, t := range tokens {
		buf = append(buf, byte(len(t)))
	}
	for _, t := range tokens {
		buf = append(buf, t...)
	}
	for _, s := range specials {
		if len(s.Text) == 0 || len(s.Text) > 255 {
			return nil, bad("bad special token ", strconv.Quote(s.Text))
		}
		buf = appendU32(buf, s.Rank)
		buf = append(buf, byte(len(s.Text)))
		buf = append(buf, s.Text...)
	}
	putU32(buf[16:], crc32.ChecksumIEEE(buf[headerSize:]))
	return buf, nil
}

// Parse decodes a table without copying it. It checks the header's structure
// always and the checksum when verify is true (tables that arrive at run time
// from a caller), so that a truncated or corrupted table is an error, never a
// crash; the lengths are checked against the bytes by whoever reads them
// (bpe.NewVocab, in its own pass). Cost: O(len(data)) with
// verify, O(specials) without.
func Parse(data []byte, verify bool) (*Table, error) {
	if len(data) < headerSize || string(data[:4]) != magic {
		return nil, bad("bad magic")
	}
	if data[4] != version {
		return nil, bad("version ", itoa(int(data[4])), ", want ", itoa(version))
	}
	p := Pattern(data[5])
	if p < PatternGPT2 || p > PatternO200k {
		return nil, bad("unknown pattern ", itoa(int(p)))
	}
	if verify && crc32.ChecksumIEEE(data[headerSize:]) != u32(data[16:]) {
		return nil, bad("checksum mismatch")
	}
	k := int(data[6])
	n := int(u32(data[8:]))
	s := int(u32(data[12:]))
	b := int(u32(data[20:]))
	rest := data[headerSize:]
	if n <= 256 || n > len(rest) || k+n+b > len(rest) {
		return nil, bad("truncated")
	}
	t := &Table{Name: string(rest[:k]), Pattern: p, CRC: u32(data[16:])}
	rest = rest[k:]
	t.Lengths, rest = rest[:n], rest[n:]
	// That the lengths add up to the bytes is checked by the pass that
	// builds offsets from them (bpe.NewVocab): one loop, not two.
	t.Bytes, rest = rest[:b], rest[b:]
	for range s {
		if len(rest) < 5 || len(rest) < 5+int(rest[4]) {
			return nil, bad("truncated special tokens")
		}
		l := int(rest[4])
		t.Specials = append(t.Specials, Special{Rank: u32(rest), Text: string(rest[5 : 5+l])})
		rest = rest[5+l:]
	}
	if len(rest) != 0 {
		return nil, bad(itoa(len(rest)), " trailing bytes")
	}
	return t, nil
}

// Little-endian helpers (encoding/binary would bring reflect into the lean
// WebAssembly build).
func u32(b []byte) uint32 {
	_ = b[3]
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

func putU32(b []byte, v uint32) {
	_ = b[3]
	b[0], b[1], b[2], b[3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
}

func appendU32(b []byte, v uint32) []byte {
	return append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
}
