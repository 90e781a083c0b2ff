package engine

import (
	"strconv"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/hf"
	"github.com/tokenfit/tokenfit/internal/errs"
)

// HFTokenizer is an exact tokenizer loaded from a Hugging Face tokenizer.json
// (an open-weight model's: Llama 3.x, gpt-oss, ...). Its counts equal
// Hugging Face's encode(text, add_special_tokens=false): unlike the OpenAI
// encodings here, an added token's text in the input (such as
// <|begin_of_text|>) counts as that one token, which is what the servers
// that run these models count. It is safe for concurrent use.
type HFTokenizer struct {
	m *hf.Model
}

// LoadTokenizer reads a Hugging Face tokenizer.json and names the
// tokenizer, or reads the compact table Table wrote (tokenfit convert),
// which keeps its name. A file that is neither is an error wrapping
// ErrInvalidTable; a valid tokenizer.json using something tokenfit does not
// reproduce exactly (a model type, normalizer or pre-tokenizer regex), one
// wrapping ErrUnsupportedTokenizer that names it. Cost: O(len(data)); the
// table loads several times faster than the JSON it came from.
func LoadTokenizer(name string, data []byte) (*HFTokenizer, error) {
	var m *hf.Model
	var err error
	what := ": tokenizer.json: "
	if hf.IsTable(data) {
		m, err = hf.LoadTable(data)
		what = ": tokenizer table: "
	} else {
		m, err = hf.Load(name, data)
	}
	if err != nil {
		he, ok := errs.As[*hf.Error](err)
		if !ok {
			return nil, err
		}
		if he.Unsupported {
			return nil, &Error{Err: ErrUnsupportedTokenizer, Detail: ": " + he.Reason}
		}
		return nil, &Error{Err: ErrInvalidTable, Detail: what + he.Reason}
	}
	return &HFTokenizer{m: m}, nil
}

// Table returns the tokenizer's compact form, which LoadTokenizer reads back
// (about a third of the tokenizer.json's size, both gzipped).
func (t *HFTokenizer) Table() []byte { return t.m.AppendTable(nil) }

// Named returns the tokenizer under another name (a table keeps the name
// it was made with; a host loads it under the name its caller gives).
func (t *HFTokenizer) Named(name string) *HFTokenizer {
	m := *t.m
	m.Name = name
	return &HFTokenizer{m: &m}
}

// Name returns the name the tokenizer was loaded under.
func (t *HFTokenizer) Name() string { return t.m.Name }

// Exact reports true: the count is the model's own.
func (t *HFTokenizer) Exact() bool { return true }

// Upper returns count: an exact count is its own bound.
func (t *HFTokenizer) Upper(count int) int { return count }

// VocabSize returns one past the highest token id, added tokens included.
func (t *HFTokenizer) VocabSize() int { return t.m.Size() }

// Count returns the number of tokens in text (as ValidUTF8 makes it, like
// every count). Cost: O(n log n) at worst.
func (t *HFTokenizer) Count(text string) int { return t.m.Count(ValidUTF8(text)) }

// Encode returns the token ids of text.
func (t *HFTokenizer) Encode(text string) []int {
	ranks := t.AppendEncode(nil, text)
	ids := make([]int, len(ranks))
	for i, r := range ranks {
		ids[i] = int(r)
	}
	return ids
}

// AppendEncode appends the token ids of text to dst.
func (t *HFTokenizer) AppendEncode(dst []uint32, text string) []uint32 {
	return t.m.AppendEncode(dst, ValidUTF8(text))
}

// AppendEnds appends, for each token of text (as ValidUTF8 makes it), the
// byte offset in that text where the token's text ends. A ▁ the normalizer
// put before the text is no text of it, and a token ending inside a
// character NFC composed ends at that character's start, so the offsets
// are where text can be cut; summing the tokens' bytes is not. O(n).
func (t *HFTokenizer) AppendEnds(dst []int, text string) []int {
	return t.m.AppendEnds(dst, ValidUTF8(text))
}

