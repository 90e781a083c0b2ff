package hf

import (
	"errors"
	"os"
	"strings"
	"testing"
)

// small is a minimal byte-level tokenizer.json: the 256 bytes, "ab", "abc"
// and " a" with merges Ġ+a, a+b and ab+c, and one added token.
func small(pre, model string) string {
	var vocab []string
	for b := range 256 {
		vocab = append(vocab, quote(string(byteChar[b]))+":"+itoa(b))
	}
	vocab = append(vocab, `"ab":256`, `"abc":257`, `"Ġa":258`)
	if pre == "" {
		pre = `{"type":"ByteLevel","add_prefix_space":false,"use_regex":true}`
	}
	if model == "" {
		model = `{"type":"BPE","vocab":{` + strings.Join(vocab, ",") + `},"merges":["Ġ a","a b",["ab","c"]]}`
	}
	return `{"normalizer":null,"pre_tokenizer":` + pre + `,"model":` + model +
		`,"added_tokens":[{"id":259,"content":"<|x|>","special":true,"normalized":false}]}`
}

func quote(s string) string {
	if s == `"` || s == `\` {
		return `"\` + s + `"`
	}
	return `"` + s + `"`
}

func itoa(i int) string {
	if i < 10 {
		return string(rune('0' + i))
	}
	return itoa(i/10) + string(rune('0'+i%10))
}

func TestLoad_Small(t *testing.T) {
	m, err := Load("small", []byte(small("", "")))
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		text string
		want []uint32
	}{
		{"abc", []uint32{257}},
		{"ab<|x|>c", []uint32{256, 259, 'c'}},
		{" abc", []uint32{258, 'b', 'c'}}, // Ġ+a merges first: merges are by pair, not by the joined bytes
		{"<|x|<|x|>", []uint32{'<', '|', 'x', '|', 259}},
	} {
		got := m.AppendEncode(nil, c.text)
		if len(got) != len(c.want) {
			t.Errorf("%q: %v, want %v", c.text, got, c.want)
			continue
		}
		for i := range got {
			if got[i] != c.want[i] {
				t.Errorf("%q: %v, want %v", c.text, got, c.want)
				break
			}
		}
	}
}

// TestLoad_Hostile holds every bad file to a typed error.
func TestLoad_Hostile(t *testing.T) {
	good := small("", "")
	cases := []struct {
		name, file string
		want       error
	}{
		{"empty", "", ErrFormat},
		{"truncated", good[:len(good)/2], ErrFormat},
		{"not an object", `[1,2]`, ErrFormat},
		{"deep", strings.Repeat("[", 100000), ErrFormat},
		{"vocab an array", small("", `{"type":"BPE","vocab":[],"merges":[]}`), ErrFormat},
		{"id a string", small("", `{"type":"BPE","vocab":{"a":"1"},"merges":[]}`), ErrFormat},
		{"bytes missing", small("", `{"type":"BPE","vocab":{"a":0},"merges":[]}`), ErrFormat},
		{"merge unknown", strings.Replace(good, `"a b"`, `"a zz"`, 1), ErrFormat},
		{"merge not a pair", strings.Replace(good, `"a b"`, `3`, 1), ErrFormat},
		{"10M merges", strings.Replace(good, `"merges":[`, `"merges":[`+strings.Repeat(`"a b",`, 10_000_000), 1), ErrFormat},
		{"unknown model", small("", `{"type":"Unigram","vocab":[]}`), ErrUnsupported},
		{"WordPiece", small("", `{"type":"WordPiece","vocab":{}}`), ErrUnsupported},
		{"byte fallback", small("", `{"type":"BPE","byte_fallback":true,"vocab":{},"merges":[]}`), ErrUnsupported},
		{"unknown regex", small(`{"type":"Sequence","pretokenizers":[{"type":"Split","pattern":{"Regex":"\\w+|(?=x)"},"behavior":"Isolated","invert":false},{"type":"ByteLevel","add_prefix_space":false,"use_regex":false}]}`, ""), ErrUnsupported},
		{"no byte level", small(`{"type":"Whitespace"}`, ""), ErrUnsupported},
		{"normalizer", strings.Replace(good, `"normalizer":null`, `"normalizer":{"type":"Lowercase"}`, 1), ErrUnsupported},
		{"prepend not ▁", strings.Replace(good, `"normalizer":null`, `"normalizer":{"type":"Prepend","prepend":"_"}`, 1), ErrUnsupported},
		{"▁ in byte-level", strings.Replace(good, `"normalizer":null`, `"normalizer":{"type":"Replace","pattern":{"String":" "},"content":"▁"}`, 1), ErrUnsupported},
		{"replace a regex", strings.Replace(good, `"normalizer":null`, `"normalizer":{"type":"Replace","pattern":{"Regex":" "},"content":"▁"}`, 1), ErrUnsupported},
		{"metaspace splits", small(`{"type":"Metaspace","replacement":"▁","prepend_scheme":"first"}`, `{"type":"BPE","byte_fallback":true,"vocab":{},"merges":[]}`), ErrUnsupported},
		{"metaspace add_prefix_space", small(`{"type":"Metaspace","replacement":"▁","add_prefix_space":true,"split":false}`, `{"type":"BPE","byte_fallback":true,"vocab":{},"merges":[]}`), ErrUnsupported},
		{"metaspace wrong types", small(`{"type":"Metaspace","replacement":1,"prepend_scheme":["first"],"split":"no"}`, `{"type":"BPE","byte_fallback":true,"vocab":{},"merges":[]}`), ErrUnsupported},
		{"sentencepiece bytes missing", small(`{"type":"Metaspace","replacement":"▁","prepend_scheme":"first","split":false}`, `{"type":"BPE","byte_fallback":true,"vocab":{"a":0},"merges":[]}`), ErrFormat},
	}
	for _, c := range cases {
		if c.name == "10M merges" && os.Getenv("TOKENFIT_HUGE") == "" {
			continue // ~15 s: make test-long
		}
		_, err := Load(c.name, []byte(c.file))
		var e *Error
		if !errors.Is(err, c.want) || !errors.As(err, &e) {
			t.Errorf("%s: %v, want %v", c.name, err, c.want)
		}
	}
}
