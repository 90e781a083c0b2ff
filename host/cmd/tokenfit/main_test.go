package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/host/internal/modbuild"
)

// TestMain builds the wasm module once (cached by content) and points
// --runtime wasm at it, or leaves the wasm cases to skip when it cannot be
// built here.
func TestMain(m *testing.M) {
	if os.Getenv("TOKENFIT_WASM") == "" {
		if p, err := modbuild.Build(context.Background(), modbuild.WASIP1, ""); err == nil {
			os.Setenv("TOKENFIT_WASM", p)
		} else {
			fmt.Fprintln(os.Stderr, "tokenfit tests: no wasm module, the wasm runtime cases skip:", err)
		}
	}
	os.Exit(m.Run())
}

type result struct {
	status         int
	stdout, stderr string
}

func tokenfit(t *testing.T, stdin string, args ...string) result {
	t.Helper()
	var out, errOut bytes.Buffer
	st := run(args, strings.NewReader(stdin), &out, &errOut)
	return result{st, out.String(), errOut.String()}
}

// runtimes are the values of --runtime the tests run under.
func runtimes(t *testing.T) []string {
	if os.Getenv("TOKENFIT_WASM") == "" {
		t.Log("no wasm module: native only")
		return []string{"native"}
	}
	return []string{"native", "wasm"}
}

