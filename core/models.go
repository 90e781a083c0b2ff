package core

import (
	"errors"
	"hash/crc32"
	"maps"
	"slices"
	"strings"
	"sync"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/format"
	"github.com/tokenfit/tokenfit/core/internal/stop"
	"github.com/tokenfit/tokenfit/core/internal/tables"
	"github.com/tokenfit/tokenfit/internal/scripts"
)

// Model holds what tokenfit knows of a model: its window, its output limit
// and how to count its tokens, exactly (Encoding) or by estimate (Estimator).
type Model struct {
	ID       string   `json:"id"`
	Provider string   `json:"provider,omitempty"`
	Aliases  []string `json:"aliases,omitempty"`
	// ContextWindow is the number of tokens input and output share.
	ContextWindow int `json:"contextWindow"`
	// MaxOutput is the most tokens one response may hold (0: not documented).
	MaxOutput int `json:"maxOutput,omitempty"`
	// MaxInput is a documented input limit below the window (0: none).
	MaxInput int `json:"maxInput,omitempty"`
	// Reasoning models spend hidden reasoning tokens out of the output.
	Reasoning bool   `json:"reasoning,omitempty"`
	Encoding  string `json:"encoding,omitempty"`
	Estimator string `json:"estimator,omitempty"`
	// Tokenizer names the model's own Hugging Face tokenizer, as
	// "hf:<repository>" (hf:Qwen/Qwen3-8B), or for Gemini models the one
	// Google counts them with, GeminiTokenizer or Gemma4Tokenizer
	// (gemini_models.go). Once a tokenizer is loaded under that name
	// (loadTokenizer), the model counts with it, exactly; until then with
	// Encoding or Estimator, and answers say ExactWith.
	Tokenizer string `json:"tokenizer,omitempty"`
	// ChatTemplate names the built-in chat template (ChatTemplates) the
	// model's server renders chat requests with: chat counts are then the
	// template's prompt, exact once Tokenizer is loaded.
	ChatTemplate string `json:"chatTemplate,omitempty"`
	// Kind says what a model that takes no chat is for: "embedding",
	// "moderation", "image", "video", "speech", "transcription" or "other"
	// (empty: a chat model). A budget for one without a window says so.
	//genjson:ts 'embedding' | 'moderation' | 'image' | 'video' | 'speech' | 'transcription' | 'other'
	Kind string `json:"kind,omitempty"`
	// Family is the catalog's family of the model (models.dev's: "claude-sonnet", "qwen").
	Family string `json:"modelFamily,omitempty"`
	// Price is what the model costs (nil: no price known).
	Price *Price `json:"price,omitempty"`
	// Source names where the row's limits come from ("tokenfit": the
	// overrides file, checked against the provider's page; "gpt-tokenizer";
	// "models.dev"), and Date that source's date for it.
	Source string `json:"source,omitempty"`
	Date   string `json:"date,omitempty"`
}

// ChatRules returns the rules to count the model's chat requests with: its
// chat template's, Anthropic's for a Claude model, else ChatRulesFor its id.
func (m Model) ChatRules() ChatRules {
	switch {
	case m.ChatTemplate != "":
		return ChatRules{Family: m.ChatTemplate, Template: m.ChatTemplate}
	case m.Provider == "anthropic":
		ar, _ := chat.AnthropicRulesFor(m.ID)
		return ChatRules{Family: "anthropic", Anthropic: &ar}
	}
	return chat.ChatRulesFor(m.ID)
}

// Estimator describes how to estimate a tokenizer that is not public: count
// with Base, scale by Ratio, and trust the result to within ErrorBound (a
// fraction: 0.2 means the provider's count may be up to 20% higher).
type Estimator struct {
	Base       string  `json:"base"`
	Ratio      float64 `json:"ratio"`
	ErrorBound float64 `json:"errorBound"`
	// Scripts weighs the base's count by script class (internal/scripts; a
	// class not listed weighs 1) before Ratio scales it: the ratio between
	// two tokenizers depends on the script (see internal/scripts).
	Scripts map[string]float64 `json:"scripts,omitempty"`
	Note    string             `json:"note,omitempty"`
}

