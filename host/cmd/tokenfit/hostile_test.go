package main

import (
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// The hostile cases of testdata/hostile through the CLI: `tokenfit call OP`
// for the JSON operations and `tokenfit count --encoding E` for the fast
// path, in this process (run) and as a subprocess, on both runtimes. Every
// invocation starts from nothing (a fresh API, or a fresh module), so each
// is held to what a fresh core.API answers: the answer on stdout with
// status 0, or the error's message on stderr with status 1. In-process, the
// probe runs after every case: the process keeps working.
//
// make test runs every case natively in process and the first case of each
// class on the slower paths (a wasm invocation compiles and loads all four
// tables: about 0.15 s); TOKENFIT_LONG=1 (make test-long) runs them all
// everywhere.

// setupDependent operations act on live counters the setup made: a fresh
// invocation has none, so only the fresh answer is compared.
var setupDependent = []string{"liveEdit", "liveGet", "liveFree"}

type cliCase struct {
	c     hostile.Case
	args  []string
	stdin []byte
	want  []byte // a fresh core's answer
}

// cliCases turns the cases into command lines, leaving out those the CLI
// spells differently: a fast-path count whose encoding is not an exact one
// (the CLI reads "" as the default and counts heuristics).
func cliCases(t *testing.T, all bool) []cliCase {
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	scale := f.Scale
	if hostile.Full() {
		scale = 1
	}
	var out []cliCase
	seen := map[string]bool{}
	for _, c := range f.Cases {
		first := !seen[c.Class]
		seen[c.Class] = true
		if !all && !first {
			continue
		}
		body := c.Bytes(scale)
		cc := cliCase{c: c, stdin: body}
		if c.Op == "count" {
			if !slices.Contains(core.EncodingNames(), c.Encoding) {
				continue
			}
			cc.args = []string{"count", "--encoding", c.Encoding}
			e, _ := core.GetEncoding(c.Encoding)
			cc.want = hostile.CountAnswer(e.Count(string(body)))
		} else {
			cc.args = []string{"call", c.Op}
			cc.want = core.NewAPI().Call(c.Op, body)
			if !slices.Contains(setupDependent, c.Op) {
				if err := c.Check(cc.want); err != nil {
					t.Errorf("%s: natively: %v", c.Name, err)
				}
			}
		}
		out = append(out, cc)
	}
	return out
}

// judge holds one invocation's output to the fresh answer.
func (cc cliCase) judge(t *testing.T, name string, r result) {
	t.Helper()
	var answer struct {
		Tokens *int `json:"tokens"`
		Error  *core.ErrorBody
	}
	json.Unmarshal(cc.want, &answer)
	switch {
	case cc.c.Op == "encodings":
		// What a process has loaded is its own: a native subprocess has
		// loaded nothing yet, the wasm runtime all four. The case's own
		// expectation holds instead.
		if err := cc.c.Check([]byte(r.stdout)); r.status != 0 || r.stderr != "" || err != nil {
			t.Errorf("%s: %s: status %d, stdout %.300q, stderr %.300q: %v", name, cc.c.Name, r.status, r.stdout, r.stderr, err)
		}
	case answer.Error != nil:
		msg := "tokenfit: " + strings.TrimPrefix(answer.Error.Message, "tokenfit: ") + "\n"
		if r.status != 1 || r.stdout != "" || r.stderr != msg {
			t.Errorf("%s: %s: status %d, stdout %.200q, stderr %.300q; want status 1 and %.300q", name, cc.c.Name, r.status, r.stdout, r.stderr, msg)
		}
	default:
		want := string(cc.want) + "\n"
		if cc.c.Op == "count" {
			want = strings.TrimSuffix(strings.TrimPrefix(want, `{"tokens":`), "}\n") + "\n"
		}
		if r.status != 0 || r.stdout != want || r.stderr != "" {
			t.Errorf("%s: %s: status %d, stdout %.300q, stderr %.300q; want %.300q", name, cc.c.Name, r.status, r.stdout, r.stderr, want)
		}
	}
}

func long() bool { return os.Getenv("TOKENFIT_LONG") == "1" }

// TestHostile_CLI runs the cases through run, in this process.
func TestHostile_CLI(t *testing.T) {
	for _, rt := range runtimes(t) {
		t.Run(rt, func(t *testing.T) {
			cases := cliCases(t, rt == "native" || long())
			for _, cc := range cases {
				args := append([]string{cc.args[0], "--runtime", rt}, cc.args[1:]...)
				var out, errOut bytes.Buffer
				st := run(args, bytes.NewReader(cc.stdin), &out, &errOut)
				cc.judge(t, "in process "+rt, result{st, out.String(), errOut.String()})
				if p := tokenfit(t, "Hello world", "count", "--runtime", rt); p.status != 0 || p.stdout != "2\n" {
					t.Fatalf("after %s: count = %d %q %q", cc.c.Name, p.status, p.stdout, p.stderr)
				}
			}
			t.Logf("%d cases", len(cases))
		})
	}
}

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// binary builds the CLI once into a temporary directory.
func binary(t *testing.T) string {
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "tokenfit-cli")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "tokenfit")
		out, err := exec.Command("go", "build", "-o", binPath, ".").CombinedOutput()
		if err != nil {
			binErr = err
			t.Logf("%s", out)
		}
	})
	if binErr != nil {
		t.Skip("cannot build the CLI:", binErr)
	}
	return binPath
}

// TestHostile_CLISubprocess runs the cases through the built binary, one
// process each.
func TestHostile_CLISubprocess(t *testing.T) {
	bin := binary(t)
	t.Cleanup(func() { os.RemoveAll(filepath.Dir(bin)) })
	for _, rt := range runtimes(t) {
		t.Run(rt, func(t *testing.T) {
			cases := cliCases(t, long())
			n := 0
			for _, cc := range cases {
				if slices.ContainsFunc(cc.args, func(a string) bool { return strings.ContainsRune(a, 0) }) {
					continue // an argument cannot hold a NUL
				}
				args := append([]string{cc.args[0], "--runtime", rt}, cc.args[1:]...)
				cmd := exec.CommandContext(context.Background(), bin, args...)
				cmd.Stdin = bytes.NewReader(cc.stdin)
				var out, errOut bytes.Buffer
				cmd.Stdout, cmd.Stderr = &out, &errOut
				err := cmd.Run()
				st := 0
				if ee, ok := err.(*exec.ExitError); ok {
					st = ee.ExitCode()
				} else if err != nil {
					t.Fatal(err)
				}
				cc.judge(t, "subprocess "+rt, result{st, out.String(), errOut.String()})
				n++
			}
			t.Logf("%d cases", n)
		})
	}
}
