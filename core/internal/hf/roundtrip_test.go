package hf

import (
	"encoding/json"
	"errors"
	"math/rand/v2"
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/internal/oracle"
)

// genFile is a random tokenizer.json: byte-level (the GPT-2 regex) or
// SentencePiece-style (byte fallback, Metaspace), a vocabulary grown by
// random merges of its tokens, merges listed twice, and added tokens.
type genFile struct {
	spiece bool
	keys   []string    // by id: a token's bytes (byte-level) or text
	merges [][2]string // keys
	added  []genAdded
}

type genAdded struct {
	content             string
	id                  int
	special, normalized bool
}

// units are what the generated tokens and texts are made of: whole
// characters, so that every token and text is valid UTF-8.
var units = []string{"a", "b", "c", "e", "t", " ", "\n", "1", "<", "|", ">", "é", "中", "😀"}

func genTokenizer(rng *rand.Rand) *genFile {
	g := &genFile{spiece: rng.IntN(3) == 0}
	ids := map[string]int{}
	addKey := func(k string) {
		if _, ok := ids[k]; !ok {
			ids[k] = len(g.keys)
			g.keys = append(g.keys, k)
		}
	}
	var pool []string // the tokens merges make texts of
	if g.spiece {
		for b := range 256 {
			addKey("<0x" + strings.ToUpper(strconv.FormatUint(uint64(b)|0x100, 16)[1:]) + ">")
		}
		for _, u := range units {
			u = strings.ReplaceAll(u, " ", "▁")
			addKey(u)
			pool = append(pool, u)
		}
	} else {
		for b := range 256 {
			addKey(string([]byte{byte(b)}))
		}
		for _, u := range units {
			for i := 2; i <= len(u); i++ { // the bytes of a character, merged
				g.merges = append(g.merges, [2]string{u[:i-1], u[i-1 : i]})
				addKey(u[:i])
			}
			pool = append(pool, u)
		}
	}
	merge := func(a, b string) {
		g.merges = append(g.merges, [2]string{a, b})
		addKey(a + b)
		pool = append(pool, a+b)
	}
	for range rng.IntN(200) {
		merge(pool[rng.IntN(len(pool))], pool[rng.IntN(len(pool))])
		if rng.IntN(10) == 0 {
			g.merges = append(g.merges, g.merges[rng.IntN(len(g.merges))]) // listed again: the last rank
		}
	}
	if rng.IntN(8) == 0 { // "t" doubled 17 times: 131,072 bytes, over the 65,535 a key may have
		for t := "t"; len(t) < 1<<17; t += t {
			merge(t, t)
		}
	}
	for range rng.IntN(6) {
		a := genAdded{id: len(g.keys) + rng.IntN(3), special: rng.IntN(2) == 0, normalized: rng.IntN(2) == 0}
		for range 1 + rng.IntN(6) {
			a.content += units[rng.IntN(len(units))]
		}
		if rng.IntN(3) == 0 {
			a.content = "<|" + a.content + "|>"
		}
		if rng.IntN(40) == 0 {
			a.content = strings.Repeat("x", maxAddedText+rng.IntN(2)) // over the limit, or just at it
		}
		g.added = append(g.added, a)
	}
	return g
}

// json writes the file.
func (g *genFile) json() []byte {
	key := func(k string) string {
		if g.spiece {
			b, _ := json.Marshal(k)
			return string(b)
		}
		var b strings.Builder
		for i := 0; i < len(k); i++ {
			b.WriteRune(byteChar[k[i]])
		}
		q, _ := json.Marshal(b.String())
		return string(q)
	}
	var b strings.Builder
	if g.spiece {
		b.WriteString(`{"normalizer":null,"pre_tokenizer":{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":false},"model":{"type":"BPE","byte_fallback":true,"vocab":{`)
	} else {
		b.WriteString(`{"normalizer":null,"pre_tokenizer":{"type":"ByteLevel","add_prefix_space":false,"use_regex":true},"model":{"type":"BPE","vocab":{`)
	}
	for id, k := range g.keys {
		if id > 0 {
			b.WriteByte(',')
		}
		b.WriteString(key(k) + ":" + strconv.Itoa(id))
	}
	b.WriteString(`},"merges":[`)
	for i, mg := range g.merges {
		if i > 0 {
			b.WriteByte(',')
		}
		b.WriteString("[" + key(mg[0]) + "," + key(mg[1]) + "]")
	}
	b.WriteString(`]},"added_tokens":[`)
	for i, a := range g.added {
		if i > 0 {
			b.WriteByte(',')
		}
		c, _ := json.Marshal(a.content)
		b.WriteString(`{"id":` + strconv.Itoa(a.id) + `,"content":` + string(c) + `,"special":` + strconv.FormatBool(a.special) + `,"normalized":` + strconv.FormatBool(a.normalized) + `}`)
	}
	b.WriteString("]}")
	return []byte(b.String())
}

// text is a random text of the units, the tokens' texts and the added
// tokens' contents.
func (g *genFile) text(rng *rand.Rand) string {
	var b strings.Builder
	for range rng.IntN(30) {
		switch r := rng.IntN(10); {
		case r < 4:
			b.WriteString(units[rng.IntN(len(units))])
		case r < 8:
			k := g.keys[rng.IntN(len(g.keys))]
			if g.spiece {
				k = strings.ReplaceAll(k, "▁", " ")
			}
			if len(k) < 1000 {
				b.WriteString(k)
			}
		case len(g.added) > 0:
			if a := g.added[rng.IntN(len(g.added))]; len(a.content) < 1000 {
				b.WriteString(a.content)
			}
		}
	}
	return strings.ToValidUTF8(b.String(), "?")
}