// Registry is a set of models and estimators. It is immutable: With returns
// a new registry, so one can be shared by goroutines without locks.
type Registry struct {
	models     []Model
	index      map[string]int // lower-case id or alias → models index
	estimators map[string]Estimator
	tokenizers map[string]Tokenizer // loaded by name (WithTokenizer); never written after it is shared
	stop       stop.Chan            // the call's (API.DoUntil), in the copy a call answers with
	// catalog holds the rows of the catalog table, under the registry's
	// own: nil until one is loaded (WithCatalog; natively, the embedded
	// one, read at its first use).
	catalog *catalog
	sources RawJSON // the sources the built-in rows come from (CatalogInfo.Sources)
}

// Fallbacks for a model the registry does not know (seed: budget calculator).
const (
	FallbackEncoding      = "cl100k_base"
	FallbackContextWindow = 8192
)

// ReasoningReserve is the output OpenAI advises reserving for reasoning
// models ("at least 25,000 tokens for reasoning and outputs").
const ReasoningReserve = 25000

//go:generate go run gen_models.go

var defaultRegistry = sync.OnceValue(func() *Registry {
	data := []byte(modelsTable)
	if err := checkModelsSum(data); err != nil {
		panic(err.Error())
	}
	f, err := readRegistry(data)
	if err != nil {
		panic("core: the built-in model table: " + err.Error())
	}
	r, err := (&Registry{}).with(f)
	if err != nil {
		panic("core: the built-in model table: " + err.Error())
	}
	r.sources = f.Catalog
	if t := tables.Catalog(); t != nil {
		r.catalog = &catalog{text: t}
	}
	return r
})

// checkModelsSum refuses an embedded registry whose bytes are not the ones
// this build was made from (models_data.go): a damaged module or binary
// would otherwise answer with a wrong window and no error. Cost: O(len).
func checkModelsSum(data []byte) error {
	if crc32.ChecksumIEEE(data) != modelsSum {
		return errors.New("core: the built-in model table does not match its checksum: this module or binary is damaged")
	}
	return nil
}

// DefaultRegistry returns the registry built into tokenfit: the built-in
// rows (core/registry/overrides.json merged over gpt-tokenizer's OpenAI
// models), and in native builds the catalog table (registry/catalog.tsv),
// read the first time a name is not a built-in row's.
func DefaultRegistry() *Registry { return defaultRegistry() }

// registryFile is the JSON shape of registerModels requests (and of
// core/registry/overrides.json's models and estimators).
type registryFile struct {
	Estimators map[string]Estimator `json:"estimators"`
	Models     []Model              `json:"models"`
	// Catalog is the generated registry's own (core/gen_models.go): the
	// sources its rows come from. registerModels ignores it.
	Catalog RawJSON `json:"catalog,omitempty"`
}

// readRegistry reads a generated registry (the built-in one, or a catalog)
// and gives a row that names neither an encoding nor an estimator its
// name's family's, else the "unknown" estimator. Cost: O(len(data)).
func readRegistry(data []byte) (registryFile, error) {
	var f registryFile
	if err := decodeJSON(data, &f); err != nil {
		return f, err
	}
	for i := range f.Models {
		if m := &f.Models[i]; m.Encoding == "" && m.Estimator == "" {
			if fam, ok := familyOf(normalizeName(m.ID)); ok {
				m.Encoding, m.Estimator = fam.encoding, fam.estimator
			} else {
				m.Estimator = "unknown"
			}
		}
	}
	return f, nil
}

// With returns a registry with the models and estimators of data (the shape
// of registerModels) added; a model whose id is already known replaces the
// old one, aliases included. Cost: O(models).
func (r *Registry) With(data []byte) (*Registry, error) {
	var f registryFile
	if err := decodeJSON(data, &f); err != nil {
		return nil, err
	}
	return r.with(f)
}

