package core

import (
	"slices"
	"strings"
)

// Which tokenizer Google counts each Gemini model with: python-genai's own
// map (google/genai/_local_tokenizer_loader.py), by exact name. The models
// it maps to Gemma 3's SentencePiece model (262,144 pieces) count with the
// tokenizer loaded as GeminiTokenizer — the npm package ships it as
// tokenfit/tokenizers/gemini; those it maps to Gemma 4 with one loaded as
// Gemma4Tokenizer, which tokenfit does not ship (no Gemma 4 tokenizer.json
// is published on npm). Until one is loaded, a Gemini model counts with the
// registry's "gemini" estimate. A registry row whose id or an alias is
// named here, and that names no tokenizer of its own, gets its Tokenizer
// from this table (Registry.With), and so does a name the registry does not
// know but of a Gemini generation (Registry.Resolve).

// The names under which the Gemini tokenizers are loaded.
const (
	GeminiTokenizer = "gemini"
	Gemma4Tokenizer = "gemini-gemma4"
)

var geminiTokenizers = map[string][]string{
	GeminiTokenizer: {
		"gemini-2.5-pro", "gemini-2.5-flash", "gemini-2.5-flash-lite", "gemini-2.0-flash", "gemini-2.0-flash-lite",
		"gemini-2.5-pro-preview-06-05", "gemini-2.5-pro-preview-05-06", "gemini-2.5-pro-exp-03-25", "gemini-live-2.5-flash",
		"gemini-2.5-flash-preview-05-20", "gemini-2.5-flash-preview-04-17", "gemini-2.5-flash-lite-preview-06-17",
		"gemini-2.0-flash-001", "gemini-2.0-flash-lite-001", "gemini-3-pro-preview", "gemini-3-flash-preview",
	},
	Gemma4Tokenizer: {"gemini-3.5-flash", "gemini-3.1-flash-lite", "gemini-3.1-pro-preview"},
}

// geminiGenerations extend Google's map to the snapshots and previews it
// does not name (gemini-2.5-flash-preview-09-2025, gemini-2.5-flash-image):
// every Gemini 2.0, 2.5 and 3.0 model it names counts with Gemma 3, every
// 3.1 and 3.5 one with Gemma 4.
var geminiGenerations = []struct{ prefix, tokenizer string }{
	{"gemini-2.0-", GeminiTokenizer}, {"gemini-2.5-", GeminiTokenizer}, {"gemini-3-", GeminiTokenizer},
	{"gemini-3.1-", Gemma4Tokenizer}, {"gemini-3.5-", Gemma4Tokenizer},
}

// withGeminiTokenizer gives a Gemini model that names no tokenizer the one
// Google counts it with: by Google's map, else by its generation.
func withGeminiTokenizer(m Model) Model {
	if m.Tokenizer != "" {
		return m
	}
	ids := append([]string{m.ID}, m.Aliases...)
	for name, named := range geminiTokenizers {
		for _, id := range ids {
			if slices.Contains(named, strings.ToLower(id)) {
				m.Tokenizer = name
				return m
			}
		}
	}
	m.Tokenizer = geminiGeneration(strings.ToLower(m.ID))
	return m
}

// geminiGeneration returns the tokenizer of a lower-case Gemini model name
// (after any provider prefix) by its generation, or "".
func geminiGeneration(name string) string {
	name = name[strings.LastIndexByte(name, '/')+1:]
	for _, g := range geminiGenerations {
		if strings.HasPrefix(name, g.prefix) {
			return g.tokenizer
		}
	}
	return ""
}

// isProviderTokenizer reports whether name is one of the provider
// tokenizers a registry row may name besides "hf:" repositories.
func isProviderTokenizer(name string) bool {
	_, ok := geminiTokenizers[name]
	return ok
}