// TestTable_RoundTripProperty: a random tokenizer.json that loads converts
// to a table that loads (tokenfit convert does what this does) and encodes
// every text as the tokenizer.json does; one that is refused for a limit of
// the table's (a key over 65,535 bytes, an added token over 1 MiB) is
// refused as a table too, with the same reason. Before the limits were the
// loaders' both, the JSON loaded and its table was "truncated or damaged".
// 300 files (3,000 with TOKENFIT_HUGE=1).
func TestTable_RoundTripProperty(t *testing.T) {
	n := 300
	if os.Getenv("TOKENFIT_HUGE") == "1" {
		n = 3000
	}
	rng := rand.New(rand.NewPCG(11, 12))
	loaded, refused := 0, 0
	for i := range n {
		g := genTokenizer(rng)
		m, err := Load("gen", g.json())
		if err != nil {
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("file %d: %v", i, err)
			}
			if !strings.Contains(e.Reason, "bytes (at most") {
				t.Fatalf("file %d: refused for another reason: %v", i, err)
			}
			// The table convert would have written, had it let the
			// tokenizer through: the file less the oversized entries,
			// then those put in as they are.
			refused++
			tableRefuses(t, i, g, err)
			continue
		}
		loaded++
		m2, err := LoadTable(m.AppendTable(nil))
		if err != nil {
			t.Fatalf("file %d: its table: %v", i, err)
		}
		for range 20 {
			text := g.text(rng)
			a, b := m.AppendEncode(nil, text), m2.AppendEncode(nil, text)
			if !oracle.EqualIDs(a, toInts(b)) {
				t.Fatalf("file %d: the table encodes %q as %v, the tokenizer.json as %v", i, text, b, a)
			}
		}
	}
	t.Logf("%d files loaded and round-tripped, %d refused by both", loaded, refused)
	if loaded == 0 || refused == 0 {
		t.Error("the generator no longer makes both kinds")
	}
}

// tableRefuses holds the table of g, oversized entries included, to the
// refusal want of g's tokenizer.json.
func tableRefuses(t *testing.T, i int, g *genFile, want error) {
	t.Helper()
	small := *g
	small.keys = append([]string(nil), g.keys...)
	small.merges, small.added = nil, nil
	var long []int
	for id, k := range g.keys {
		if len(k) > maxKey {
			small.keys[id] = "\x01unused" + strconv.Itoa(id) // a key no text reaches
			long = append(long, id)
		}
	}
	for _, mg := range g.merges {
		if len(mg[0]+mg[1]) <= maxKey {
			small.merges = append(small.merges, mg)
		}
	}
	var over []genAdded
	for _, a := range g.added {
		if len(a.content) > maxAddedText {
			over = append(over, a)
		} else {
			small.added = append(small.added, a)
		}
	}
	m, err := Load("gen", small.json())
	if err != nil {
		t.Fatalf("file %d without its oversized entries: %v", i, err)
	}
	for _, id := range long {
		m.vocab.put(g.keys[id], uint32(id))
	}
	for _, a := range over {
		m.texts.set(a.id, a.content)
		m.added.tokens = append(m.added.tokens, addedToken{a.content, a.content, uint32(a.id)})
	}
	_, err = LoadTable(m.AppendTable(nil))
	var e1, e2 *Error
	if !errors.As(err, &e1) || !errors.As(want, &e2) || e1.Reason != e2.Reason {
		t.Fatalf("file %d: the table: %v; the tokenizer.json: %v", i, err, want)
	}
}

// TestTable_Limits: at the limits, a key of 65,535 bytes and an added token
// of 1 MiB load from either form; a byte more is refused by both, with the
// same reason (the table written as convert would have written it).
func TestTable_Limits(t *testing.T) {
	for _, c := range []struct {
		name  string
		key   string // a vocabulary key, id 256
		added string // an added token, id 257
	}{
		{"a key at the limit", strings.Repeat("k", maxKey), "<|x|>"},
		{"a key over it", strings.Repeat("k", maxKey+1), "<|x|>"},
		{"an added token at the limit", "kk", strings.Repeat("a", maxAddedText)},
		{"an added token over it", "kk", strings.Repeat("a", maxAddedText+1)},
	} {
		g := &genFile{added: []genAdded{{content: c.added, id: 257, special: true}}}
		for b := range 256 {
			g.keys = append(g.keys, string([]byte{byte(b)}))
		}
		g.keys = append(g.keys, c.key)
		m, err := Load("limits", g.json())
		over := len(c.key) > maxKey || len(c.added) > maxAddedText
		if over {
			if err == nil {
				t.Fatalf("%s: the tokenizer.json loads", c.name)
			}
			tableRefuses(t, 0, g, err)
			continue
		}
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m2, err := LoadTable(m.AppendTable(nil))
		if err != nil {
			t.Fatalf("%s: its table: %v", c.name, err)
		}
		if id, ok := m2.vocab.get(c.key); !ok || id != 256 || m2.Count(c.added) != 1 {
			t.Errorf("%s: the table lost the key (%d %v) or the added token (%d tokens)", c.name, id, ok, m2.Count(c.added))
		}
	}
}
