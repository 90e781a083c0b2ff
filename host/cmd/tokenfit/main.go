// Command tokenfit counts tokens, budgets context windows and plans prompt
// injections from the shell, with the native core or with the WebAssembly
// module in wazero (--runtime wasm), which answer alike.
//
//	tokenfit count    [--encoding E | --model M | --tokenizer T.json] [--jsonl] [FILE…]
//	tokenfit encode   [--encoding E | --model M | --tokenizer T.json] [FILE]
//	tokenfit decode   [--encoding E | --model M | --tokenizer T.json] [--json] [ID…]
//	tokenfit truncate --max-tokens N [--keep start|end] [--encoding E | --model M | --tokenizer T.json] [--json] [FILE]
//	tokenfit chunk    --max-tokens N [--overlap N] [--encoding E | --model M] [--jsonl] [FILE]
//	tokenfit convert  [-o OUT] [-name NAME] TOKENIZER.json
//	tokenfit calibrate [--tokenizer T] [FILE]
//	tokenfit chat     [--tokenizer T] [FILE]
//	tokenfit budget   [--tokenizer T] [FILE]
//	tokenfit plan     [--token-budget N] [--dynamic] [FILE]
//	tokenfit models   [MODEL]
//	tokenfit call     OPERATION [FILE]
//	tokenfit serve    [--addr HOST:PORT] [--max-body N] [--read-timeout D] …
//	tokenfit version
//
// --tokenizer counts with a Hugging Face tokenizer.json (an open-weight
// model's: Llama 3.x, gpt-oss), or the compact table convert writes of one
// (a third of its size, loaded faster), natively. chat, budget and
// calibrate load it under its name instead, for the models whose registry
// rows name it: the npm package's dist/tables/gemini.tkh (Gemma 3's
// tokenizer, named "gemini") makes Gemini models count with Google's
// tokenizer.
//
// Every command takes --runtime native|wasm (default native). Texts come
// from the files, or stdin when there is none; count prints one number (the
// files' counts added), and with --jsonl reads {"text": …} lines and writes
// {"tokens": N} lines. chat, budget and plan read a JSON request (the
// operations countChat, calculateBudget and planInjection) and print the
// JSON answer; call does the same for any operation of the JSON API (as
// the hosts' call does, by name: countTokens, liveNew, …); encode prints the ids as JSON; decode takes ids as arguments
// (or a JSON array or whitespace-separated ids on stdin) and prints the
// text; truncate prints the kept text. --json prints the whole answer.
// chunk prints the chunks answer (with --jsonl, one chunk a line);
// calibrate reads a calibrate request and prints the updated state.
//
// plan's token budget, when the request has none, comes from --token-budget,
// else TOKENFIT_TOKEN_BUDGET (TOKENFIT_TOKEN_BUDGET_DYNAMIC with --dynamic),
// else the config file, else 2,000 (500 with --dynamic). --token-budget
// also overrides a budget in the request. The config file is
// $TOKENFIT_CONFIG if set, else tokenfit/config.json in the user config
// directory ($XDG_CONFIG_HOME or ~/.config on Linux):
//
//	{"token_budget": {"default": 2000, "dynamic_context": 500}}
//
// An empty config file sets nothing (as {} does). tokenfit reads at most
// 1 GiB from stdin or from one file (the module's largest buffer; the same
// natively) and 1 MiB of the config file, and says so when there is more.
// A count with an exact encoding (named, the default, or a model's)
// streams instead, on either runtime: it holds about a megabyte of the
// input at a time, plus the longest stretch with no place to split between
// tokens, and refuses only such a stretch of more than 1 GiB natively, 256
// MiB in the module. A count by a heuristic, an estimate or --tokenizer
// needs the whole text, so it takes at most 1 GiB. count --jsonl reads its
// lines as they come and answers each before reading the next.
//
// With --runtime wasm the module is --wasm FILE, else $TOKENFIT_WASM, else
// the one built into the binary (package host/embed: the last release's
// build, committed with the source). Compiled code is cached in the user
// cache directory.
//
// serve answers POST /v1/{operation} and GET /healthz over HTTP on --addr
// (default 127.0.0.1:8787) until SIGTERM or SIGINT, writing a JSON line per
// request to stderr (see package host/httpapi).
//
// Errors go to stderr, with exit status 1 (2 for a usage error).
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"
)

