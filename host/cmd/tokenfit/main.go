// Command tokenfit counts tokens, budgets context windows and plans prompt
// injections from the shell.
//
//	tokenfit count [--encoding E | --model M] [--jsonl] [FILE…]
//
// count prints the number of tokens in the files (or stdin); with --jsonl it
// reads {"text": …} lines and writes {"tokens": N} lines.
package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/tokenfit/tokenfit/core"
)

func main() {
	if err := run(os.Args[1:], os.Stdin, os.Stdout); err != nil {
		fmt.Fprintln(os.Stderr, "tokenfit:", err)
		os.Exit(1)
	}
}

func run(args []string, stdin io.Reader, stdout io.Writer) error {
	if len(args) == 0 {
		return errors.New("usage: tokenfit count [--encoding E | --model M] [--jsonl] [FILE…]")
	}
	switch args[0] {
	case "count":
		return count(args[1:], stdin, stdout)
	}
	return fmt.Errorf("unknown command %q", args[0])
}

func count(args []string, stdin io.Reader, stdout io.Writer) error {
	fs := flag.NewFlagSet("count", flag.ContinueOnError)
	encoding := fs.String("encoding", "", "encoding name (default o200k_base)")
	jsonl := fs.Bool("jsonl", false, `read {"text": …} lines, write {"tokens": N} lines`)
	if err := fs.Parse(args); err != nil {
		return err
	}
	name := *encoding
	if name == "" {
		name = core.DefaultEncoding
	}
	enc, err := core.GetEncoding(name)
	if err != nil {
		return err
	}
	if *jsonl {
		sc := bufio.NewScanner(stdin)
		sc.Buffer(nil, 256<<20)
		w := bufio.NewWriter(stdout)
		defer w.Flush()
		for sc.Scan() {
			var line struct{ Text string }
			if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
				return err
			}
			fmt.Fprintf(w, "{\"tokens\":%d}\n", enc.Count(line.Text))
		}
		return sc.Err()
	}
	var data []byte
	if fs.NArg() == 0 {
		data, err = io.ReadAll(stdin)
	}
	if err != nil {
		return err
	}
	total := enc.Count(string(data))
	for _, f := range fs.Args() {
		b, err := os.ReadFile(f)
		if err != nil {
			return err
		}
		total += enc.Count(string(b))
	}
	_, err = fmt.Fprintln(stdout, total)
	return err
}
