// Command workload writes the conversations of internal/workload as JSON
// lines, for js/scripts/billed-workload.mjs to count with the peer's own
// counter: one line per seed, {"seed": S, "steps": [[message…]…]}, with
// steps until the conversation holds at least -messages messages.
//
//	go run ./internal/cmd/workload -from 1 -to 100 -messages 1500 [-no-tool-calls]
package main

import (
	"bufio"
	"encoding/json"
	"flag"
	"fmt"
	"os"

	"github.com/tokenfit/tokenfit/internal/workload"
)

func main() {
	from := flag.Uint64("from", 1, "first seed")
	to := flag.Uint64("to", 100, "last seed, excluded")
	n := flag.Int("messages", 100, "messages per conversation, at least")
	noCalls := flag.Bool("no-tool-calls", false, "no tool calls (gemini-3-pro-preview's conversations)")
	flag.Parse()
	w := bufio.NewWriterSize(os.Stdout, 1<<20)
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	for seed := *from; seed < *to; seed++ {
		g := workload.New(seed, !*noCalls)
		var steps [][]workload.Message
		for have := 0; have < *n; {
			s := g.Next()
			steps = append(steps, s)
			have += len(s)
		}
		if err := enc.Encode(struct {
			Seed  uint64               `json:"seed"`
			Steps [][]workload.Message `json:"steps"`
		}{seed, steps}); err != nil {
			fmt.Fprintln(os.Stderr, "workload:", err)
			os.Exit(1)
		}
	}
	if err := w.Flush(); err != nil {
		fmt.Fprintln(os.Stderr, "workload:", err)
		os.Exit(1)
	}
}
