package hf

import (
	"strconv"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/pretok"
)

// Limits a tokenizer must keep to, whether it comes as a tokenizer.json or
// as the compact table (table.go) that tokenfit convert writes: the engine's
// ids are 32-bit, a hostile file must not make the loader allocate without
// bound, and whatever loads from one form converts to the other and loads
// again. setToken and setAdded check the sizes for both.
const (
	maxVocab     = 1 << 21
	maxMerges    = 1 << 22
	maxAdded     = 1 << 16
	maxKey       = 1<<16 - 1 // bytes of a vocabulary key (a token's bytes, or its text SentencePiece-style)
	maxAddedText = 1 << 20   // bytes of an added token's content
)

// splitter returns the matcher of the pre-tokenizer regexes of the supported families, as
// their tokenizer.json files write them, with the hand-written matchers
// that reproduce them (core/internal/pretok; each matcher's doc comment
// carries its regex).
//
// A switch, not a map: the WebAssembly modules link this package without
// loading tokenizer.json files, and a map would be built at their start.
func splitter(regex string) (pretok.Next, bool) {
	switch regex {
	// Llama 3.x (cl100k_base's pattern)
	case `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`:
		return pretok.Cl100k, true
	// Qwen 2, 2.5, 3 (cl100k_base's with single digits)
	case `(?i:'s|'t|'re|'ve|'m|'ll|'d)|[^\r\n\p{L}\p{N}]?\p{L}+|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n]*|\s*[\r\n]+|\s+(?!\S)|\s+`:
		return pretok.Qwen2, true
	// DeepSeek V3, R1: three Splits
	case "\\p{N}{1,3}\x00[一-龥぀-ゟ゠-ヿ]+\x00" + `[!"#$%&'()*+,\-./:;<=>?@\[\\\]^_` + "`" + `{|}~][A-Za-z]+|[^` + "\r\n" + `\p{L}\p{P}\p{S}]?[\p{L}\p{M}]+| ?[\p{P}\p{S}]+[` + "\r\n" + `]*|\s*[` + "\r\n" + `]+|\s+(?!\S)|\s+`:
		return pretok.DeepSeek, true
	// gpt-oss (o200k_base's pattern)
	case `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+(?i:'s|'t|'re|'ve|'m|'ll|'d)?|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*(?i:'s|'t|'re|'ve|'m|'ll|'d)?|\p{N}{1,3}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`:
		return pretok.O200k, true
	// Mistral's Tekken models (o200k_base's without contractions, single digits)
	case `[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]*[\p{Ll}\p{Lm}\p{Lo}\p{M}]+|[^\r\n\p{L}\p{N}]?[\p{Lu}\p{Lt}\p{Lm}\p{Lo}\p{M}]+[\p{Ll}\p{Lm}\p{Lo}\p{M}]*|\p{N}| ?[^\s\p{L}\p{N}]+[\r\n/]*|\s*[\r\n]+|\s+(?!\S)|\s+`:
		return pretok.Tekken, true
	case gpt2Regex:
		return pretok.GPT2, true
	}
	return nil, false
}

// Load reads a tokenizer.json. name is what the tokenizer will be called.
// Errors match ErrFormat or ErrUnsupported and say which field is at fault.
// Cost: O(len(data)).
func Load(name string, data []byte) (*Model, error) {
	v, err := parseJSON(data)
	if err != nil {
		return nil, err
	}
	root, ok := v.(*object)
	if !ok {
		return nil, bad("the file is not a JSON object")
	}
	m := &Model{Name: name, cache: newPieceCache()}
	model, ok := root.get("model").(*object)
	if !ok {
		return nil, bad("model is not an object")
	}
	m.spiece, _ = model.get("byte_fallback").(bool)
	if err := m.normalizer(root.get("normalizer")); err != nil {
		return nil, err
	}
	if m.spiece {
		if err := m.spiecePreTokenizer(root.get("pre_tokenizer")); err != nil {
			return nil, err
		}
		m.sections = newSectionCache()
	} else {
		if m.replaceSpace || m.prependSpace {
			return nil, unsupported("a byte-level tokenizer whose normalizer writes ▁")
		}
		if err := m.preTokenizer(root.get("pre_tokenizer")); err != nil {
			return nil, err
		}
	}
	if err := m.bpe(model); err != nil {
		return nil, err
	}
	if err := m.addedTokens(root.get("added_tokens")); err != nil {
		return nil, err
	}
	m.buildAdded()
	return m, nil
}

