package hf

import (
	"encoding/binary"
	"hash/crc32"
	"slices"
	"strconv"
)

// The compact form of a loaded tokenizer.json (tokenfit convert): what the
// engine uses and nothing else, so that it loads without a JSON parse and
// travels smaller. Integers are unsigned varints (encoding/binary's
// Uvarint) unless said otherwise:
//
//	"TKHF" 1            magic, version (one byte)
//	flags               one byte: 1 ignore_merges, 2 the file has a normalizer, 4 it has NFC,
//	                    8 SentencePiece-style (tokens are texts, not bytes), 16 it writes
//	                    spaces as ▁, 32 it puts ▁ first; bits 6-7 Metaspace's scheme
//	                    (0 none, then always, first, never). Version 1 had 16 and 32 not,
//	                    and 8 implied 16.
//	name, regex         each a length and its bytes; regex is the pre-tokenizer's
//	n, then n tokens    each its length+1 and its bytes (0: the id is no model token)
//	m, then m merges    in rank order, each the id it makes (zigzag difference
//	                    from the previous merge's: ranks follow ids closely)
//	                    and the byte length of its left part
//	a, then a added     id, one byte (1: matched after normalization), length, text
//	                    (as the file writes it)
//	crc                 CRC-32 (IEEE) of everything before it, 4 bytes little-endian
const (
	tableMagic   = "TKHF"
	tableVersion = 2
)

// AppendTable appends the compact form of m to dst.
func (m *Model) AppendTable(dst []byte) []byte {
	start := len(dst)
	dst = append(dst, tableMagic...)
	dst = append(dst, tableVersion)
	var flags byte
	if m.ignoreMerges {
		flags |= 1
	}
	if m.normalizes {
		flags |= 2
	}
	if m.nfc {
		flags |= 4
	}
	if m.spiece {
		flags |= 8
	}
	if m.replaceSpace {
		flags |= 16
	}
	if m.prependSpace {
		flags |= 32
	}
	flags |= m.meta << 6
	dst = append(dst, flags)
	dst = appendString(dst, m.Name)
	dst = appendString(dst, m.regex)
	// The model's tokens by id, from vocab: an added token may have taken
	// an id's place in tokens.
	n := 0
	for e := uint32(1); int(e) <= m.vocab.Len(); e++ {
		n = max(n, int(m.vocab.id(e))+1)
	}
	byID := make([]string, n)
	for e := uint32(1); int(e) <= m.vocab.Len(); e++ {
		byID[m.vocab.id(e)] = m.vocab.key(e)
	}
	dst = binary.AppendUvarint(dst, uint64(n))
	for _, tok := range byID {
		if tok == "" {
			dst = append(dst, 0)
			continue
		}
		dst = binary.AppendUvarint(dst, uint64(len(tok))+1)
		dst = append(dst, tok...)
	}
	type merge struct{ rank, pair uint64 }
	merges := make([]merge, 0, m.merges.n)
	for i, pair := range m.merges.keys {
		if pair != emptyPair {
			merges = append(merges, merge{m.merges.vals[i] >> 32, pair})
		}
	}
	slices.SortFunc(merges, func(a, b merge) int { return int(int64(a.rank) - int64(b.rank)) })
	dst = binary.AppendUvarint(dst, uint64(len(merges)))
	prev := int64(0)
	for _, mg := range merges {
		v, _ := m.merges.get(mg.pair)
		made := int64(uint32(v))
		dst = binary.AppendVarint(dst, made-prev)
		prev = made
		dst = binary.AppendUvarint(dst, uint64(len(byID[mg.pair>>32])))
	}
	added := m.added.list(0)
	added = append(added, m.addedNorm.list(1)...)
	dst = binary.AppendUvarint(dst, uint64(len(added)))
	for _, a := range added {
		dst = binary.AppendUvarint(dst, uint64(a.id))
		dst = append(dst, a.norm)
		dst = appendString(dst, a.text)
	}
	return binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(dst[start:]))
}

func appendString(dst []byte, s string) []byte {
	dst = binary.AppendUvarint(dst, uint64(len(s)))
	return append(dst, s...)
}

// IsTable reports whether data starts as a compact table does.
func IsTable(data []byte) bool { return len(data) >= 4 && string(data[:4]) == tableMagic }

