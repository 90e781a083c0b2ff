package core

import (
	"bytes"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestRegistry_EveryNameResolves resolves every row's id and aliases, as
// given, dated, behind a provider prefix and in capitals, to that row.
func TestRegistry_EveryNameResolves(t *testing.T) {
	reg := DefaultRegistry()
	for _, m := range reg.Models() {
		names := append([]string{m.ID}, m.Aliases...)
		for i, name := range names {
			how := ResolvedAlias
			if i == 0 {
				how = ResolvedID
			}
			for _, tc := range []struct{ name, how string }{
				{name, how},
				{strings.ToUpper(name) + " ", how},
				{name + "-2031-01-01", ResolvedSnapshot},
				{name + "-20310101", ResolvedSnapshot},
				{"openai/" + name, how},
				{"azure/" + name, how},
				{"models/" + name, how},
			} {
				res, err := reg.Resolve(tc.name)
				if err != nil {
					t.Fatal(err)
				}
				if res.Model.ID != m.ID || res.Fallback || res.How != tc.how {
					t.Errorf("%q resolved to %s (%s, fallback %v), want %s (%s)", tc.name, res.Model.ID, res.How, res.Fallback, m.ID, tc.how)
				}
			}
		}
	}
}

// TestRegistry_NoNameClaimedTwice: no id or alias names two built-in rows
// (the later would silently win), nor two of the catalog's.
func TestRegistry_NoNameClaimedTwice(t *testing.T) {
	builtin, err := readRegistry([]byte(modelsTable))
	if err != nil {
		t.Fatal(err)
	}
	cat, err := readRegistry(CatalogJSON())
	if err != nil {
		t.Fatal(err)
	}
	for _, models := range [][]Model{builtin.Models, cat.Models} {
		owner := map[string]string{}
		for _, m := range models {
			for _, name := range append([]string{m.ID}, m.Aliases...) {
				key := normalizeName(name)
				if prev, ok := owner[key]; ok {
					t.Errorf("%q is claimed by %s and %s", name, prev, m.ID)
				}
				owner[key] = m.ID
			}
		}
	}
	if len(builtin.Models) < 230 || len(cat.Models) < 4000 {
		t.Errorf("only %d built-in and %d catalog rows: the tables not read?", len(builtin.Models), len(cat.Models))
	}
}

// TestRegistry_OwnRowsShadowTheCatalog: a name a built-in row answers to
// resolves to it, whatever catalog row claims it too.
func TestRegistry_OwnRowsShadowTheCatalog(t *testing.T) {
	reg := DefaultRegistry()
	for _, m := range reg.models {
		for _, name := range append([]string{m.ID}, m.Aliases...) {
			if got, _ := reg.Lookup(name); got.ID != m.ID {
				t.Errorf("%q resolves to %s, not its built-in row %s", name, got.ID, m.ID)
			}
		}
	}
}

// TestResolve_Order holds each step of the documented order, and the
// answers this order changed (issue 11).
func TestResolve_Order(t *testing.T) {
	for _, tc := range []struct {
		name, id, how, family, tokenizer string
		window                           int
	}{
		{"gpt-4o", "gpt-4o", ResolvedID, "", "o200k_base", 128000},
		{"gpt-35-turbo", "gpt-3.5-turbo", ResolvedAlias, "", "cl100k_base", 16385},
		{"gpt-35-turbo-16k", "gpt-3.5-turbo-16k", ResolvedAlias, "", "cl100k_base", 16385},
		{"gpt-35-turbo-0125", "gpt-3.5-turbo", ResolvedSnapshot, "", "cl100k_base", 16385},
		{"gpt-35-turbo-0613", "gpt-3.5-turbo-0613", ResolvedAlias, "", "cl100k_base", 4096},
		{"gpt-4o-2024-08-06", "gpt-4o", ResolvedAlias, "", "o200k_base", 128000},
		{"gpt-4o-2025-01-31", "gpt-4o", ResolvedSnapshot, "", "o200k_base", 128000},
		{"gpt-4o-2024-05-13", "gpt-4o-2024-05-13", ResolvedID, "", "o200k_base", 128000},
		{"gpt-4-0613", "gpt-4", ResolvedAlias, "", "cl100k_base", 8192},
		{"claude-sonnet-4-5-20250929", "claude-sonnet-4-5", ResolvedAlias, "", "estimate:claude", 200000},
		{"gemini-2.0-flash-001", "gemini-2.0-flash", ResolvedAlias, "", "estimate:gemini", 1048576},
		{"openai/gpt-4o-mini", "gpt-4o-mini", ResolvedID, "", "o200k_base", 128000},
		{"models/gemini-2.5-pro", "gemini-2.5-pro", ResolvedID, "", "estimate:gemini", 1048576},
		{"azure/gpt-35-turbo", "gpt-3.5-turbo", ResolvedAlias, "", "cl100k_base", 16385},
		{"ft:gpt-4o-mini-2024-07-18:acme::abc123", "gpt-4o-mini", ResolvedAlias, "", "o200k_base", 128000},
		// Amazon Bedrock's ids (region, provider, version) and Vertex AI's
		// "@" versions: were unknown (cl100k_base, exact) or a family's.
		{"anthropic.claude-3-5-sonnet-20240620-v1:0", "claude-3-5-sonnet-20240620", ResolvedID, "", "estimate:claude", 200000},
		{"us.anthropic.claude-3-7-sonnet-20250219-v1:0", "claude-3-7-sonnet-20250219", ResolvedID, "", "estimate:claude", 200000},
		{"eu.anthropic.claude-sonnet-4-5-20250929-v1:0", "claude-sonnet-4-5", ResolvedAlias, "", "estimate:claude", 200000},
		{"global.anthropic.claude-opus-4-1-20250805-v1:0", "claude-opus-4-1", ResolvedAlias, "", "estimate:claude", 200000},
		{"anthropic.claude-3-5-sonnet-20241022-v2:0", "claude-3-5-sonnet-20241022", ResolvedID, "", "estimate:claude", 200000},
		{"openai.gpt-oss-120b-1:0", "gpt-oss-120b", ResolvedID, "", "o200k_base", 131072},
		{"claude-3-5-sonnet@20240620", "claude-3-5-sonnet-20240620", ResolvedID, "", "estimate:claude", 200000},
		{"claude-sonnet-4-5@20250929", "claude-sonnet-4-5", ResolvedAlias, "", "estimate:claude", 200000},
		{"anthropic.claude-opus-9-v1:0", "anthropic.claude-opus-9-v1:0", ResolvedFamily, "claude-", "estimate:claude-2026", 8192},
		{"us.acme-9", "us.acme-9", ResolvedUnknown, "", "cl100k_base", 8192},
		// LiteLLM's and OpenRouter's routing prefixes before those.
		{"bedrock/us.anthropic.claude-3-7-sonnet-20250219-v1:0", "claude-3-7-sonnet-20250219", ResolvedID, "", "estimate:claude", 200000},
		{"vertex_ai/claude-3-5-sonnet@20240620", "claude-3-5-sonnet-20240620", ResolvedID, "", "estimate:claude", 200000},
		{"openrouter/openai/gpt-4o", "gpt-4o", ResolvedID, "", "o200k_base", 128000},
		{"openrouter/meta-llama/llama-3.1-70b-instruct", "llama-3.1-405b-instruct", ResolvedAlias, "", "estimate:llama3", 131072},
		// Were resolved to another model by "extends a known id with -…".
		{"gpt-5-chat", "gpt-5-chat-latest", ResolvedAlias, "", "o200k_base", 128000},
		{"gpt-5.1-chat", "gpt-5.1-chat-latest", ResolvedAlias, "", "o200k_base", 128000},
		{"gpt-5.2-chat", "gpt-5.2-chat-latest", ResolvedAlias, "", "o200k_base", 128000},
		{"gpt-4o-realtime-preview-2024-12-17", "gpt-4o-realtime-preview-2024-12-17", ResolvedID, "", "o200k_base", 16000},
		{"gpt-4o-realtime-preview-2025-01-31", "gpt-4o-realtime-preview", ResolvedSnapshot, "", "o200k_base", 32000},
		{"gpt-4o-transcribe", "gpt-4o-transcribe", ResolvedID, "", "o200k_base", 16000},
		{"gpt-5.6-cyber", "gpt-5.6-cyber", ResolvedID, "", "o200k_base", 400000},
		{"daybreak-red-latest", "gpt-5.6-cyber", ResolvedAlias, "", "o200k_base", 400000},
		{"daybreak-blue-latest", "gpt-5.6-sol", ResolvedAlias, "", "o200k_base", 1050000},
		{"davinci-codex", "davinci-codex", ResolvedID, "", "p50k_base", 8000},
		{"davinci-codex-zz", "davinci-codex-zz", ResolvedFamily, "davinci-codex", "p50k_base", 8192},
		{"gpt-5-chat-preview", "gpt-5-chat-preview", ResolvedFamily, "gpt-5", "o200k_base", 8192},
		// Were unknown (cl100k_base).
		{"chat-latest", "chat-latest", ResolvedID, "", "o200k_base", 400000},
		{"codex-mini-latest", "codex-mini-latest", ResolvedID, "", "o200k_base", 200000},
		{"computer-use-preview-2025-03-11", "computer-use-preview", ResolvedSnapshot, "", "o200k_base", 8192},
		{"gpt-audio-mini-2025-10-06", "gpt-audio-mini-2025-10-06", ResolvedID, "", "o200k_base", 128000},
		{"gpt-audio-mini-2026-01-01", "gpt-audio-mini", ResolvedSnapshot, "", "o200k_base", 128000},
		{"gpt-image-1", "gpt-image-1", ResolvedID, "", "o200k_base", 0},
		{"gpt-image-7", "gpt-image-7", ResolvedFamily, "gpt-image", "o200k_base", 8192},
		// Known to the catalog only, under a gateway's or a lab's prefix.
		{"xai/grok-4", "grok-4", ResolvedID, "", "estimate:unknown", 256000},
		{"x-ai/grok-4", "grok-4", ResolvedID, "", "estimate:unknown", 256000},
		{"qwen/qwen3-235b-a22b", "qwen3-235b-a22b", ResolvedAlias, "", "estimate:qwen", 131072},
		{"openai/gpt-6-nova", "openai/gpt-6-nova", ResolvedFamily, "gpt-6", "o200k_base", 8192},
		{"claude-opus-9", "claude-opus-9", ResolvedFamily, "claude-", "estimate:claude-2026", 8192},
		{"gpt-4o\x00", "gpt-4o\x00", ResolvedFamily, "gpt-4o", "o200k_base", 8192},
		// Nothing: the seed's fallback.
		{"acme-9", "acme-9", ResolvedUnknown, "", "cl100k_base", 8192},
		{"gpt", "gpt", ResolvedUnknown, "", "cl100k_base", 8192},
		{"", "", ResolvedUnknown, "", "cl100k_base", 8192},
	} {
		res, err := DefaultRegistry().Resolve(tc.name)
		if err != nil {
			t.Fatal(err)
		}
		fallback := tc.how == ResolvedFamily || tc.how == ResolvedUnknown
		if res.Model.ID != tc.id || res.How != tc.how || res.Family != tc.family || res.Fallback != fallback ||
			res.Tokenizer.Name() != tc.tokenizer || res.Model.ContextWindow != tc.window {
			t.Errorf("%q: %s %s %q fallback %v %s %d; want %s %s %q %v %s %d", tc.name,
				res.Model.ID, res.How, res.Family, res.Fallback, res.Tokenizer.Name(), res.Model.ContextWindow,
				tc.id, tc.how, tc.family, fallback, tc.tokenizer, tc.window)
		}
	}
}

// tiktokenModels is tiktoken's tiktoken/model.py (openai/tiktoken at
// 4e71bbe, 2026-08-16): MODEL_TO_ENCODING, and MODEL_PREFIX_TO_ENCODING
// with a name made from each prefix.
var tiktokenModels = map[string]string{
	"o1": "o200k_base", "o3": "o200k_base", "o4-mini": "o200k_base",
	"gpt-5": "o200k_base", "gpt-4.1": "o200k_base", "gpt-4o": "o200k_base",
	"gpt-4": "cl100k_base", "gpt-3.5-turbo": "cl100k_base", "gpt-3.5": "cl100k_base", "gpt-35-turbo": "cl100k_base",
	"davinci-002": "cl100k_base", "babbage-002": "cl100k_base",
	"text-embedding-ada-002": "cl100k_base", "text-embedding-3-small": "cl100k_base", "text-embedding-3-large": "cl100k_base",
	"text-davinci-003": "p50k_base", "text-davinci-002": "p50k_base", "text-davinci-001": "r50k_base",
	"text-curie-001": "r50k_base", "text-babbage-001": "r50k_base", "text-ada-001": "r50k_base",
	"davinci": "r50k_base", "curie": "r50k_base", "babbage": "r50k_base", "ada": "r50k_base",
	"code-davinci-002": "p50k_base", "code-davinci-001": "p50k_base", "code-cushman-002": "p50k_base",
	"code-cushman-001": "p50k_base", "davinci-codex": "p50k_base", "cushman-codex": "p50k_base",
	"text-davinci-edit-001": "p50k_edit", "code-davinci-edit-001": "p50k_edit",
	"text-similarity-davinci-001": "r50k_base", "text-similarity-curie-001": "r50k_base",
	"text-similarity-babbage-001": "r50k_base", "text-similarity-ada-001": "r50k_base",
	"text-search-davinci-doc-001": "r50k_base", "text-search-curie-doc-001": "r50k_base",
	"text-search-babbage-doc-001": "r50k_base", "text-search-ada-doc-001": "r50k_base",
	"code-search-babbage-code-001": "r50k_base", "code-search-ada-code-001": "r50k_base",
	"gpt2": "gpt2", "gpt-2": "gpt2",
	// MODEL_PREFIX_TO_ENCODING
	"o1-zz": "o200k_base", "o3-zz": "o200k_base", "o4-mini-zz": "o200k_base", "gpt-5zz": "o200k_base",
	"gpt-4.5-zz": "o200k_base", "gpt-4.1-zz": "o200k_base", "chatgpt-4o-zz": "o200k_base", "gpt-4o-zz": "o200k_base",
	"gpt-4-zz": "cl100k_base", "gpt-3.5-turbo-zz": "cl100k_base", "gpt-35-turbo-zz": "cl100k_base",
	"gpt-oss-zz": "o200k_harmony", "ft:gpt-4o:acme::zz": "o200k_base", "ft:gpt-4:acme::zz": "cl100k_base",
	"ft:gpt-3.5-turbo:acme::zz": "cl100k_base", "ft:davinci-002:acme::zz": "cl100k_base", "ft:babbage-002:acme::zz": "cl100k_base",
}

// TestResolve_Tiktoken: every name tiktoken maps counts with the encoding
// tiktoken names (its gpt2, p50k_edit and o200k_harmony are the same ranks
// as r50k_base, p50k_base and o200k_base).
func TestResolve_Tiktoken(t *testing.T) {
	for name, want := range tiktokenModels {
		res, err := DefaultRegistry().Resolve(name)
		if err != nil {
			t.Fatal(err)
		}
		enc, err := GetEncoding(want)
		if err != nil {
			t.Fatal(err)
		}
		if res.Tokenizer.Name() != enc.Name() {
			t.Errorf("%s counts with %s (%s), tiktoken with %s", name, res.Tokenizer.Name(), res.How, want)
		}
	}
}

func TestGetEncoding_TiktokenAliases(t *testing.T) {
	for alias, name := range map[string]string{"gpt2": "r50k_base", "p50k_edit": "p50k_base", "o200k_harmony": "o200k_base"} {
		a, err := GetEncoding(alias)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := GetEncoding(name)
		if a != b {
			t.Errorf("%s is not %s", alias, name)
		}
	}
}

// TestModelsGenerated holds models_data.go and registry/catalog.json to
// what core/gen_models.go makes of the pinned sources in core/registry/ (the
// drift test: an edited overrides.json, or a new snapshot of a catalog,
// fails it until `make generate`), and shows that one changed byte of the
// built-in table is refused rather than read.
func TestModelsGenerated(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the generator")
	}
	if _, err := exec.LookPath("go"); err != nil {
		t.Skip(err)
	}
	dir := t.TempDir()
	cmd := exec.Command("go", "run", "gen_models.go", "-o", dir)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("gen_models.go: %v\n%s", err, out)
	}
	for _, f := range []string{"models_data.go", "registry/catalog.json", "registry/drift.txt"} {
		fresh, err := os.ReadFile(filepath.Join(dir, filepath.Base(f)))
		if err != nil {
			t.Fatal(err)
		}
		committed, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(fresh, committed) {
			t.Errorf("core/%s is not what core/gen_models.go makes of core/registry/: run `make generate`", f)
		}
	}
	data := []byte(modelsTable)
	if err := checkModelsSum(data); err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, len(data) / 2, len(data) - 1} {
		damaged := bytes.Clone(data)
		damaged[i] ^= 0x04
		if checkModelsSum(damaged) == nil {
			t.Errorf("a flipped bit at byte %d of the built-in table passed the check", i)
		}
	}
}