func (r *Registry) with(f registryFile) (*Registry, error) {
	n := &Registry{estimators: map[string]Estimator{}, tokenizers: r.tokenizers, catalog: r.catalog, sources: r.sources}
	for k, v := range r.estimators {
		n.estimators[k] = v
	}
	for _, name := range slices.Sorted(maps.Keys(f.Estimators)) { // the same error every time
		e := f.Estimators[name]
		field := "estimators." + name
		switch {
		case name == "":
			return nil, fieldErr("estimators", "empty estimator name")
		case !slices.Contains(EncodingNames(), e.Base):
			return nil, fieldErr(field+".base", "unknown encoding %q", engine.Clip(e.Base))
		case !(e.Ratio > 0 && e.Ratio < 100):
			return nil, fieldErr(field+".ratio", "must be a number in (0, 100)")
		case !(e.ErrorBound >= 0 && e.ErrorBound < 10):
			return nil, fieldErr(field+".errorBound", "must be a number in [0, 10)")
		}
		for _, class := range slices.Sorted(maps.Keys(e.Scripts)) {
			switch w := e.Scripts[class]; {
			case !slices.Contains(scripts.Classes, class):
				return nil, fieldErr(field+".scripts."+class, "unknown script class (want one of %s)", strings.Join(scripts.Classes, ", "))
			case !(w > 0 && w < 100):
				return nil, fieldErr(field+".scripts."+class, "must be a number in (0, 100)")
			}
		}
		n.estimators[name] = e
	}
	replaced := map[string]bool{}
	for i, m := range f.Models {
		m = withGeminiTokenizer(m)
		f.Models[i] = m
		if err := n.check(m, format.Sprintf("models[%d]", i)); err != nil {
			return nil, err
		}
		replaced[strings.ToLower(m.ID)] = true
	}
	for _, m := range r.models {
		if !replaced[strings.ToLower(m.ID)] {
			n.models = append(n.models, m)
		}
	}
	n.models = append(n.models, f.Models...)
	n.index = make(map[string]int, 2*len(n.models))
	for i, m := range n.models {
		for _, name := range append([]string{m.ID}, m.Aliases...) {
			n.index[strings.ToLower(name)] = i
		}
	}
	return n, nil
}

func (r *Registry) check(m Model, field string) error {
	switch {
	case m.ID == "":
		return fieldErr(field+".id", "required")
	case m.ContextWindow < 0 || m.ContextWindow > 1<<34 || m.ContextWindow == 0 && m.Kind == "":
		return fieldErr(field+".contextWindow", "must be a positive number of tokens (0 only for a model of a kind that takes no chat)")
	case m.MaxOutput < 0 || m.MaxOutput > m.ContextWindow && m.ContextWindow > 0 || m.MaxOutput > 1<<34:
		return fieldErr(field+".maxOutput", "must be between 0 and the context window")
	case m.MaxInput < 0 || m.MaxInput > m.ContextWindow && m.ContextWindow > 0 || m.MaxInput > 1<<34:
		return fieldErr(field+".maxInput", "must be between 0 and the context window")
	case (m.Encoding == "") == (m.Estimator == ""):
		return fieldErr(field, "needs exactly one of encoding and estimator")
	case m.Encoding != "" && !slices.Contains(EncodingNames(), m.Encoding):
		return fieldErr(field+".encoding", "unknown encoding %q", engine.Clip(m.Encoding))
	case m.Tokenizer != "" && !isProviderTokenizer(m.Tokenizer) && (!strings.HasPrefix(m.Tokenizer, "hf:") || len(m.Tokenizer) > 256):
		return fieldErr(field+".tokenizer", `must be "hf:" and the tokenizer's repository, such as hf:Qwen/Qwen3-8B, or %q or %q`, GeminiTokenizer, Gemma4Tokenizer)
	case m.ChatTemplate != "" && !slices.Contains(chat.ChatTemplates(), m.ChatTemplate):
		return fieldErr(field+".chatTemplate", "unknown chat template %q (want one of %s)", engine.Clip(m.ChatTemplate), strings.Join(chat.ChatTemplates(), ", "))
	}
	if err := m.Price.check(field + ".price"); err != nil {
		return err
	}
	if m.Estimator != "" {
		if _, ok := r.estimator(m.Estimator); !ok {
			return fieldErr(field+".estimator", "unknown estimator %q", engine.Clip(m.Estimator))
		}
	}
	return nil
}

// Models returns every model: the registry's own rows in their order, then
// the catalog's that no own row shadows. Natively this reads the embedded
// catalog on first use. Cost: O(models).
func (r *Registry) Models() []Model {
	out := slices.Clone(r.models)
	if c := r.catalog.rows(); c != nil {
		for _, m := range c.models {
			if _, own := r.index[strings.ToLower(m.ID)]; !own {
				out = append(out, m)
			}
		}
	}
	return out
}

// Lookup finds a model by exactly what names it: its id or an alias, a dated
// snapshot of one, or either behind a provider prefix or as the base of a
// fine-tune (steps 1 to 3 of Resolve). Case and surrounding space are
// ignored. Cost: O(len(name)).
func (r *Registry) Lookup(name string) (Model, bool) {
	m, _, ok := r.lookup(normalizeName(name))
	return m, ok
}

func normalizeName(name string) string { return strings.ToLower(strings.TrimSpace(name)) }

