package engine

import (
	"errors"
	"slices"
	"strconv"
	"strings"
	"sync"

	"github.com/tokenfit/tokenfit/core/internal/bpe"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// Encoding is an exact tokenizer for one OpenAI encoding. It is safe for
// concurrent use.
type Encoding struct {
	enc *bpe.Encoder
}

var loaded struct {
	sync.Mutex
	m map[string]*Encoding
}

// Names lists the encodings tokenfit knows, loaded or not.
func Names() []string { return slices.Clone(tables.Names) }

// Load parses a vocabulary table (a .tkt file, see core/internal/tables),
// checks it, and makes its encoding available under the name it carries.
// Loading a name twice keeps the first. data may be reused afterwards.
// Cost: O(len(data)).
func Load(data []byte) (*Encoding, error) {
	loaded.Lock()
	defer loaded.Unlock()
	return addLocked(data, true)
}

// Get returns a loaded encoding by name, or one whose table is compiled into
// the binary (builds without tag tokenfit_noembed). Otherwise the error wraps
// ErrEncodingNotLoaded (a known name: give its table to Load) or
// ErrUnknownEncoding.
func Get(name string) (*Encoding, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if e := loaded.m[name]; e != nil {
		return e, nil
	}
	if !slices.Contains(tables.Names, name) {
		return nil, &Error{Err: ErrUnknownEncoding, Detail: " \"" + name + "\" (known: " + strings.Join(tables.Names, ", ") + ")"}
	}
	data := tables.Embedded(name)
	if data == nil {
		return nil, &Error{Err: ErrEncodingNotLoaded, Detail: ": " + name + ": load its table first"}
	}
	return addLocked(data, false)
}

func addLocked(data []byte, verify bool) (*Encoding, error) {
	t, err := tables.Parse(data, verify)
	if err != nil {
		return nil, &Error{Err: ErrInvalidTable, Detail: ": " + err.Error()}
	}
	if e := loaded.m[t.Name]; e != nil {
		return e, nil
	}
	enc, err := bpe.New(t, verify)
	if err != nil {
		return nil, &Error{Err: ErrInvalidTable, Detail: ": " + err.Error()}
	}
	if loaded.m == nil {
		loaded.m = map[string]*Encoding{}
	}
	e := &Encoding{enc: enc}
	loaded.m[t.Name] = e
	return e, nil
}

// Name returns the encoding's name, such as "o200k_base".
func (e *Encoding) Name() string { return e.enc.Name }

// Count returns the number of tokens in text. Cost: O(n); no allocation.
func (e *Encoding) Count(text string) int { return e.enc.Count(text) }

// AppendEncode appends the token ids of text to dst. Cost: O(n).
func (e *Encoding) AppendEncode(dst []uint32, text string) []uint32 {
	return e.enc.AppendEncode(dst, text)
}

// AppendDecode appends the bytes of the token ids to dst, special tokens
// included. Ids cut at an arbitrary token can end inside a character; those
// bytes are kept as they are. An id the encoding does not have is an error
// wrapping ErrInvalidToken. Cost: O(len(ids)) plus the output.
func (e *Encoding) AppendDecode(dst []byte, ids []int) ([]byte, error) {
	out, err := e.enc.AppendDecode(dst, ids)
	if err != nil {
		var it *bpe.InvalidTokenError
		if errors.As(err, &it) {
			return out, &Error{Err: ErrInvalidToken, Detail: ": " + strconv.Itoa(it.Rank) + " at index " + strconv.Itoa(it.Index) + " is not a " + e.Name() + " token"}
		}
		return out, err
	}
	return out, nil
}

// WithinLimit reports whether text has at most limit tokens. It stops
// counting once the limit is passed, so it costs what it read; the count is
// exact when ok, else a count above limit.
func (e *Encoding) WithinLimit(text string, limit int) (count int, ok bool) {
	return e.enc.WithinLimit(text, limit)
}

// Truncate returns the longest start of text (or end, when fromEnd) that
// holds at most maxTokens tokens counted on its own, cut at one of text's
// token boundaries and never inside a character, and its count. Cost: O(n).
func (e *Encoding) Truncate(text string, maxTokens int, fromEnd bool) (string, int) {
	return e.enc.Truncate(text, maxTokens, fromEnd)
}
