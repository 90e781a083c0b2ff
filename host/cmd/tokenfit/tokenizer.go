package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/engine"
)

// --tokenizer FILE.json: count, encode, decode and truncate with a Hugging
// Face tokenizer.json (an open-weight model's) instead of a built-in
// encoding, in this process (core.LoadTokenizer). Answers are the JSON
// operations' answers, with the tokenizer's name (the file's directory, or
// its name without .json) as the encoding.

// maxTokenizerFile bounds the tokenizer.json read (Gemma 3's is 33 MB).
const maxTokenizerFile = 256 << 20

// loadTokenizer loads --tokenizer once; nil when the flag is not given.
func (t *target) loadTokenizer(c *cli) (*core.HFTokenizer, error) {
	if t.tokenizer == "" || t.hf != nil {
		return t.hf, nil
	}
	if t.encoding != "" || t.model != "" {
		return nil, usagef("give --tokenizer, --encoding or --model, not more than one")
	}
	if c.runtime != "native" {
		return nil, usagef("--tokenizer counts natively: leave out --runtime %s", c.runtime)
	}
	data, err := readFile(t.tokenizer, maxTokenizerFile)
	if err != nil {
		return nil, err
	}
	tok, err := core.LoadTokenizer(tokenizerName(t.tokenizer), data)
	if err != nil {
		return nil, err
	}
	t.hf = tok
	return tok, nil
}

// tokenizerName names a tokenizer by its file: models/llama/tokenizer.json
// is "llama", qwen3.json "qwen3". (A table keeps the name it was made with.)
func tokenizerName(path string) string {
	base := strings.TrimSuffix(filepath.Base(path), ".json")
	if base == "tokenizer" {
		if dir := filepath.Base(filepath.Dir(path)); dir != "." && dir != string(filepath.Separator) {
			return dir
		}
	}
	return base
}

// loadNamed loads a tokenizer.json or table (chat, budget and calibrate's
// --tokenizer) into the backend under its name — a table's own (the npm
// package's gemini.tkh is "gemini"), else tokenizerName's — so that the
// models whose registry rows name it count with it. "" loads nothing.
func (c *cli) loadNamed(path string) error {
	if path == "" {
		return nil
	}
	data, err := readFile(path, maxTokenizerFile)
	if err != nil {
		return err
	}
	tok, err := core.LoadTokenizer(tokenizerName(path), data)
	if err != nil {
		return err
	}
	req, err := json.Marshal(core.LoadTokenizerRequest{Name: tok.Name(), Data: data})
	if err != nil {
		return err
	}
	_, err = c.do("loadTokenizer", req, nil)
	return err
}

func (t *target) counted() core.Counted {
	return core.Counted{Encoding: t.hf.Name(), Exact: true}
}

// hfEncode prints encode's answer.
func (c *cli) hfEncode(t *target, text string) error {
	return c.printJSON(core.EncodeAnswer{IDs: t.hf.Encode(text), Counted: t.counted()})
}

// hfDecode prints the text of ids, or with whole decode's answer.
func (c *cli) hfDecode(t *target, ids []int, whole bool) error {
	raw, err := t.hf.Decode(ids)
	if err != nil {
		return err
	}
	text := engine.LossyUTF8(raw) // as decode's answer has it without --tokenizer
	if !whole {
		_, err = io.WriteString(c.stdout, text)
		return err
	}
	return c.printJSON(core.DecodeAnswer{Text: text, Valid: utf8.ValidString(raw), Counted: t.counted()})
}

// hfTruncate prints the kept text, or with whole truncate's answer.
func (c *cli) hfTruncate(t *target, text string, maxTokens int, keep string, whole bool) error {
	side := core.KeepStart
	switch keep {
	case "start":
	case "end":
		side = core.KeepEnd
	default:
		return usagef("--keep must be start or end, not %q", keep)
	}
	part, n := t.hf.Truncate(text, maxTokens, side)
	if !whole {
		_, err := io.WriteString(c.stdout, part)
		return err
	}
	return c.printJSON(core.TruncateAnswer{Text: part, Tokens: n, Truncated: len(part) < len(text), Counted: t.counted()})
}

// convertCmd writes the compact table of a tokenizer.json (what
// --tokenizer, core.LoadTokenizer and the hosts load fastest), under the
// name the table keeps: -name, e.g. the registry's hf:Qwen/Qwen3-8B (what
// the npm package's tables are named), or the file's.
func convertCmd(fs *flag.FlagSet) func(*cli, []string) error {
	out := fs.String("o", "", "write the table to FILE (default: FILE.json's name with .tkh, beside it)")
	name := fs.String("name", "", "the name the table keeps, its encoding in answers (default: the file's directory, or its name without .json)")
	return func(c *cli, args []string) error {
		if len(args) != 1 {
			return usagef("give one tokenizer.json")
		}
		t := &target{tokenizer: args[0]}
		c.runtime = "native"
		tok, err := t.loadTokenizer(c)
		if err != nil {
			return err
		}
		if *name != "" {
			tok = tok.Named(*name)
		}
		dst := *out
		if dst == "" {
			dst = strings.TrimSuffix(args[0], ".json") + ".tkh"
		}
		table := tok.Table()
		if err := os.WriteFile(dst, table, 0o644); err != nil {
			return err
		}
		_, err = fmt.Fprintf(c.stdout, "%s: %s, %d ids, %d bytes\n", dst, tok.Name(), tok.VocabSize(), len(table))
		return err
	}
}

func (c *cli) printJSON(v any) error {
	b, err := json.Marshal(v)
	return c.print(b, err)
}