// lookup is Lookup on a normalized name, saying how it matched: among
// the registry's own rows, then the catalog's (so openrouter/openai/gpt-4o
// is gpt-4o, and a name only a catalog row has is that row).
func (r *Registry) lookup(key string) (Model, string, bool) {
	if m, how, ok := lookupIn(r.models, r.index, key); ok {
		return m, how, true
	}
	if c := r.catalog.rows(); c != nil {
		return lookupIn(c.models, c.index, key)
	}
	return Model{}, "", false
}

func lookupIn(models []Model, index map[string]int, key string) (Model, string, bool) {
	for {
		if m, how, ok := exactIn(models, index, key); ok {
			return m, how, true
		}
		rest, ok := stripPrefix(key)
		if !ok {
			return Model{}, "", false
		}
		key = rest
	}
}

func exactIn(models []Model, index map[string]int, key string) (Model, string, bool) {
	if i, ok := index[key]; ok {
		if key == strings.ToLower(models[i].ID) {
			return models[i], ResolvedID, true
		}
		return models[i], ResolvedAlias, true
	}
	if base, ok := snapshotBase(key); ok {
		if i, ok := index[base]; ok {
			return models[i], ResolvedSnapshot, true
		}
	}
	return Model{}, "", false
}

// providerPrefixes are the routing prefixes gateways and SDKs put before a
// model's own id ("openai/gpt-4o", "models/gemini-2.5-pro"); they name no
// other model.
var providerPrefixes = []string{"openai/", "azure/", "models/", "anthropic/", "google/", "gemini/",
	"vertex_ai/", "mistral/", "mistralai/", "deepseek/", "deepseek-ai/", "cohere/", "meta/", "meta-llama/",
	"openrouter/", "bedrock/", "xai/", "x-ai/", "qwen/", "alibaba/", "moonshotai/", "z-ai/", "zai/",
	"google-vertex/", "amazon-bedrock/", "vercel/", "groq/", "together/", "togetherai/", "fireworks/", "minimax/",
	"llama/", "inception/", "perplexity/", "xiaomi/"}

// bedrockRegions are the cross-region inference prefixes of Amazon Bedrock's
// model ids (us.anthropic.claude-3-7-sonnet-20250219-v1:0), and
// bedrockProviders the provider prefixes of its ids
// (anthropic.claude-3-5-sonnet-20240620-v1:0, openai.gpt-oss-120b-1:0).
var (
	bedrockRegions   = []string{"us.", "eu.", "apac.", "jp.", "au.", "ca.", "us-gov.", "global."}
	bedrockProviders = []string{"anthropic.", "meta.", "mistral.", "cohere.", "deepseek.", "openai."}
)

// stripPrefix drops one provider prefix, or the "ft:" and the suffix of a
// fine-tune name (ft:gpt-4o-mini-2024-07-18:org::id): a fine-tune has its
// base model's window and tokenizer. A Bedrock id loses its region, its
// provider and its version (-v1:0, -1:0); a Vertex AI version
// (claude-3-5-sonnet@20240620) becomes a snapshot suffix.
func stripPrefix(key string) (string, bool) {
	if rest, ok := strings.CutPrefix(key, "ft:"); ok {
		base, _, _ := strings.Cut(rest, ":")
		return base, base != ""
	}
	for _, p := range providerPrefixes {
		if rest, ok := strings.CutPrefix(key, p); ok && rest != "" {
			return rest, true
		}
	}
	for _, r := range bedrockRegions {
		if rest, ok := strings.CutPrefix(key, r); ok && hasBedrockProvider(rest) {
			return rest, true
		}
	}
	for _, p := range bedrockProviders {
		if rest, ok := strings.CutPrefix(key, p); ok {
			rest = bedrockVersion(rest)
			return rest, rest != ""
		}
	}
	if i := strings.LastIndexByte(key, '@'); i > 0 && i < len(key)-1 {
		return key[:i] + "-" + key[i+1:], true
	}
	return "", false
}

func hasBedrockProvider(key string) bool {
	for _, p := range bedrockProviders {
		if strings.HasPrefix(key, p) {
			return true
		}
	}
	return false
}