// TestRegistry_GPTTokenizerIDs: every OpenAI model id gpt-tokenizer carries
// (core/registry/openai.json: its 100 models' ids, aliases and snapshots)
// resolves to a row of its own, none to a fallback; an alias to the model
// it names (daybreak-blue-latest is gpt-5.6-sol).
func TestRegistry_GPTTokenizerIDs(t *testing.T) {
	b, err := os.ReadFile("registry/openai.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Models []struct {
			Names []string `json:"names"`
			Name  string   `json:"name"`
		} `json:"models"`
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	n := 0
	for _, m := range f.Models {
		var first string
		for _, name := range m.Names {
			res, err := DefaultRegistry().Resolve(name)
			if err != nil {
				t.Fatal(err)
			}
			n++
			if res.Fallback {
				t.Errorf("%s resolves by %s (fallback)", name, res.How)
			}
			if first == "" {
				first = res.Model.ID
			} else if res.Model.ID != first {
				t.Errorf("%s resolves to %s, %s to %s: one model in gpt-tokenizer", name, res.Model.ID, m.Names[0], first)
			}
		}
	}
	if n < 200 {
		t.Errorf("only %d ids", n)
	}
}

// TestRegistry_CatalogIDs: every model of the catalog answers to its id as
// models.dev spells it (openrouter/x-ai/grok-4, amazon-bedrock/…), and to
// OpenRouter's and Vercel's own spellings (x-ai/grok-4), with a row of its
// own or the built-in row of the same model; never a fallback.
func TestRegistry_CatalogIDs(t *testing.T) {
	cat, err := readRegistry(CatalogJSON())
	if err != nil {
		t.Fatal(err)
	}
	reg := DefaultRegistry()
	for _, m := range cat.Models {
		for _, name := range append([]string{m.ID}, m.Aliases...) {
			res, err := reg.Resolve(name)
			if err != nil {
				t.Fatal(err)
			}
			if res.Fallback {
				t.Errorf("%s (%s) resolves by %s", name, m.ID, res.How)
			}
		}
	}
	// Every id of the models.dev snapshot, as models.dev spells it.
	b, err := os.ReadFile("registry/models.dev.json")
	if err != nil {
		t.Fatal(err)
	}
	var md struct {
		Models [][]any `json:"models"`
	}
	if err := json.Unmarshal(b, &md); err != nil {
		t.Fatal(err)
	}
	fallbacks := 0
	for _, m := range md.Models {
		if res, _ := reg.Resolve(m[0].(string) + "/" + m[1].(string)); res.Fallback {
			fallbacks++
			if fallbacks < 10 {
				t.Logf("%s/%s resolves by %s", m[0], m[1], res.How)
			}
		}
	}
	if fallbacks > 0 {
		t.Errorf("%d of models.dev's %d ids resolve to a fallback", fallbacks, len(md.Models))
	}
	for name, id := range map[string]string{
		"openrouter/x-ai/grok-4.3": "grok-4.3", "x-ai/grok-4.3": "grok-4.3",
		"xai/grok-4.3": "grok-4.3", "grok-4.3": "grok-4.3",
		"anthropic/claude-sonnet-4.5":  "openrouter/anthropic/claude-sonnet-4.5",
		"google-vertex/gemini-2.5-pro": "gemini-2.5-pro", "openai/gpt-4o": "gpt-4o",
		"amazon-bedrock/amazon.nova-pro-v1:0": "amazon-bedrock/amazon.nova-pro-v1:0",
	} {
		if m, ok := reg.Lookup(name); !ok || m.ID != id {
			t.Errorf("%s: %s (found %v), want %s", name, m.ID, ok, id)
		}
	}
}