func writeFile(t *testing.T, name, content string) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestCLI_Commands(t *testing.T) {
	a := writeFile(t, "a.txt", "Hello world")
	b := writeFile(t, "b.txt", "Hello world, again")
	seed := `{"contextWindow": 150000, "outputReserve": 8192, "sections": {"system": {"tokens": 1200}, "procedure": {"tokens": 300}, "knowledge": {"tokens": 1500}, "episodes": {"tokens": 400}, "current": {"tokens": 100}}}`
	budgetFile := writeFile(t, "budget.json", seed)
	for _, tc := range []struct {
		name   string
		stdin  string
		args   []string
		status int
		stdout string // exact, or a prefix when it ends in "…"
		stderr string // a substring
	}{
		{"count stdin", "Hello world", []string{"count"}, 0, "2\n", ""},
		{"count encoding", "Hello world", []string{"count", "--encoding", "r50k_base"}, 0, "2\n", ""},
		{"count model", "Hello world", []string{"count", "--model", "gpt-4o"}, 0, "2\n", ""},
		{"count estimate", "Hello world", []string{"count", "--model", "claude-sonnet-4-5"}, 0, "2\n", ""}, // Claude counts English as o200k_base does
		{"count heuristic", "abcdefgh", []string{"count", "--encoding", "chars4"}, 0, "2\n", ""},
		{"count special text", "<|endoftext|>", []string{"count", "--encoding", "cl100k_base"}, 0, "7\n", ""},
		{"count files", "", []string{"count", a, b}, 0, "6\n", ""},
		{"count flags after files", "", []string{"count", a, "--encoding", "cl100k_base", b}, 0, "6\n", ""},
		{"count empty", "", []string{"count"}, 0, "0\n", ""},
		{"count jsonl", "{\"text\": \"Hello world\"}\n\n{\"text\": \"\"}\n", []string{"count", "--jsonl"}, 0, "{\"tokens\":2}\n{\"tokens\":0}\n", ""},
		{"count jsonl file", "", []string{"count", "--jsonl", writeFile(t, "l.jsonl", `{"text": "a b c", "id": 7}`)}, 0, "{\"tokens\":3}\n", ""},
		{"count jsonl bad line", "{\"text\": \"x\"}\n{\"txt\": 1}\n", []string{"count", "--jsonl"}, 1, "{\"tokens\":1}\n", "stdin:2"},
		{"count unknown encoding", "x", []string{"count", "--encoding", "o300k"}, 1, "", "unknown encoding"},
		{"count missing file", "", []string{"count", "/nonexistent/x"}, 1, "", "no such file"},
		{"count both targets", "x", []string{"count", "--encoding", "o200k_base", "--model", "gpt-4o"}, 2, "", "not both"},
		{"encode", "Hello world", []string{"encode"}, 0, `{"ids":[13225,2375],"encoding":"o200k_base","exact":true}` + "\n", ""},
		{"encode file", "", []string{"encode", "--encoding", "cl100k_base", a}, 0, `{"ids":[9906,1917],"encoding":"cl100k_base","exact":true}` + "\n", ""},
		{"encode estimate", "x", []string{"encode", "--model", "claude-sonnet-4-5"}, 1, "", "no public tokenizer"},
		{"decode args", "", []string{"decode", "13225", "2375"}, 0, "Hello world", ""},
		{"decode stdin JSON", "[13225, 2375]", []string{"decode"}, 0, "Hello world", ""},
		{"decode stdin words", "9906 1917\n", []string{"decode", "--encoding", "cl100k_base"}, 0, "Hello world", ""},
		{"decode json", "", []string{"decode", "--json", "13225"}, 0, `{"text":"Hello","valid":true,"encoding":"o200k_base","exact":true}` + "\n", ""},
		{"decode bad id", "", []string{"decode", "999999999"}, 1, "", "invalid token"},
		{"decode not a number", "", []string{"decode", "abc"}, 2, "", "whole numbers"},
		{"decode after --", "", []string{"decode", "--", "13225"}, 0, "Hello", ""},
		{"decode a cut character", "", []string{"decode", "--encoding", "cl100k_base", "9468", "239"}, 0, "\uFFFD", ""},
		{"truncate", "Hello world", []string{"truncate", "--max-tokens", "1"}, 0, "Hello", ""},
		{"truncate end", "Hello world", []string{"truncate", "--max-tokens", "1", "--keep", "end"}, 0, " world", ""},
		{"truncate json", "Hello world", []string{"truncate", "--max-tokens", "5", "--json"}, 0, `{"text":"Hello world","tokens":2,"truncated":false,"encoding":"o200k_base","exact":true}` + "\n", ""},
		{"truncate no max", "x", []string{"truncate"}, 2, "", "--max-tokens"},
		{"truncate bad keep", "x", []string{"truncate", "--max-tokens", "1", "--keep", "middle"}, 1, "", `"start" or "end"`},
		{"chunk", "One. Two. Three. Four.", []string{"chunk", "--max-tokens", "4", "--jsonl"}, 0, `{"text":"One. Two.","start":0,"end":9,"tokens":4,"cut":"sentence"}` + "\n" + `{"text":" Three. Four.","start":9,"end":22,"tokens":4,"cut":"end"}` + "\n", ""},
		{"chunk json", "One.", []string{"chunk", "--max-tokens", "4"}, 0, `{"chunks":[{"text":"One.","start":0,"end":4,"tokens":2,"cut":"end"}],…`, ""},
		{"chunk no max", "x", []string{"chunk"}, 2, "", "--max-tokens"},
		{"chunk heuristic", "x", []string{"chunk", "--max-tokens", "3", "--encoding", "bytes4"}, 1, "", "no token boundaries"},
		{"calibrate", `{"model": "claude-sonnet-4-5", "estimate": 100, "reported": 112}`, []string{"calibrate"}, 0, `{"calibration":{"models":{"claude-sonnet-4-5":{"pairs":1,…`, ""},
		{"calibrate bad", `{"model": "x", "estimate": 0, "reported": 1}`, []string{"calibrate"}, 1, "", "estimate"},
		{"budget stdin", seed, []string{"budget"}, 0, `{"encoding":"o200k_base","exact":true,"contextWindow":150000,…`, ""},
		{"budget file", "", []string{"budget", budgetFile}, 0, `{"encoding":"o200k_base",…`, ""},
		{"budget bad JSON", `{"sections": `, []string{"budget"}, 1, "", "invalid request"},
		{"budget two files", "", []string{"budget", a, b}, 2, "", "at most one FILE"},
		{"models one", "", []string{"models", "--json", "gpt-4o"}, 0, `{"model":{"id":"gpt-4o",…`, ""},
		{"models all", "", []string{"models", "--json"}, 0, `{"catalog":…`, ""},
		{"models table", "", []string{"models", "gpt-4o"}, 0, "MODEL   PROVIDER  WINDOW  OUTPUT  INPUT $/M  CACHED $/M  OUTPUT $/M  COUNTS WITH\ngpt-4o  openai    128000  16384   2.5        1.25        10          o200k_base\n", ""},
		{"models filtered", "", []string{"models", "--provider", "xai", "--min-window", "1000000"}, 0, "MODEL                         PROVIDER  WINDOW   OUTPUT  INPUT $/M  CACHED $/M  OUTPUT $/M  COUNTS WITH\ngrok-4.20-0309-non-reasoning  xai       1000000  30000   1.25       0.2         2.5         estimate:unknown\n…", ""},
		{"models bad window", "", []string{"models", "--min-window", "x"}, 2, "", "min-window"},
		{"price", `{"model": "gpt-4o", "usage": {"prompt_tokens": 1000, "completion_tokens": 100}}`, []string{"price"}, 0, `{"model":"gpt-4o","cost":{"currency":"USD","input":0.0025,"output":0.001,"total":0.0035,…`, ""},
		{"version", "", []string{"version"}, 0, `{"version":"…`, ""},
		{"call", `{"text": "Hello world"}`, []string{"call", "countTokens"}, 0, `{"tokens":2,"upperBound":2,"encoding":"o200k_base","exact":true}` + "\n", ""},
		{"call file", "", []string{"call", "calculateBudget", budgetFile}, 0, `{"encoding":"o200k_base",…`, ""},
		{"call error answer", `{"text": 5}`, []string{"call", "countTokens"}, 1, "", "text: expected string"},
		{"call unknown operation", "", []string{"call", "explode"}, 1, "", "unknown operation"},
		{"call no operation", "", []string{"call"}, 2, "", "give the OPERATION"},
		{"bad runtime", "x", []string{"count", "--runtime", "jvm"}, 2, "", "--runtime must be native or wasm"},
		{"bad flag", "x", []string{"count", "--frobnicate"}, 2, "", "flag provided but not defined"},
	} {
		for _, rt := range runtimes(t) {
			t.Run(tc.name+"/"+rt, func(t *testing.T) {
				args := append([]string{tc.args[0], "--runtime", rt}, tc.args[1:]...)
				r := tokenfit(t, tc.stdin, args...)
				if tc.name == "bad runtime" {
					r = tokenfit(t, tc.stdin, tc.args...)
				}
				if r.status != tc.status {
					t.Errorf("status %d, want %d (stderr %q)", r.status, tc.status, r.stderr)
				}
				if p, ok := strings.CutSuffix(tc.stdout, "…"); ok {
					if !strings.HasPrefix(r.stdout, p) {
						t.Errorf("stdout %.200q, want it to start with %q", r.stdout, p)
					}
				} else if r.stdout != tc.stdout {
					t.Errorf("stdout %q, want %q", r.stdout, tc.stdout)
				}
				if !strings.Contains(r.stderr, tc.stderr) {
					t.Errorf("stderr %q, want it to contain %q", r.stderr, tc.stderr)
				}
				if tc.status == 0 && r.stderr != "" {
					t.Errorf("stderr %q on success", r.stderr)
				}
			})
		}
	}
}

