package tables

//go:generate go run -tags tokenfit_noembed gen_tables.go -out .

// Names lists the encodings this package can carry, most used first.
var Names = []string{"o200k_base", "cl100k_base", "p50k_base", "r50k_base"}

// Embedded returns the table of an encoding compiled into this binary, or nil
// when the build left it out (see embed.go).
func Embedded(name string) []byte { return embedded(name) }

// EmbeddedIndex returns the prebuilt index (core/internal/bpe's format) of
// a table compiled into this binary, or nil: native builds carry
// o200k_base's (see index_embed.go).
func EmbeddedIndex(name string) []byte { return embeddedIndex(name) }
