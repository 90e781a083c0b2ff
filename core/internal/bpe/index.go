package bpe

import (
	"strconv"
	"unsafe"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// A prebuilt index: everything NewVocab and the region fills compute from a
// table (offsets, the filled hash table, the 1- and 2-byte token maps), laid
// out so that a vocabulary can use it in place. Building those costs ~40 ms
// in a cold WebAssembly instance (V8 runs a one-off loop in its baseline
// compiler) against ~1 ms to copy the index in; hosts that have bytes to
// spare (Node reading the package's files, the Go host feeding wazero
// instances) load tables with one.
//
// Format, version 1, every integer a little-endian uint32:
//
//	word 0      magic "TKFX"
//	word 1      version (1)
//	word 2      the CRC of the table it indexes (tables.Table.CRC)
//	word 3      n, the table's number of ranks
//	word 4      slots, a power of two
//	word 5      maxLen, the longest token in bytes
//	word 6      regionBits
//	words 7-15  reserved, 0
//	then        byteRank [256], pair2 [65536], off [n+1], slots [slots]
//
// The index is trusted as the module is (it comes with the package or from
// the host); a damaged one can give wrong counts but never reads outside
// its own bytes.

const (
	indexMagic   = "TKFX"
	indexVersion = 1
	indexHeader  = 16 // words
)

// AppendIndex fills every region and appends the vocabulary's index to dst.
// Cost: O(n).
func (v *Vocab) AppendIndex(dst []byte, tableCRC uint32) []byte {
	for r := range v.ready {
		v.ready[r].do(v, r)
	}
	put := func(w uint32) { dst = append(dst, byte(w), byte(w>>8), byte(w>>16), byte(w>>24)) }
	dst = append(dst, indexMagic...)
	put(indexVersion)
	put(tableCRC)
	put(uint32(len(v.off) - 1))
	put(uint32(len(v.keys)))
	put(uint32(v.maxLen))
	put(uint32(v.regionBits))
	for range indexHeader - 7 {
		put(0)
	}
	for _, s := range [][]uint32{v.byteRank[:], v.pair2[:], v.off} {
		for _, w := range s {
			put(w)
		}
	}
	// The slots as 4 bytes each, tag << slotRankBits | rank+1, in the same
	// places: a vocabulary built from the index fills its keySlots from them.
	for _, k := range v.keys {
		if k.hi == 0 {
			put(0)
			continue
		}
		rank := uint32(k.hi>>40) - 1
		put(uint32(hash(v.token(rank)))&^(1<<slotRankBits-1) | rank + 1)
	}
	return dst
}

// NewVocabIndexed builds a vocabulary from a table and its index, using the
// index's words in place (idx must stay unchanged, and own decides for the
// table's bytes as in NewVocab). Cost: O(1) beyond the header checks.
func NewVocabIndexed(t *tables.Table, idx []byte, own bool) (*Vocab, error) {
	bad := func(reason string) error { return &tables.FormatError{Reason: "index: " + reason} }
	if len(idx) < 4*indexHeader || string(idx[:4]) != indexMagic {
		return nil, bad("bad magic")
	}
	words := wordsOf(idx)
	n, size := int(words[3]), int(words[4])
	switch {
	case words[1] != indexVersion:
		return nil, bad("version " + strconv.Itoa(int(words[1])))
	case words[2] != t.CRC:
		return nil, bad("made for another table")
	case n != len(t.Lengths) || size < regionSlots || size&(size-1) != 0 || size > 1<<24:
		return nil, bad("sizes do not match the table")
	case len(words) != indexHeader+256+1<<16+n+1+size:
		return nil, bad("truncated")
	}
	v := &Vocab{Name: t.Name, Pattern: t.Pattern, cache: new(pairCache), maxLen: int(words[5]), regionBits: uint(words[6])}
	v.pieces.allocate()
	if own {
		v.bytes = string(t.Bytes)
	} else if len(t.Bytes) > 0 {
		v.bytes = unsafe.String(&t.Bytes[0], len(t.Bytes))
	}
	rest := words[indexHeader:]
	copy(v.byteRank[:], rest[:256])
	v.pair2, rest = (*[1 << 16]uint32)(rest[256:256+1<<16]), rest[256+1<<16:]
	v.off, v.slots = rest[:n+1], rest[n+1:]
	v.keys = make([]keySlot, size)
	if regions := size / regionSlots; v.regionBits > 8 || 1<<v.regionBits != regions {
		return nil, bad("regions do not match the slots")
	}
	if v.off[0] != 0 || int(v.off[n]) != len(t.Bytes) || v.maxLen > 255 {
		return nil, bad("offsets do not match the table")
	}
	// The regions are filled from the index's slots, in the same places.
	v.ready = make([]regionOnce, size/regionSlots)
	v.starts = make([]int32, len(v.ready)+1)
	v.specials = make(map[uint32]string, len(t.Specials))
	for _, s := range t.Specials {
		v.specials[s.Rank] = s.Text
	}
	return v, nil
}

// wordsOf views b as little-endian uint32s: in place when the machine is
// little-endian and b aligned (WebAssembly, amd64, arm64; b a fresh
// allocation), else as a converted copy. A trailing partial word is dropped.
func wordsOf(b []byte) []uint32 {
	b = b[:len(b)&^3]
	if littleEndian && uintptr(unsafe.Pointer(unsafe.SliceData(b)))%4 == 0 {
		return unsafe.Slice((*uint32)(unsafe.Pointer(unsafe.SliceData(b))), len(b)/4)
	}
	w := make([]uint32, len(b)/4)
	for i := range w {
		w[i] = uint32(b[4*i]) | uint32(b[4*i+1])<<8 | uint32(b[4*i+2])<<16 | uint32(b[4*i+3])<<24
	}
	return w
}

var littleEndian = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()