// TestCLI_RuntimesAgree: the same commands print the same bytes natively
// and in wasm, operations core does not have yet included.
func TestCLI_RuntimesAgree(t *testing.T) {
	if len(runtimes(t)) < 2 {
		t.Skip("no wasm module")
	}
	long := strings.Repeat("Tokens, tokens everywhere 🎉 自然语言 ", 300)
	for _, tc := range []struct {
		stdin string
		args  []string
	}{
		{long, []string{"count"}},
		{long, []string{"count", "--encoding", "p50k_base"}},
		{long, []string{"encode", "--model", "gpt-3.5-turbo"}},
		{long, []string{"truncate", "--max-tokens", "33", "--json", "--keep", "end"}},
		{`{"model": "gpt-4o", "messages": [{"role": "user", "content": "Hi"}]}`, []string{"chat"}},
		{`{"items": [{"id": "a", "name": "a", "kind": "constraint", "activation": 0.9, "content": "Be kind."}]}`, []string{"plan"}},
		{`{"model": "gpt-4o", "history": [{"role": "user", "content": "Hi"}]}`, []string{"budget"}},
		{"", []string{"models"}},
	} {
		native := tokenfit(t, tc.stdin, append(tc.args, "--runtime", "native")...)
		wasm := tokenfit(t, tc.stdin, append(tc.args, "--runtime", "wasm")...)
		if native != wasm {
			t.Errorf("%v:\nnative %d %.200q %q\nwasm   %d %.200q %q", tc.args, native.status, native.stdout, native.stderr, wasm.status, wasm.stdout, wasm.stderr)
		}
	}
}