func (m *Model) normalizer(v any) error {
	if v == nil {
		return nil
	}
	o, ok := v.(*object)
	if !ok {
		return bad("normalizer is not an object")
	}
	m.normalizes = true
	switch t, _ := o.get("type").(string); t {
	case "Sequence":
		list, ok := o.get("normalizers").([]any)
		if !ok {
			return bad("normalizer.normalizers is not an array")
		}
		for _, n := range list {
			if err := m.normalizer(n); err != nil {
				return err
			}
		}
		return nil
	case "NFC":
		m.nfc = true
		return nil
	case "Prepend":
		// Llama 2's and Mistral 7B v0.1's: ▁ before the text of each
		// section (between added tokens), whatever it starts with.
		if o.get("prepend") != "▁" {
			return unsupported("a Prepend normalizer of other than \"▁\"")
		}
		m.prependSpace = true
		return nil
	case "Replace":
		pat, _ := o.get("pattern").(*object)
		if pat.get("String") != " " || o.get("content") != "▁" {
			return unsupported("a Replace normalizer other than \" \" → \"▁\"")
		}
		m.replaceSpace = true
		return nil
	default:
		return unsupported("normalizer " + strconv.Quote(t))
	}
}

func (m *Model) preTokenizer(v any) error {
	o, ok := v.(*object)
	if !ok {
		return unsupported("a pre_tokenizer other than ByteLevel (or a Split and ByteLevel sequence)")
	}
	var list []any
	switch t, _ := o.get("type").(string); t {
	case "Sequence":
		if list, ok = o.get("pretokenizers").([]any); !ok {
			return bad("pre_tokenizer.pretokenizers is not an array")
		}
	case "ByteLevel":
		list = []any{o}
	default:
		return unsupported("pre_tokenizer " + strconv.Quote(t))
	}
	var split []string
	byteLevel := false
	for _, p := range list {
		po, ok := p.(*object)
		if !ok {
			return bad("a pre-tokenizer is not an object")
		}
		t, _ := po.get("type").(string)
		if byteLevel {
			return unsupported("pre-tokenizer " + strconv.Quote(t) + " after ByteLevel")
		}
		switch t {
		case "Split":
			pat, _ := po.get("pattern").(*object)
			re, ok := pat.get("Regex").(string)
			if !ok {
				return unsupported("a Split pre-tokenizer without a regex pattern")
			}
			if b, _ := po.get("behavior").(string); b != "Isolated" {
				return unsupported("Split behavior " + strconv.Quote(b))
			}
			if inv, _ := po.get("invert").(bool); inv {
				return unsupported("an inverted Split")
			}
			split = append(split, re)
		case "ByteLevel":
			if aps, _ := po.get("add_prefix_space").(bool); aps {
				return unsupported("ByteLevel with add_prefix_space")
			}
			if ur, _ := po.get("use_regex").(bool); ur || po.get("use_regex") == nil {
				split = append(split, gpt2Regex)
			}
			byteLevel = true
		default:
			return unsupported("pre-tokenizer " + strconv.Quote(t))
		}
	}
	if !byteLevel {
		return unsupported("a pre_tokenizer without ByteLevel")
	}
	return m.setSplitter(strings.Join(split, "\x00"))
}

