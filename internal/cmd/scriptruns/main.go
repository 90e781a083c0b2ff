// Command scriptruns writes the script runs of files, as core's
// script-weighted estimates cut them, as JSON lines {"class": C, "run": R},
// for js/scripts/script-weights.mjs to count with two tokenizers.
//
//	go run ./internal/cmd/scriptruns testdata/corpus/*.txt
package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"

	"github.com/tokenfit/tokenfit/internal/scripts"
)

func main() {
	w := bufio.NewWriter(os.Stdout)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for _, path := range os.Args[1:] {
		b, err := os.ReadFile(path)
		if err != nil {
			fmt.Fprintln(os.Stderr, "scriptruns:", err)
			os.Exit(1)
		}
		var failed error
		scripts.Runs(string(b), false, func(run, class string) {
			if failed == nil {
				failed = enc.Encode(struct {
					Class string `json:"class"`
					Run   string `json:"run"`
				}{class, run})
			}
		})
		if failed != nil {
			fmt.Fprintln(os.Stderr, "scriptruns:", failed)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "scriptruns:", err)
		os.Exit(1)
	}
}
