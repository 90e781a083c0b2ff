//go:build ignore

// Command gen writes the compact vocabulary tables that the counting engine
// reads in place. It takes each vocabulary from github.com/tiktoken-go/tokenizer
// (the source of truth for the token bytes) and writes one <encoding>.tkt file
// per encoding, in the format documented in format.go, into core/tables
// (which compiles them into the programs that import it).
//
// Run it with `go generate ./core/internal/tables` after upgrading
// tiktoken-go/tokenizer; the tables change only when that dependency does.
package main

import (
	"flag"
	"fmt"
	"log"
	"os"
	"path/filepath"
	"slices"

	"github.com/tiktoken-go/tokenizer/codec"

	"github.com/tokenfit/tokenfit/core/internal/tables"
)

type source struct {
	name    string
	pattern tables.Pattern
	codec   func() *codec.Codec
	// specials lists the special tokens exactly as the official tiktoken
	// registry defines them for this encoding.
	specials map[string]uint32
}

var sources = []source{
	{"o200k_base", tables.PatternO200k, codec.NewO200kBase, map[string]uint32{
		"<|endoftext|>": 199999, "<|endofprompt|>": 200018}},
	{"cl100k_base", tables.PatternCl100k, codec.NewCl100kBase, map[string]uint32{
		"<|endoftext|>": 100257, "<|fim_prefix|>": 100258, "<|fim_middle|>": 100259,
		"<|fim_suffix|>": 100260, "<|endofprompt|>": 100276}},
	{"p50k_base", tables.PatternGPT2, codec.NewP50kBase, map[string]uint32{
		"<|endoftext|>": 50256}},
	{"r50k_base", tables.PatternGPT2, codec.NewR50kBase, map[string]uint32{
		"<|endoftext|>": 50256}},
}

func main() {
	out := flag.String("out", ".", "directory to write the .tkt files to")
	flag.Parse()
	for _, s := range sources {
		data, err := build(s)
		if err != nil {
			log.Fatalf("%s: %v", s.name, err)
		}
		path := filepath.Join(*out, s.name+".tkt")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			log.Fatal(err)
		}
		fmt.Printf("%s: %d bytes\n", path, len(data))
	}
}

// build reads every rank from the codec in order. A rank that does not
// decode is a hole (p50k_base keeps 50256 for <|endoftext|> between ordinary
// tokens); the scan ends after a long run of holes.
func build(s source) ([]byte, error) {
	c := s.codec()
	var tokens [][]byte
	for rank, holes := 0, 0; holes < 4096; rank++ {
		str, err := c.Decode([]uint{uint(rank)})
		if err != nil || str == "" {
			tokens = append(tokens, nil)
			holes++
			continue
		}
		holes = 0
		tokens = append(tokens, []byte(str))
	}
	for len(tokens) > 0 && tokens[len(tokens)-1] == nil {
		tokens = tokens[:len(tokens)-1]
	}
	var specials []tables.Special
	for text, r := range s.specials {
		if int(r) < len(tokens) && tokens[r] != nil {
			return nil, fmt.Errorf("special %s has rank %d, which an ordinary token holds", text, r)
		}
		specials = append(specials, tables.Special{Rank: r, Text: text})
	}
	slices.SortFunc(specials, func(a, b tables.Special) int { return int(a.Rank) - int(b.Rank) })
	return tables.Marshal(s.name, s.pattern, tokens, specials)
}