// setSplitter chooses the matcher of the pre-tokenizer's regexes (several,
// applied in turn, are joined by NUL).
func (m *Model) setSplitter(regex string) error {
	next, ok := splitter(regex)
	if !ok {
		return unsupported("pre-tokenizer regex " + strconv.Quote(strings.ReplaceAll(regex, "\x00", " then ")))
	}
	m.next, m.regex = next, regex
	return nil
}

// gpt2Regex is the regex ByteLevel splits with when use_regex is set.
const gpt2Regex = `'s|'t|'re|'ve|'m|'ll|'d| ?\p{L}+| ?\p{N}+| ?[^\s\p{L}\p{N}]+|\s+(?!\S)|\s+`

func (m *Model) bpe(o *object) error {
	if t, _ := o.get("type").(string); t != "BPE" {
		return unsupported("model type " + strconv.Quote(t))
	}
	for _, k := range []string{"continuing_subword_prefix", "end_of_word_suffix"} {
		if s, _ := o.get(k).(string); s != "" {
			return unsupported("model." + k + " " + strconv.Quote(s))
		}
	}
	if o.get("dropout") != nil {
		if d, _ := o.get("dropout").(float64); d != 0 {
			return unsupported("BPE dropout")
		}
	}
	m.ignoreMerges, _ = o.get("ignore_merges").(bool)
	vocab, ok := o.get("vocab").(rawJSON)
	if !ok || vocab[0] != '{' {
		return bad("model.vocab is not an object")
	}
	m.vocab = newVocabTable(len(vocab) / 32) // it grows to what the file has
	var buf []byte                           // a byte-level token's bytes
	n := 0
	err := eachMember(vocab, func(k string, v []byte) error {
		if n++; n > maxVocab {
			return bad("more than " + strconv.Itoa(maxVocab) + " vocabulary entries")
		}
		id, ok := tokenID(v)
		if !ok {
			return bad("model.vocab[" + strconv.Quote(k) + "] is not a token id")
		}
		if m.spiece {
			return m.setToken(id, k)
		}
		if buf, ok = appendUnByteLevel(buf[:0], k); !ok {
			// Not in the byte-level alphabet, so no merge can make it: an
			// added token's text listed in the vocabulary too (DeepSeek's).
			// It stays decodable; added_tokens makes it matchable.
			m.texts.set(id, k)
			return nil
		}
		return m.setToken(id, view(buf))
	})
	if err != nil {
		return err
	}
	if err := m.setBytes(); err != nil {
		return err
	}
	merges, ok := o.get("merges").(rawArray)
	if !ok {
		return bad("model.merges is not an array")
	}
	if merges.n > maxMerges {
		return bad("more than " + strconv.Itoa(maxMerges) + " merges")
	}
	m.initMerges(merges.n)
	rank := 0
	return eachElement(merges.raw, func(x []byte) error {
		a, b, ok := mergePair(x)
		if !ok {
			return bad("merge " + strconv.Itoa(rank) + " is not two tokens")
		}
		// The pair's keys side by side in buf, for the look-ups of a, b and a+b.
		var split int
		if m.spiece {
			buf = append(append(buf[:0], a...), b...)
			split = len(a)
		} else {
			var oka, okb bool
			buf, oka = appendUnByteLevel(buf[:0], a)
			split = len(buf)
			if buf, okb = appendUnByteLevel(buf, b); !oka || !okb {
				return bad("merge " + strconv.Itoa(rank) + " (" + strconv.Quote(a+" "+b) + ") is not byte-level")
			}
		}
		if err := m.addMerge(rank, view(buf), split); err != nil {
			return err
		}
		rank++
		return nil
	})
}

// tokenID reads a vocabulary entry's value: a whole number below maxVocab.
func tokenID(v []byte) (int, bool) {
	id := 0
	for _, c := range v {
		if c < '0' || c > '9' || id >= maxVocab {
			// 1.0, 1e3, or not a number: as a float64, as the file's reader does
			f, err := strconv.ParseFloat(string(v), 64)
			ok := err == nil && f >= 0 && f < maxVocab && f == float64(int(f))
			return int(f), ok
		}
		id = id*10 + int(c-'0')
	}
	return id, len(v) > 0 && id < maxVocab
}

