package engine

import (
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/bpe"
	"github.com/tokenfit/tokenfit/core/internal/tables"
	"github.com/tokenfit/tokenfit/internal/errs"
)

// Encoding is an exact tokenizer for one OpenAI encoding: its counts equal
// the official tiktoken's encode_ordinary, so special-token text such as
// <|endoftext|> counts as ordinary text. It is safe for concurrent use.
type Encoding struct {
	enc *bpe.Encoder
	crc uint32
}

var loaded struct {
	sync.Mutex
	m map[string]*Encoding
}

// Names lists the encodings tokenfit knows, loaded or not.
func Names() []string { return slices.Clone(tables.Names) }

// aliases are encoding names tiktoken accepts whose ranks are those of an
// encoding here: gpt2 has r50k_base's, p50k_edit p50k_base's and
// o200k_harmony o200k_base's. They differ only in special tokens, which
// tokenfit counts as ordinary text, so every count is the same. Get takes
// them; answers name the encoding they stand for.
var aliases = map[string]string{"gpt2": "r50k_base", "p50k_edit": "p50k_base", "o200k_harmony": "o200k_base"}

// Loaded reports whether an encoding is loaded (its look-up structures
// built).
func Loaded(name string) bool {
	loaded.Lock()
	defer loaded.Unlock()
	return loaded.m[name] != nil
}

// Table returns the vocabulary table of an encoding as compiled into this
// program (a .tkt file, what Load takes), or nil when the name is unknown or
// the program does not import package core/tables. The bytes are shared:
// do not modify them.
func Table(name string) []byte { return tables.Embedded(name) }

// Get returns an encoding by name: one loaded before, or one whose table is
// compiled into the binary, built on first use (O(n), most of it grouping
// the ranks; the hash table fills lazily), or, for o200k_base in native
// builds, taken from the index compiled in with it (O(1)).
// tiktoken's gpt2, p50k_edit and o200k_harmony name the encodings with their
// ranks. Otherwise the error wraps ErrEncodingNotLoaded (a known name: give its
// table to Load) or ErrUnknownEncoding.
func Get(name string) (*Encoding, error) {
	if a, ok := aliases[name]; ok {
		name = a
	}
	loaded.Lock()
	defer loaded.Unlock()
	if e := loaded.m[name]; e != nil {
		return e, nil
	}
	if !slices.Contains(tables.Names, name) {
		return nil, &Error{Err: ErrUnknownEncoding, Detail: " \"" + Clip(name) + "\" (known: " + strings.Join(tables.Names, ", ") + ")"}
	}
	if compiled != nil {
		return compiled(name)
	}
	return nil, notLoaded(name)
}

func notLoaded(name string) error {
	return &Error{Err: ErrEncodingNotLoaded, Encoding: name, Detail: ": " + name + ": load its table first"}
}

// compiled is what Get builds an encoding from when none is loaded: nil
// until UseCompiledTables. Through a function value, so that a program
// without compiled-in tables (a WebAssembly module) links none of it.
var compiled func(name string) (*Encoding, error)

// UseCompiledTables makes Get build an encoding from its table compiled
// into the program (on first use, as a loaded one, and without the digest
// Load checks: the bytes are the program's own). Package core/tables,
// which compiles the tables in, calls it in its initialisation: import
// that package rather than call it.
func UseCompiledTables() {
	compiled = func(name string) (*Encoding, error) {
		data := tables.Embedded(name)
		if data == nil {
			return nil, notLoaded(name)
		}
		// Native programs carry o200k_base's index (tables.EmbeddedIndex),
		// so that a fresh process builds nothing before its first count.
		return addLocked(data, tables.EmbeddedIndex(name), nil, false, false)
	}
}

// Load parses a vocabulary table given at run time (a .tkt file), checks it
// against the checksum this build carries for its name, and makes its encoding available under the name it carries.
// Loading a name twice keeps the first. data may be reused afterwards.
// Cost: O(len(data)).
func Load(data []byte) (*Encoding, error) {
	loaded.Lock()
	defer loaded.Unlock()
	return addLocked(data, nil, nil, true, true)
}