func TestCLI_Usage(t *testing.T) {
	for _, tc := range []struct {
		args   []string
		status int
		out    string
	}{
		{nil, 2, ""},
		{[]string{"help"}, 0, "usage: tokenfit"},
		{[]string{"--help"}, 0, "usage: tokenfit"},
		{[]string{"count", "-h"}, 0, ""},
		{[]string{"frobnicate"}, 2, ""},
	} {
		r := tokenfit(t, "", tc.args...)
		if r.status != tc.status || !strings.Contains(r.stdout, tc.out) {
			t.Errorf("%v: status %d stdout %q, want %d %q", tc.args, r.status, r.stdout, tc.status, tc.out)
		}
	}
}

// TestCLI_TokenBudget: flag > environment > config file > default, for the
// default budget and the dynamic one.
func TestCLI_TokenBudget(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_CONFIG_HOME", dir)
	t.Setenv(EnvConfig, "")
	t.Setenv(EnvTokenBudget, "")
	t.Setenv(EnvTokenBudgetDynamic, "")
	budget := func(req string, flagValue int, flagSet, dynamic bool) string {
		t.Helper()
		out, err := withBudget([]byte(req), flagValue, flagSet, dynamic)
		if err != nil {
			return "error: " + err.Error()
		}
		var m map[string]json.RawMessage
		if json.Unmarshal(out, &m) != nil {
			return string(out)
		}
		return string(m["budget"])
	}
	check := func(name, got, want string) {
		t.Helper()
		if got != want {
			t.Errorf("%s: budget %s, want %s", name, got, want)
		}
	}
	check("default", budget(`{"items": []}`, 0, false, false), "2000")
	check("dynamic default", budget(`{}`, 0, false, true), "500")

	cfg := filepath.Join(dir, "tokenfit", "config.json")
	os.MkdirAll(filepath.Dir(cfg), 0o755)
	os.WriteFile(cfg, []byte(`{"token_budget": {"default": 3000, "dynamic_context": 700}}`), 0o644)
	check("config", budget(`{}`, 0, false, false), "3000")
	check("dynamic config", budget(`{}`, 0, false, true), "700")

	t.Setenv(EnvTokenBudget, "4000")
	t.Setenv(EnvTokenBudgetDynamic, "800")
	check("environment", budget(`{}`, 0, false, false), "4000")
	check("dynamic environment", budget(`{}`, 0, false, true), "800")

	check("flag", budget(`{}`, 5000, true, false), "5000")
	check("flag, dynamic", budget(`{}`, 5000, true, true), "5000")
	check("the request's own", budget(`{"budget": 123}`, 0, false, false), "123")
	check("flag over the request's", budget(`{"budget": 123}`, 5000, true, false), "5000")
	check("not an object", budget(`[1]`, 5000, true, false), "[1]")

	t.Setenv(EnvTokenBudget, "lots")
	check("bad environment", budget(`{}`, 0, false, false), `error: TOKENFIT_TOKEN_BUDGET="lots": want a whole number of tokens`)
	t.Setenv(EnvTokenBudget, "")
	os.WriteFile(cfg, []byte(`{"token_budget": {"default": "x"}}`), 0o644)
	if got := budget(`{}`, 0, false, false); !strings.HasPrefix(got, "error: "+cfg) {
		t.Errorf("bad config: %s", got)
	}
	other := writeFile(t, "other.json", `{"token_budget": {"default": 42}}`)
	t.Setenv(EnvConfig, other)
	t.Setenv(EnvTokenBudgetDynamic, "")
	check("TOKENFIT_CONFIG", budget(`{}`, 0, false, false), "42")
	check("config without dynamic_context", budget(`{}`, 0, false, true), "500")
	t.Setenv(EnvConfig, writeFile(t, "empty.json", " \n"))
	check("an empty config file", budget(`{}`, 0, false, false), "2000")
	t.Setenv(EnvConfig, "/dev/zero")
	check("TOKENFIT_CONFIG=/dev/zero", budget(`{}`, 0, false, false), "error: /dev/zero: more than 1 MiB (1048576 bytes), the most tokenfit reads from it")
	t.Setenv(EnvConfig, other)

	// Through the command: a bad budget is a usage error before any call.
	r := tokenfit(t, `{"items": []}`, "plan", "--token-budget", "-5")
	if r.status != 2 || !strings.Contains(r.stderr, "must not be negative") {
		t.Errorf("plan --token-budget -5: %+v", r)
	}
}

