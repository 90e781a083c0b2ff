package core

import "strings"

// family is a prefix of model names and the tokenizer its models share. A
// family names a tokenizer and nothing else: a window or an output limit
// belongs to one model, and a new name in a family may differ in both
// (gpt-5-chat has 128,000 tokens where gpt-5 has 400,000).
type family struct {
	prefix    string
	provider  string
	encoding  string // or
	estimator string
}

// families follows tiktoken's MODEL_PREFIX_TO_ENCODING (tiktoken/model.py)
// for OpenAI's names, extended to the families OpenAI has added since
// (gpt-6, the audio, realtime and image models) and to the other providers'
// estimators. The longest matching prefix wins. TestResolve_Tiktoken holds
// it to tiktoken's table.
var families = []family{
	{"gpt-6", "openai", "o200k_base", ""},
	{"gpt-5", "openai", "o200k_base", ""},
	{"gpt-4.5", "openai", "o200k_base", ""},
	{"gpt-4.1", "openai", "o200k_base", ""},
	{"gpt-4o", "openai", "o200k_base", ""},
	{"chatgpt-", "openai", "o200k_base", ""},
	{"chat-latest", "openai", "o200k_base", ""},
	{"gpt-oss", "openai", "o200k_base", ""}, // tiktoken: o200k_harmony, the same ranks
	{"gpt-realtime", "openai", "o200k_base", ""},
	{"gpt-audio", "openai", "o200k_base", ""},
	{"gpt-image", "openai", "o200k_base", ""},
	{"codex-", "openai", "o200k_base", ""},
	{"computer-use-", "openai", "o200k_base", ""},
	{"o1-", "openai", "o200k_base", ""},
	{"o3-", "openai", "o200k_base", ""},
	{"o4-", "openai", "o200k_base", ""},
	{"gpt-4", "openai", "cl100k_base", ""}, // gpt-4-*, gpt-4-32k*
	{"gpt-3.5", "openai", "cl100k_base", ""},
	{"gpt-35-turbo", "openai", "cl100k_base", ""}, // Azure deployment names
	{"text-embedding-", "openai", "cl100k_base", ""},
	{"davinci-codex", "openai", "p50k_base", ""},
	{"cushman-codex", "openai", "p50k_base", ""},
	{"code-davinci-", "openai", "p50k_base", ""},
	{"code-cushman-", "openai", "p50k_base", ""},
	{"text-davinci-edit-", "openai", "p50k_base", ""}, // tiktoken: p50k_edit, the same ranks
	{"code-davinci-edit-", "openai", "p50k_base", ""},
	{"text-similarity-", "openai", "r50k_base", ""},
	{"text-search-", "openai", "r50k_base", ""},
	{"code-search-", "openai", "r50k_base", ""},
	{"gpt2", "openai", "r50k_base", ""},  // tiktoken's gpt2 encoding: r50k_base's ranks
	{"gpt-2", "openai", "r50k_base", ""}, // tiktoken maps both spellings to gpt2
	{"claude-", "anthropic", "", "claude-2026"},
	{"gemini-", "google", "", "gemini"},
	{"llama-4", "meta", "", "llama4"},
	{"llama-3", "meta", "", "llama3"},
	{"mistral-", "mistral", "", "mistral"},
	{"ministral-", "mistral", "", "mistral"},
	{"magistral-", "mistral", "", "mistral"},
	{"codestral-", "mistral", "", "mistral"},
	{"devstral-", "mistral", "", "mistral"},
	{"pixtral-", "mistral", "", "mistral"},
	{"open-mistral-", "mistral", "", "mistral"},
	{"open-mixtral-", "mistral", "", "mistral"},
	{"deepseek-", "deepseek", "", "deepseek"},
	{"command-", "cohere", "", "cohere"},
}

// familyOf returns the family of a normalized name, after the prefixes
// Lookup drops. Cost: O(len(families)).
func familyOf(key string) (family, bool) {
	for {
		best := -1
		for i, f := range families {
			if strings.HasPrefix(key, f.prefix) && (best < 0 || len(f.prefix) > len(families[best].prefix)) {
				best = i
			}
		}
		if best >= 0 {
			return families[best], true
		}
		rest, ok := stripPrefix(key)
		if !ok {
			return family{}, false
		}
		key = rest
	}
}