// Token returns the bytes of a token id (an added token's text), and false
// for an id the tokenizer does not have.
func (t *HFTokenizer) Token(id int) (string, bool) { return t.m.Token(id) }

// Decode returns the text of token ids; see Encoding.Decode.
func (t *HFTokenizer) Decode(ids []int) (string, error) {
	b, err := t.m.AppendDecode(nil, ids)
	if err != nil {
		if it, ok := errs.As[*hf.InvalidTokenError](err); ok {
			return "", &Error{Err: ErrInvalidToken, Detail: ": " + strconv.Itoa(it.ID) + " at index " + strconv.Itoa(it.Index) + " is not a " + t.Name() + " token"}
		}
		return "", err
	}
	return string(b), nil
}

// WithinLimit reports whether text has at most limit tokens, with its count.
func (t *HFTokenizer) WithinLimit(text string, limit int) (int, bool) {
	n := t.Count(text)
	return n, n <= limit
}

// Truncate returns the longest start (or end) of text that holds at most
// maxTokens tokens counted on its own, cut at one of text's token
// boundaries and never inside a character, and its count. Cost: O(n) counts
// of the part in the worst case, usually one or two.
func (t *HFTokenizer) Truncate(text string, maxTokens int, keep Side) (string, int) {
	if maxTokens <= 0 || text == "" {
		return "", 0
	}
	text = ValidUTF8(text)
	ends := t.m.AppendEnds(nil, text)
	if len(ends) <= maxTokens {
		return text, len(ends)
	}
	bounds := append([]int{0}, ends...) // bounds[k]: where the text of k tokens ends
	for k := maxTokens; k > 0; k-- {
		var part string
		if keep == KeepEnd {
			cut := bounds[len(ends)-k]
			for cut < len(text) && !utf8.RuneStart(text[cut]) {
				cut++
			}
			part = text[cut:]
		} else {
			cut := bounds[k]
			for cut > 0 && cut < len(text) && !utf8.RuneStart(text[cut]) {
				cut--
			}
			part = text[:cut]
		}
		if n := t.Count(part); n <= maxTokens {
			return part, n
		}
	}
	return "", 0
}

// NewLiveCounter returns a counter over an empty text whose offsets count in
// units. Unlike an Encoding's, it counts the whole text again after each
// edit: O(n) an edit (a keystroke in 100 KB of English: ~1 ms natively),
// because added tokens and normalizers can join text across the pieces an
// Encoding's counter keeps apart.
func (t *HFTokenizer) NewLiveCounter(units Units) *LiveCounter {
	return &LiveCounter{c: &recount{t: t}, units: units}
}

// recount is an HFTokenizer's live text: the text and its count.
type recount struct {
	t    *HFTokenizer
	text string
	n    int
}

func (r *recount) Reset(text string) { r.text, r.n = text, r.t.m.Count(text) }

func (r *recount) Edit(at, del int, ins string) int {
	r.Reset(r.text[:at] + ins + r.text[at+del:])
	return r.n
}

func (r *recount) Count() int        { return r.n }
func (r *recount) Text() string      { return r.text }
func (r *recount) Len() int          { return len(r.text) }
func (r *recount) ByteAt(p int) byte { return r.text[p] }
func (r *recount) Encoding() string  { return r.t.Name() }

func (r *recount) Len16() int {
	n := 0
	for _, c := range r.text {
		n += utf16Len(c)
	}
	return n
}

// ByteOffset converts an offset in UTF-16 code units to a byte offset; ok
// is false out of range or inside a surrogate pair. O(n).
func (r *recount) ByteOffset(u int) (int, bool) {
	if u < 0 {
		return 0, false
	}
	for i, c := range r.text {
		if u == 0 {
			return i, true
		}
		if u -= utf16Len(c); u < 0 {
			return 0, false
		}
	}
	return len(r.text), u == 0
}

func utf16Len(r rune) int {
	if r >= 0x10000 {
		return 2
	}
	return 1
}