// LoadPacked is Load for a table in its transport form (a .tkp file, what
// pages download; see tables.Expand): it is expanded into a buffer of the
// encoding's own, checked as Load checks a table, and used in place, so
// the table's bytes are written once. A damaged .tkp is ErrInvalidTable.
// tkp may be reused afterwards. Cost: O(table).
func LoadPacked(tkp []byte) (*Encoding, error) {
	data, off, err := tables.ExpandOffsets(tkp)
	if err != nil {
		return nil, &Error{Err: ErrInvalidTable, Detail: ": " + err.Error()}
	}
	loaded.Lock()
	defer loaded.Unlock()
	return addLocked(data, nil, off, true, false)
}

// LoadIndexed is Load with the table's prebuilt index (see Index): the
// look-up structures are used from it instead of computed, so loading costs
// little more than reading the header. The index must have been made for
// this table (it records the table's checksum), and both must be the ones
// this build knows: they are checked once against the checksums it carries
// (a damaged pair is ErrInvalidTable, never a wrong count). Cost: a digest
// of both (tables.Digest). Both are used in place, not copied, and must
// stay unchanged once it has returned an encoding.
func LoadIndexed(data, index []byte) (*Encoding, error) {
	loaded.Lock()
	defer loaded.Unlock()
	return addLocked(data, index, nil, true, false)
}

var indexes struct {
	sync.Mutex
	m map[string][]byte
}

// Index returns the prebuilt index of an encoding whose table is compiled
// into this binary: compiled in too (o200k_base, natively), or computed
// once (O(n)); shared either way: do not modify it. Hosts hand it to
// WebAssembly modules with the table (LoadIndexed there), so that an
// instance starts without building it.
func Index(name string) ([]byte, error) {
	if b := tables.EmbeddedIndex(name); b != nil {
		return b, nil
	}
	indexes.Lock()
	defer indexes.Unlock()
	if b := indexes.m[name]; b != nil {
		return b, nil
	}
	e, err := Get(name)
	if err != nil {
		return nil, err
	}
	if indexes.m == nil {
		indexes.m = map[string][]byte{}
	}
	b := e.enc.AppendIndex(nil, e.crc)
	indexes.m[name] = b
	return b, nil
}

// addLocked loads a table: verify checks it against the digests this build
// carries (tables given at run time), and own copies its bytes (a caller's
// buffer) instead of using them in place (compiled-in tables, or one
// expanded here); off is memory for the offsets (tables.Table.Offsets) or
// nil. The header's own CRC is not recomputed: the digest covers every
// byte it does.
func addLocked(data, index []byte, off []uint32, verify, own bool) (*Encoding, error) {
	t, err := tables.Parse(data, false)
	if err == nil && verify {
		// Given at run time: the bytes must be the ones this build knows.
		err = tables.Verify(t.Name, data, index)
	}
	if err != nil {
		return nil, &Error{Err: ErrInvalidTable, Detail: ": " + err.Error()}
	}
	if e := loaded.m[t.Name]; e != nil {
		return e, nil
	}
	t.Offsets = off
	pauseGC() // the build allocates and frees nothing: gcpause.go
	defer resumeGC()
	var enc *bpe.Encoder
	if index != nil {
		enc, err = bpe.NewIndexed(t, index, own)
	} else {
		enc, err = bpe.New(t, own)
	}
	if err != nil {
		return nil, &Error{Err: ErrInvalidTable, Detail: ": " + err.Error()}
	}
	if loaded.m == nil {
		loaded.m = map[string]*Encoding{}
	}
	e := &Encoding{enc: enc, crc: t.CRC}
	loaded.m[t.Name] = e
	return e, nil
}

// Name returns the encoding's name, such as "o200k_base".
func (e *Encoding) Name() string { return e.enc.Name }

// Exact reports true: an encoding counts what the provider counts.
func (e *Encoding) Exact() bool { return true }

// Upper returns count: an exact count is its own bound.
func (e *Encoding) Upper(count int) int { return count }

// Count returns the number of tokens in text (see ValidUTF8 for bytes that
// are not UTF-8). Cost: O(n); no allocation for valid UTF-8.
func (e *Encoding) Count(text string) int { return e.enc.Count(ValidUTF8(text)) }