// mergePair reads a merge: "a b" (the pair's keys cut at the first space;
// tokenizers.js ignores what follows a second) or ["a", "b"]. a and b may
// be views of x.
func mergePair(x []byte) (a, b string, ok bool) {
	switch x[0] {
	case '"':
		s, err := strValue(x) // x is the string whole: eachElement found its end
		if a, b, ok = strings.Cut(s, " "); !ok || err != nil {
			return "", "", false
		}
		b, _, _ = strings.Cut(b, " ")
		return a, b, true
	case '[':
		var pair [2]string
		n := 0
		err := eachElement(x, func(v []byte) error {
			if n < 2 && v[0] == '"' {
				pair[n], _ = strValue(v)
			}
			n++
			return nil
		})
		return pair[0], pair[1], err == nil && n == 2
	}
	return "", "", false
}

func (m *Model) addedTokens(v any) error {
	if v == nil {
		return nil
	}
	list, ok := v.([]any)
	if !ok {
		return bad("added_tokens is not an array")
	}
	if len(list) > maxAdded {
		return bad(strconv.Itoa(len(list)) + " added tokens (at most " + strconv.Itoa(maxAdded) + ")")
	}
	for _, x := range list {
		o, ok := x.(*object)
		if !ok {
			return bad("an added token is not an object")
		}
		content, ok1 := o.get("content").(string)
		f, ok2 := o.get("id").(float64)
		if !ok1 || !ok2 || content == "" || f < 0 || f >= maxVocab || f != float64(int(f)) {
			return bad("an added token lacks its content or id")
		}
		for _, k := range []string{"single_word", "lstrip", "rstrip"} {
			if b, _ := o.get(k).(bool); b {
				return unsupported("added token " + strconv.Quote(content) + " with " + k)
			}
		}
		special, _ := o.get("special").(bool)
		normalized, set := o.get("normalized").(bool)
		if !set {
			normalized = !special
		}
		if err := m.setAdded(int(f), content, normalized && m.normalizes); err != nil {
			return err
		}
	}
	return nil
}

// setToken records a model token: its bytes (byte-level), or its text
// (SentencePiece-style: ▁ for a space, <0xXX> for a byte), which the
// vocabulary is looked up by; an id given twice is an error.
func (m *Model) setToken(id int, tok string) error {
	if m.texts.has(id) {
		return bad("token id " + strconv.Itoa(id) + " appears twice in the vocabulary")
	}
	if len(tok) > maxKey {
		return bad("token " + strconv.Itoa(id) + " is " + strconv.Itoa(len(tok)) + " bytes (at most " + strconv.Itoa(maxKey) + ")")
	}
	if b, ok := fallbackByte(tok); ok && m.spiece {
		m.texts.set(id, string([]byte{b}))
	} else if m.spiece {
		m.texts.setSpaced(id, tok)
	} else {
		m.texts.set(id, tok)
	}
	m.vocab.put(tok, uint32(id))
	return nil
}

// fallbackByte reads SentencePiece's byte tokens, <0x00> to <0xFF>.
func fallbackByte(tok string) (byte, bool) {
	if len(tok) != 6 || tok[:3] != "<0x" || tok[5] != '>' {
		return 0, false
	}
	v, err := strconv.ParseUint(tok[3:5], 16, 8)
	return byte(v), err == nil && strings.ToUpper(tok[3:5]) == tok[3:5]
}