// TestCLI_InvalidUTF8 holds every text command to one rule for bytes that
// are not UTF-8 (each becomes U+FFFD first, as core.ValidUTF8 says): count,
// encode, truncate and chunk agree, in both runtimes.
func TestCLI_InvalidUTF8(t *testing.T) {
	for _, rt := range runtimes(t) {
		for _, text := range []string{"\x80\x80\x80", "caf\xc3", "a\xffb \xe2\x82 end", "\xed\xa0\x80 x"} {
			count := tokenfit(t, text, "count", "--runtime", rt)
			var enc struct{ IDs []int }
			if err := json.Unmarshal([]byte(tokenfit(t, text, "encode", "--runtime", rt).stdout), &enc); err != nil {
				t.Fatal(err)
			}
			var cut struct{ Tokens int }
			if err := json.Unmarshal([]byte(tokenfit(t, text, "truncate", "--max-tokens", "100", "--json", "--runtime", rt).stdout), &cut); err != nil {
				t.Fatal(err)
			}
			want := fmt.Sprintf("%d\n", len(enc.IDs))
			if count.stdout != want || cut.Tokens != len(enc.IDs) {
				t.Errorf("%s %q: count %q, encode %d ids, truncate %d tokens", rt, text, count.stdout, len(enc.IDs), cut.Tokens)
			}
		}
	}
}

// zeros is an endless input.
type zeros struct{}

func (zeros) Read(p []byte) (int, error) {
	clear(p)
	return len(p), nil
}

func TestCLI_ReadLimits(t *testing.T) {
	if b, err := readAll(strings.NewReader("12345"), "stdin", 5); err != nil || string(b) != "12345" {
		t.Errorf("at the limit: %q, %v", b, err)
	}
	if _, err := readAll(zeros{}, "stdin", 1000); err == nil || err.Error() != "stdin: more than 1000 bytes, the most tokenfit reads from it" {
		t.Errorf("past the limit: %v", err)
	}
}

// TestMemory_StdinLimit: an endless stdin is refused after 1 GiB, in both
// runtimes, with the limit in the message (make test-long: it reads 1 GiB).
func TestMemory_StdinLimit(t *testing.T) {
	if os.Getenv("TOKENFIT_LONG") != "1" {
		t.Skip("make test-long: reads 1 GiB")
	}
	for _, rt := range runtimes(t) {
		var out, errOut bytes.Buffer
		st := run([]string{"count", "--runtime", rt}, zeros{}, &out, &errOut)
		if st != 1 || !strings.Contains(errOut.String(), "stdin: more than 1 GiB (1073741824 bytes)") {
			t.Errorf("%s: status %d, %s", rt, st, errOut.String())
		}
	}
}
