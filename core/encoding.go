package core

import "github.com/tokenfit/tokenfit/core/engine"

// Counting is package engine's: core names its types so that one import
// serves a program that counts, budgets and plans. (engine stands alone for
// programs that only count, such as the lean WebAssembly module.) Encoding,
// LiveCounter, StreamCounter and HFTokenizer are defined on engine's types,
// not aliases, so that go doc lists their methods, which forward to
// engine's (encoding_methods.go, generated); converting between the two is
// free.

//go:generate go run gen_methods.go

// Encoding is an exact tokenizer for one OpenAI encoding: its counts equal
// the official tiktoken's encode_ordinary, so special-token text such as
// <|endoftext|> counts as ordinary text. It is safe for concurrent use.
type Encoding engine.Encoding

// Side says which end of a text Truncate keeps.
type Side = engine.Side

const (
	KeepStart = engine.KeepStart // keep the beginning, drop the end
	KeepEnd   = engine.KeepEnd   // keep the end, drop the beginning
)

// LiveCounter keeps the exact token count of a text while it is edited, for
// a composer that shows the count on every keystroke; see
// engine.LiveCounter. Not safe for concurrent use.
type LiveCounter engine.LiveCounter

// StreamCounter counts a text that arrives in parts (a file or a pipe too
// big to hold), written as to an io.Writer; its count equals Count of the
// whole text. See engine.StreamCounter. Not safe for concurrent use.
type StreamCounter engine.StreamCounter

// Units says how a LiveCounter's offsets count.
type Units = engine.Units

const (
	Bytes = engine.Bytes // offsets in bytes of UTF-8
	UTF16 = engine.UTF16 // offsets in UTF-16 code units, as JavaScript counts
)

// DefaultEncoding is used when a request names neither an encoding nor a model.
const DefaultEncoding = "o200k_base"

// ValidUTF8 replaces each byte of text that is not part of valid UTF-8 with
// U+FFFD, as every operation does before it counts; see engine.ValidUTF8.
func ValidUTF8(text string) string { return engine.ValidUTF8(text) }

// GetEncoding returns an encoding by name; see engine.Get.
func GetEncoding(name string) (*Encoding, error) {
	e, err := engine.Get(name)
	return (*Encoding)(e), err
}

// LoadEncoding loads a vocabulary table given at run time; see engine.Load.
func LoadEncoding(data []byte) (*Encoding, error) {
	e, err := engine.Load(data)
	return (*Encoding)(e), err
}

// EncodingNames lists the encodings tokenfit knows, whether loaded or not.
func EncodingNames() []string { return engine.Names() }

// EncodingTable returns the table of an encoding compiled into this binary,
// or nil; see engine.Table. Hosts feed it to WebAssembly modules, which
// carry no tables.
func EncodingTable(name string) []byte { return engine.Table(name) }

// EncodingIndex returns the prebuilt index of a compiled-in table; see
// engine.Index. Hosts give it to modules with the table.
func EncodingIndex(name string) ([]byte, error) { return engine.Index(name) }