// spiecePreTokenizer checks the pre-tokenizer of a SentencePiece-style file
// (byte_fallback): none; a Split on " " after a normalizer that left no
// space (Gemma's); or Metaspace (Mistral 7B v0.3's), which writes spaces as
// ▁ and may put one before the text.
func (m *Model) spiecePreTokenizer(v any) error {
	if v == nil {
		return nil
	}
	po, _ := v.(*object)
	switch t, _ := po.get("type").(string); t {
	case "Split":
		pat, _ := po.get("pattern").(*object)
		if !m.replaceSpace || pat.get("String") != " " || po.get("behavior") != "MergedWithPrevious" {
			return unsupported("a SentencePiece-style Split pre_tokenizer other than on \" \" after the normalizer replaced spaces")
		}
		return nil
	case "Metaspace":
		if po.get("replacement") != "▁" || po.get("str_rep") != nil && po.get("str_rep") != "▁" {
			return unsupported("a Metaspace pre_tokenizer whose replacement is not \"▁\"")
		}
		// tokenizers.js never splits at ▁; the Rust library does when
		// split is true (its default), which changes merges across ▁▁.
		if split, ok := po.get("split").(bool); !ok || split {
			return unsupported("a Metaspace pre_tokenizer that splits (split is not false)")
		}
		switch s, _ := po.get("prepend_scheme").(string); s {
		case "always":
			m.meta = metaAlways
		case "first":
			m.meta = metaFirst
		case "never":
			m.meta = metaNever
		default:
			// add_prefix_space alone: the libraries read it differently.
			return unsupported("a Metaspace pre_tokenizer without prepend_scheme")
		}
		return nil
	}
	return unsupported("a SentencePiece-style pre_tokenizer other than Metaspace or Split(\" \")")
}

// setBytes finds the token of each byte, which byte-level BPE starts from
// and SentencePiece-style BPE falls back to, once the vocabulary is read.
func (m *Model) setBytes() error {
	for b := range 256 {
		key := string([]byte{byte(b)})
		if m.spiece {
			key = "<0x" + strings.ToUpper(strconv.FormatUint(uint64(b)|0x100, 16)[1:]) + ">"
		}
		id, ok := m.vocab.get(key)
		if !ok {
			return bad("byte 0x" + strconv.FormatInt(int64(b), 16) + " has no token")
		}
		m.byteID[b] = id
	}
	return nil
}

// initMerges makes room for n merges.
func (m *Model) initMerges(n int) {
	m.merges = newPairTable(n)
	if m.spiece {
		m.joins = newJoinBits(n)
	}
}

// addMerge records that the tokens whose vocabulary keys are ab[:split]
// and ab[split:] merge at rank into the token of ab. A pair listed twice
// keeps its last rank, as tokenizers.js does.
func (m *Model) addMerge(rank int, ab string, split int) error {
	a, b := ab[:split], ab[split:]
	ia, ok1 := m.vocab.get(a)
	ib, ok2 := m.vocab.get(b)
	r, ok3 := m.vocab.get(ab)
	if !ok1 || !ok2 || !ok3 {
		return bad("merge " + strconv.Itoa(rank) + " (" + strconv.Quote(a+" "+b) + ") names a token the vocabulary lacks")
	}
	m.merges.put(uint64(ia)<<32|uint64(ib), uint64(rank)<<32|uint64(r))
	if m.spiece {
		m.joins.addMerge(a, b)
	}
	return nil
}

// setAdded records an added token; normalized ones are matched after the
// normalizer, as the normalizer writes their text. buildAdded must follow
// the last.
func (m *Model) setAdded(id int, text string, normalized bool) error {
	if len(text) > maxAddedText {
		return bad("added token " + strconv.Itoa(id) + " is " + strconv.Itoa(len(text)) + " bytes (at most " + strconv.Itoa(maxAddedText) + ")")
	}
	m.texts.set(id, text)
	if normalized {
		m.addedNorm.add(m.normalize(new([]byte), text), text, uint32(id))
	} else {
		m.added.add(text, text, uint32(id))
	}
	return nil
}

// buildAdded makes the matchers of the added tokens, once all are set.
func (m *Model) buildAdded() {
	m.added.build()
	m.addedNorm.build()
}