// bedrockVersion cuts the version Bedrock puts after a model's name: "-vN"
// with or without ":N" (claude-3-5-sonnet-20241022-v2:0, claude-instant-v1),
// or "-N:N" (gpt-oss-20b-1:0).
func bedrockVersion(key string) string {
	minor := false
	if i := strings.LastIndexByte(key, ':'); i >= 0 && allDigits(key[i+1:]) {
		key, minor = key[:i], true
	}
	if i := strings.LastIndexByte(key, '-'); i >= 0 {
		v, isV := strings.CutPrefix(key[i+1:], "v")
		if (isV || minor) && len(v) <= 2 && allDigits(v) {
			key = key[:i]
		}
	}
	return key
}

func allDigits(s string) bool {
	for i := range len(s) {
		if s[i] < '0' || s[i] > '9' {
			return false
		}
	}
	return s != ""
}

// snapshotBase cuts a dated snapshot suffix: -YYYY-MM-DD (OpenAI),
// -YYYYMMDD (Anthropic), -MMDD (OpenAI's 2023 models: -0613), -MM-YYYY
// (Google's previews, Cohere) or -NNN (Google's stable versions: -001).
// Nothing else counts as a snapshot: gpt-5-chat is not a snapshot of gpt-5.
func snapshotBase(key string) (string, bool) {
	for _, shape := range []string{"-dddd-dd-dd", "-dddddddd", "-dd-dddd", "-dddd", "-ddd"} {
		if len(key) > len(shape) && digitsLike(key[len(key)-len(shape):], shape) {
			return key[:len(key)-len(shape)], true
		}
	}
	return "", false
}

// digitsLike reports whether s has shape's form, each d a digit.
func digitsLike(s, shape string) bool {
	for i := range len(shape) {
		if c := s[i]; shape[i] == 'd' && !('0' <= c && c <= '9') || shape[i] != 'd' && c != shape[i] {
			return false
		}
	}
	return true
}

func (r *Registry) estimator(name string) (Estimator, bool) {
	if e, ok := r.estimators[name]; ok {
		return e, true
	}
	return Estimator{}, false
}

// How a model name resolved (Resolution.How, and resolvedBy in answers).
const (
	ResolvedID       = "id"       // the model's id
	ResolvedAlias    = "alias"    // one of its aliases (an Azure deployment name, a pinned snapshot)
	ResolvedSnapshot = "snapshot" // a dated snapshot suffix of an id or alias
	ResolvedFamily   = "family"   // only the encoding, from the name's family; Fallback
	ResolvedUnknown  = "unknown"  // nothing: cl100k_base; Fallback
)

// Resolution is a model resolved for counting.
type Resolution struct {
	Model     Model
	Tokenizer Tokenizer
	// Fallback is true when the name matched no model (How is "family" or
	// "unknown"): the window is then FallbackContextWindow, never another
	// model's.
	Fallback bool
	How      string
	// Family is the name prefix whose tokenizer a "family" answer used.
	Family string
}

// Resolved is what an answer says of a fallback: nothing when the model
// resolved by id, alias or snapshot.
type Resolved struct {
	// Fallback: the registry did not know the model; the answer counted
	// with its family's tokenizer or cl100k_base, in an 8,192-token window.
	Fallback bool `json:"fallback,omitempty"`
	// ResolvedBy is "family" or "unknown" when Fallback is set.
	//genjson:ts 'family' | 'unknown'
	ResolvedBy string `json:"resolvedBy,omitempty"`
	// Family is the name prefix a "family" answer took its tokenizer from.
	Family string `json:"family,omitempty"`
	// ExactWith names the tokenizer (Model.Tokenizer) that would make an
	// inexact answer exact: load it under this name (loadTokenizer).
	ExactWith string `json:"exactWith,omitempty"`
}

// resolved is what an answer says of res.
func (res Resolution) resolved() Resolved {
	var r Resolved
	if res.Fallback {
		r = Resolved{Fallback: true, ResolvedBy: res.How, Family: res.Family}
	}
	if res.Model.Tokenizer != "" && res.Tokenizer != nil && !res.Tokenizer.Exact() {
		r.ExactWith = res.Model.Tokenizer
	}
	return r
}