// Encode returns the token ids of text (see ValidUTF8). Cost: O(n).
func (e *Encoding) Encode(text string) []int {
	ranks := e.enc.AppendEncode(nil, ValidUTF8(text))
	ids := make([]int, len(ranks))
	for i, r := range ranks {
		ids[i] = int(r)
	}
	return ids
}

// AppendEncode appends the token ids of text to dst (see ValidUTF8).
// Cost: O(n).
func (e *Encoding) AppendEncode(dst []uint32, text string) []uint32 {
	return e.enc.AppendEncode(dst, ValidUTF8(text))
}

// AppendEnds appends, for each token of text (see ValidUTF8), the byte
// offset in that text where the token ends: the sums of the tokens' lengths.
// A token can end inside a character (an emoji may be two tokens). O(n).
func (e *Encoding) AppendEnds(dst []int, text string) []int {
	end := 0
	ids := e.enc.AppendEncode(nil, ValidUTF8(text))
	dst = slices.Grow(dst, len(ids))
	for _, r := range ids {
		tok, _ := e.enc.Token(int(r))
		end += len(tok)
		dst = append(dst, end)
	}
	return dst
}

// Token returns the bytes of a token id, special tokens included, and false
// for an id the encoding does not have.
func (e *Encoding) Token(id int) (string, bool) { return e.enc.Token(id) }

// Decode returns the text of token ids, special tokens included. Ids cut at
// an arbitrary token can end inside a character; those bytes are kept as
// they are (hosts that need valid UTF-8 replace them with U+FFFD). An id the
// encoding does not have is an error wrapping ErrInvalidToken.
// Cost: O(len(ids)) plus the output.
func (e *Encoding) Decode(ids []int) (string, error) {
	b, err := e.AppendDecode(nil, ids)
	return string(b), err
}

// AppendDecode appends the bytes of the token ids to dst; see Decode.
func (e *Encoding) AppendDecode(dst []byte, ids []int) ([]byte, error) {
	out, err := e.enc.AppendDecode(dst, ids)
	if err != nil {
		if it, ok := errs.As[*bpe.InvalidTokenError](err); ok {
			return out, &Error{Err: ErrInvalidToken, Detail: ": " + strconv.Itoa(it.Rank) + " at index " + strconv.Itoa(it.Index) + " is not a " + e.Name() + " token"}
		}
		return out, err
	}
	return out, nil
}

// WithinLimit reports whether text has at most limit tokens. It stops
// counting as soon as the limit is passed, so its cost is proportional to
// the part of text it read; the count is exact when ok, else a count above
// limit (see ValidUTF8).
func (e *Encoding) WithinLimit(text string, limit int) (count int, ok bool) {
	return e.enc.WithinLimit(ValidUTF8(text), limit)
}

// Side says which end of a text Truncate keeps.
type Side int

const (
	KeepStart Side = iota // keep the beginning, drop the end
	KeepEnd               // keep the end, drop the beginning
)

// Truncate returns the longest start (or end) of text that holds at most
// maxTokens tokens when counted on its own, cut at one of text's token
// boundaries and never inside a character, and its count. Text that is not
// UTF-8 is cut from ValidUTF8(text). Cost: O(n).
func (e *Encoding) Truncate(text string, maxTokens int, keep Side) (string, int) {
	return e.enc.Truncate(ValidUTF8(text), maxTokens, keep == KeepEnd)
}

// ValidUTF8 returns text with each byte that is not part of valid UTF-8
// replaced by U+FFFD, one per byte - encoding/json's rule, and a Go range
// loop's - and text itself when it is valid. Every operation that takes
// text applies it first, so a count is the same whether the text came as
// bytes, through JSON or from a JavaScript string (where a lone surrogate
// is one U+FFFD), and Count(t) == len(Encode(t)) for any bytes t.
// Cost: O(n); allocates only for invalid input.
func ValidUTF8(text string) string {
	if utf8.ValidString(text) {
		return text
	}
	b := make([]byte, 0, len(text)+len(text)/2)
	for i := 0; i < len(text); {
		r, n := utf8.DecodeRuneInString(text[i:])
		if r == utf8.RuneError && n == 1 {
			b = append(b, "\uFFFD"...)
		} else {
			b = append(b, text[i:i+n]...)
		}
		i += n
	}
	return string(b)
}
