package core

import (
	"errors"
	"fmt"
	"slices"
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

// DefaultEncoding is used when a request names neither an encoding nor a model.
const DefaultEncoding = "o200k_base"

var loaded struct {
	sync.Mutex
	m map[string]*Encoding
}

// GetEncoding returns an encoding by name. The first call for a name builds
// its look-up table from the embedded vocabulary (about 1 ms for o200k_base
// natively); later calls return the same value. In builds without embedded
// tables (tag tokenfit_noembed) the table must first be given to
// LoadEncoding, else the error wraps ErrEncodingNotLoaded.
func GetEncoding(name string) (*Encoding, error) {
	loaded.Lock()
	defer loaded.Unlock()
	if e := loaded.m[name]; e != nil {
		return e, nil
	}
	if !slices.Contains(tables.Names, name) {
		return nil, fmt.Errorf("%w %q (known: %s)", ErrUnknownEncoding, name, strings.Join(tables.Names, ", "))
	}
	data := tables.Embedded(name)
	if data == nil {
		return nil, fmt.Errorf("%w: %s: load its table first", ErrEncodingNotLoaded, name)
	}
	return addLocked(data, false)
}

// LoadEncoding parses a vocabulary table (a .tkt file, see
// core/internal/tables) given at run time, checks it and makes its encoding
// available under the name it carries. Loading a name twice keeps the first.
// The caller may reuse data afterwards. Cost: O(len(data)).
func LoadEncoding(data []byte) (*Encoding, error) {
	loaded.Lock()
	defer loaded.Unlock()
	return addLocked(data, true)
}

func addLocked(data []byte, verify bool) (*Encoding, error) {
	t, err := tables.Parse(data, verify)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidTable, err)
	}
	if e := loaded.m[t.Name]; e != nil {
		return e, nil
	}
	enc, err := bpe.New(t, verify)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidTable, err)
	}
	if loaded.m == nil {
		loaded.m = map[string]*Encoding{}
	}
	e := &Encoding{enc: enc}
	loaded.m[t.Name] = e
	return e, nil
}

// EncodingNames lists the encodings tokenfit knows, whether loaded or not.
func EncodingNames() []string { return slices.Clone(tables.Names) }

// Name returns the encoding's name, such as "o200k_base".
func (e *Encoding) Name() string { return e.enc.Name }

// VocabSize returns one past the highest token id, special tokens included.
func (e *Encoding) VocabSize() int { return e.enc.Size() }

// Count returns the number of tokens in text. Cost: O(n); no allocation.
func (e *Encoding) Count(text string) int { return e.enc.Count(text) }

// Encode returns the token ids of text. Cost: O(n).
func (e *Encoding) Encode(text string) []int {
	ranks := e.enc.AppendEncode(nil, text)
	ids := make([]int, len(ranks))
	for i, r := range ranks {
		ids[i] = int(r)
	}
	return ids
}

// Decode returns the text of token ids, special tokens included. A list cut
// at an arbitrary token can end inside a character; such bytes are kept as
// they are (hosts that need valid UTF-8 replace them with U+FFFD). An id the
// encoding does not have is an error wrapping ErrInvalidToken.
func (e *Encoding) Decode(ids []int) (string, error) {
	b, err := e.enc.AppendDecode(nil, ids)
	if err != nil {
		var it *bpe.InvalidTokenError
		if errors.As(err, &it) {
			return "", fmt.Errorf("%w: %d at index %d is not a %s token", ErrInvalidToken, it.Rank, it.Index, e.Name())
		}
		return "", err
	}
	return string(b), nil
}

// WithinLimit reports whether text has at most limit tokens. It stops
// counting as soon as the limit is passed, so its cost is proportional to
// the part of text it read; the count it returns is exact when ok is true
// and is otherwise a count above limit.
func (e *Encoding) WithinLimit(text string, limit int) (count int, ok bool) {
	return e.enc.WithinLimit(text, limit)
}

// Side says which end of a text Truncate keeps.
type Side int

const (
	KeepStart Side = iota // keep the beginning, drop the end
	KeepEnd               // keep the end, drop the beginning
)

// Truncate returns the longest start (or end) of text that holds at most
// maxTokens tokens when counted on its own, cut at one of text's token
// boundaries and never inside a character, and its count. Cost: O(n).
func (e *Encoding) Truncate(text string, maxTokens int, keep Side) (string, int) {
	return e.enc.Truncate(text, maxTokens, keep == KeepEnd)
}