// Resolve returns the model and the tokenizer to count it with, trying in
// this order (case and surrounding space ignored):
//
//  1. an id or alias (aliases hold Azure deployment names such as
//     gpt-35-turbo, and snapshots whose limits differ from their model's);
//  2. a dated snapshot suffix of one: -YYYY-MM-DD, -YYYYMMDD, -MMDD,
//     -MM-YYYY or -NNN (gpt-4o-2024-08-06 is gpt-4o);
//  3. 1 and 2 again without a provider prefix (openai/, azure/, models/,
//     anthropic/, google/, …), as the base of a fine-tune (ft:BASE:…), as
//     an Amazon Bedrock id without its region, provider and version
//     (us.anthropic.claude-3-7-sonnet-20250219-v1:0) or with a Vertex AI
//     version as a snapshot suffix (claude-sonnet-4-5@20250929);
//  4. a family prefix (gpt-5*, gpt-4o*, o3-*, claude-*, …): its tokenizer
//     only, with Fallback set and a window of FallbackContextWindow - a
//     name such as gpt-5-chat is never given gpt-5's window;
//  5. nothing: cl100k_base and FallbackContextWindow, with Fallback set.
//
// Neither 4 nor 5 is an error. Cost: O(len(name)).
func (r *Registry) Resolve(name string) (Resolution, error) {
	key := normalizeName(name)
	m, how, ok := r.lookup(key)
	family := ""
	if !ok {
		m = Model{ID: name, ContextWindow: FallbackContextWindow, Encoding: FallbackEncoding}
		how = ResolvedUnknown
		if f, ok := familyOf(key); ok {
			m.Provider, m.Encoding, m.Estimator = f.provider, f.encoding, f.estimator
			how, family = ResolvedFamily, f.prefix
			m.Tokenizer = geminiGeneration(key)
		}
	}
	tok, err := r.tokenizer(m)
	if err != nil {
		return Resolution{}, err
	}
	return Resolution{Model: m, Tokenizer: tok, Fallback: !ok, How: how, Family: family}, nil
}

func (r *Registry) tokenizer(m Model) (Tokenizer, error) {
	if t := r.tokenizers[m.Tokenizer]; t != nil {
		return t, nil
	}
	if m.Encoding != "" {
		return GetEncoding(m.Encoding)
	}
	e, ok := r.estimator(m.Estimator)
	if !ok {
		return nil, format.Errorf("%w: model %s: unknown estimator %q", ErrInvalidRequest, engine.Clip(m.ID), engine.Clip(m.Estimator))
	}
	base, err := GetEncoding(e.Base)
	if err != nil {
		return nil, err
	}
	return &scaled{name: "estimate:" + m.Estimator, base: base, factor: e.Ratio, bound: e.ErrorBound, weights: e.Scripts}, nil
}

// ResponseReserve is the output a budget keeps free for this model when the
// caller names none: 15% of the window clamped to [500, 4,096] (seed: budget
// calculator), and for reasoning models at least ReasoningReserve (never
// more than MaxOutput).
func (m Model) ResponseReserve() int {
	return ReservePolicy{}.withDefaults().reserve(m)
}

// EffectiveInputBudget is what input may use: the window less the response
// reserve and the safety buffer (5%), and never more than MaxInput.
func (m Model) EffectiveInputBudget() int {
	p := ReservePolicy{}.withDefaults()
	b := m.ContextWindow - p.reserve(m) - p.safety(m.ContextWindow)
	if m.MaxInput > 0 {
		b = min(b, m.MaxInput)
	}
	return max(0, b)
}

// ReservePolicy sizes the response reserve and safety buffer of a budget as
// fractions of the window. Zero fields take the seed defaults: Ratio 0.15,
// Min 500, Max 4,096, SafetyRatio 0.05.
type ReservePolicy struct {
	Ratio       float64 `json:"ratio,omitempty"`
	Min         int     `json:"min,omitempty"`
	Max         int     `json:"max,omitempty"`
	SafetyRatio float64 `json:"safetyRatio,omitempty"`
}

func (p ReservePolicy) withDefaults() ReservePolicy {
	if p.Ratio == 0 {
		p.Ratio = 0.15
	}
	if p.Min == 0 {
		p.Min = 500
	}
	if p.Max == 0 {
		p.Max = 4096
	}
	if p.SafetyRatio == 0 {
		p.SafetyRatio = 0.05
	}
	return p
}

// reserve is int(window × ratio) clamped to [Min, Max]; for reasoning models
// at least ReasoningReserve, capped by the model's output limit.
func (p ReservePolicy) reserve(m Model) int {
	r := max(p.Min, min(p.Max, int(float64(m.ContextWindow)*p.Ratio)))
	if m.Reasoning {
		rr := ReasoningReserve
		if m.MaxOutput > 0 {
			rr = min(rr, m.MaxOutput)
		}
		r = max(r, rr)
	}
	return min(r, m.ContextWindow)
}

func (p ReservePolicy) safety(window int) int {
	return int(float64(window) * p.SafetyRatio)
}