// LoadTable reads the compact form AppendTable writes, checking its
// checksum. Errors match ErrFormat (ErrUnsupported for a regex this build
// does not know). Cost: O(len(data)).
func LoadTable(data []byte) (*Model, error) {
	if !IsTable(data) || len(data) < 10 {
		return nil, bad("not a tokenfit tokenizer table")
	}
	if data[4] != tableVersion && data[4] != 1 {
		return nil, bad("table version " + strconv.Itoa(int(data[4])))
	}
	body := data[:len(data)-4]
	if crc32.ChecksumIEEE(body) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, bad("table checksum mismatch")
	}
	r := &tableReader{b: body, i: 6}
	flags := data[5]
	name, regex := r.str(), r.str()
	m := &Model{Name: name, cache: newPieceCache(), ignoreMerges: flags&1 != 0, normalizes: flags&2 != 0, nfc: flags&4 != 0,
		spiece: flags&8 != 0, replaceSpace: flags&16 != 0, prependSpace: flags&32 != 0, meta: flags >> 6}
	if data[4] == 1 {
		m.replaceSpace, m.prependSpace, m.meta = m.spiece, false, metaNone
	}
	if m.spiece {
		m.sections = newSectionCache()
	}
	if r.err == nil && !m.spiece {
		if err := m.setSplitter(regex); err != nil {
			return nil, err
		}
	}
	n := r.count(maxVocab)
	m.vocab = newVocabTable(n)
	byID := make([]string, n) // the vocabulary's keys, which merges split
	for id := 0; id < n && r.err == nil; id++ {
		l := r.length()
		if l == 0 {
			continue
		}
		tok := r.bytes(l - 1)
		if r.err == nil && tok == "" {
			r.err = bad("an empty token")
		}
		if r.err == nil {
			r.err = m.setToken(id, tok)
			byID[id] = tok
		}
	}
	if r.err == nil {
		if err := m.setBytes(); err != nil {
			return nil, err
		}
	}
	k := r.count(maxMerges)
	m.initMerges(k)
	made := int64(0)
	for rank := 0; rank < k && r.err == nil; rank++ {
		made += r.signed()
		split := r.count(maxKey)
		if r.err != nil {
			break
		}
		tok, ok := "", made >= 0 && made < int64(len(byID))
		if ok {
			tok = byID[made]
		}
		if !ok || split < 1 || split >= len(tok) {
			return nil, bad("merge " + strconv.Itoa(rank) + " is not a split of a token")
		}
		if err := m.addMerge(rank, tok, split); err != nil {
			return nil, err
		}
	}
	na := r.count(maxAdded)
	for range na {
		id := r.count(maxVocab)
		norm := r.byte()
		text := r.str()
		if r.err != nil {
			break
		}
		if text == "" {
			return nil, bad("an added token is empty")
		}
		if err := m.setAdded(id, text, norm == 1); err != nil {
			return nil, err
		}
	}
	if r.err == nil && r.i != len(body) {
		r.err = bad("bytes after the table")
	}
	if r.err != nil {
		return nil, r.err
	}
	m.buildAdded()
	return m, nil
}

type tableReader struct {
	b   []byte
	i   int
	err error
}

func (r *tableReader) fail() {
	if r.err == nil {
		r.err = bad("table truncated or damaged at byte " + strconv.Itoa(r.i))
	}
}

func (r *tableReader) count(limit int) int {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b[r.i:])
	if n <= 0 || v > uint64(limit) {
		r.fail()
		return 0
	}
	r.i += n
	return int(v)
}

func (r *tableReader) signed() int64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Varint(r.b[r.i:])
	if n <= 0 || v > maxVocab || v < -maxVocab {
		r.fail()
		return 0
	}
	r.i += n
	return v
}

func (r *tableReader) bytes(n int) string {
	if r.err != nil || n > len(r.b)-r.i {
		r.fail()
		return ""
	}
	s := string(r.b[r.i : r.i+n])
	r.i += n
	return s
}

// length reads a length, which bytes or setToken and setAdded then check.
func (r *tableReader) length() int { return r.count(len(r.b)) }

func (r *tableReader) str() string { return r.bytes(r.length()) }

func (r *tableReader) byte() byte {
	if r.err != nil || r.i >= len(r.b) {
		r.fail()
		return 0
	}
	r.i++
	return r.b[r.i-1]
}