func main() {
	os.Exit(run(os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// command is one subcommand: flags added to the common ones, then run.
type command struct {
	name, args, help string
	flags            func(fs *flag.FlagSet) func(c *cli, args []string) error
}

var commands = []command{
	{"count", "[--encoding E | --model M] [--jsonl] [FILE…]", "print the number of tokens (with an exact encoding, of inputs of any size)", countCmd},
	{"encode", "[--encoding E | --model M] [FILE]", "print the token ids (JSON; at most 1 GiB of input)", encodeCmd},
	{"decode", "[--encoding E | --model M] [--json] [ID…]", "print the text of token ids", decodeCmd},
	{"truncate", "--max-tokens N [--keep start|end] [--encoding E | --model M] [--json] [FILE]", "print the text cut to N tokens (at most 1 GiB of input)", truncateCmd},
	{"chunk", "--max-tokens N [--overlap N] [--encoding E | --model M] [--jsonl] [FILE]", "split a text into chunks of at most N tokens", chunkCmd},
	{"convert", "[-o OUT] [-name NAME] FILE.json", "write a Hugging Face tokenizer.json as a compact table (for --tokenizer)", convertCmd},
	{"chat", "[--tokenizer T] [FILE]", "count a chat request as the API bills it (countChat)", jsonCmd("countChat")},
	{"budget", "[--tokenizer T] [FILE]", "divide a context window (calculateBudget)", jsonCmd("calculateBudget")},
	{"plan", "[--token-budget N] [--dynamic] [FILE]", "plan what to inject (planInjection)", planCmd},
	{"calibrate", "[--tokenizer T] [FILE]", "record a reported usage, print the calibration state (calibrate)", jsonCmd("calibrate")},
	{"models", "[--provider P] [--family F] [--kind K] [--min-window N] [--json] [MODEL]", "list the models (a table; JSON with --json), or resolve one", modelsCmd},
	{"price", "[FILE]", `price a provider's usage object: {"model": M, "usage": {…}} (priceUsage)`, jsonCmd("priceUsage")},
	{"call", "OPERATION [FILE]", "run any operation of the JSON API on a JSON request", callCmd},
	{"serve", "[--addr HOST:PORT] [--max-body N] [--max-inflight N] [--max-inflight-bytes N] [--…-timeout D]", "serve the JSON API over HTTP: POST /v1/{operation}, GET /healthz", serveCmd},
	{"version", "", "print the version", versionCmd},
}

// cli is one invocation: its streams and the runtime it counts with.
type cli struct {
	ctx            context.Context
	stdin          io.Reader
	stdout, stderr io.Writer
	runtime        string
	wasmPath       string
	rt             backend
}

// usageError is a mistake in the command line: exit status 2.
type usageError struct{ msg string }

// Error returns the message.
func (e usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return usageError{fmt.Sprintf(format, args...)} }

// run is the whole program, minus the process: it returns the exit status.
func run(args []string, stdin io.Reader, stdout, stderr io.Writer) (status int) {
	defer func() {
		if p := recover(); p != nil {
			fmt.Fprintf(stderr, "tokenfit: internal error: %v\n", p)
			status = 1
		}
	}()
	if len(args) == 0 || args[0] == "help" || args[0] == "-h" || args[0] == "--help" {
		w := stderr
		if len(args) > 0 {
			w = stdout
		}
		usage(w)
		if len(args) == 0 {
			return 2
		}
		return 0
	}
	var cmd *command
	for i := range commands {
		if commands[i].name == args[0] {
			cmd = &commands[i]
		}
	}
	if cmd == nil {
		fmt.Fprintf(stderr, "tokenfit: unknown command %q\n", args[0])
		usage(stderr)
		return 2
	}
	c := &cli{ctx: context.Background(), stdin: stdin, stdout: stdout, stderr: stderr}
	fs := flag.NewFlagSet("tokenfit "+cmd.name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.StringVar(&c.runtime, "runtime", "native", "native (core in this process) or wasm (the module in wazero)")
	fs.StringVar(&c.wasmPath, "wasm", "", "the wasip1 module for --runtime wasm (default $TOKENFIT_WASM, embedded, or built)")
	exec := cmd.flags(fs)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "usage: tokenfit %s %s\n\n%s.\n\nflags:\n", cmd.name, cmd.args, cmd.help)
		fs.PrintDefaults()
	}
	operands, err := parse(fs, args[1:])
	if err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	defer func() {
		if c.rt != nil {
			c.rt.close(c.ctx)
		}
	}()
	if err := exec(c, operands); err != nil {
		fmt.Fprintln(stderr, "tokenfit:", strings.TrimPrefix(err.Error(), "tokenfit: "))
		var ue usageError
		if errors.As(err, &ue) {
			return 2
		}
		return 1
	}
	return 0
}

// parse parses flags wherever they are among the operands (tokenfit count
// a.txt --runtime wasm), up to a "--" after which all are operands.
func parse(fs *flag.FlagSet, args []string) ([]string, error) {
	var operands []string
	for {
		if err := fs.Parse(args); err != nil {
			return nil, err
		}
		rest := fs.Args()
		if used := len(args) - len(rest); used > 0 && args[used-1] == "--" {
			return append(operands, rest...), nil
		}
		if len(rest) == 0 {
			return operands, nil
		}
		operands = append(operands, rest[0])
		args = rest[1:]
	}
}

func usage(w io.Writer) {
	fmt.Fprintln(w, "usage: tokenfit COMMAND [--runtime native|wasm] [flags] [args]")
	fmt.Fprintln(w)
	for _, c := range commands {
		fmt.Fprintf(w, "  %-9s %s\n", c.name, c.help)
	}
	fmt.Fprintln(w, "\nRun tokenfit COMMAND -h for its flags.")
}
