package postlink

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// program grows its stack, collects garbage from a deep stack (which reads
// the stack maps), prints its stack with runtime.Stack, recovers a panic
// and then dies of one, so that its output shows every use the runtime
// makes of the function table.
const program = `package main

import (
	"os"
	"runtime"
)

var sink [][]byte

func deep(n int) int {
	var b [64]byte
	b[n%64] = byte(n)
	sink = append(sink, make([]byte, 100))
	if n == 0 {
		runtime.GC()
		return int(b[0])
	}
	return deep(n-1) + int(b[n%64])
}

func recovered() (s string) {
	defer func() { s = recover().(error).Error() }()
	var m map[string]int
	m["x"] = 1
	return ""
}

func main() {
	println("deep", deep(20000))
	buf := make([]byte, 1<<16)
	os.Stdout.Write(buf[:runtime.Stack(buf, false)])
	println("recovered", recovered())
	sink = nil
	panic("the end")
}
`

// build builds program (GOOS=wasip1) and returns the module, or skips the
// test without a go command.
func build(t *testing.T) []byte {
	t.Helper()
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	dir := t.TempDir()
	for name, text := range map[string]string{"go.mod": "module p\n\ngo 1.24\n", "main.go": program} {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	cmd := exec.Command(goCmd, "build", "-trimpath", "-ldflags=-s -w -buildid=", "-o", "p.wasm", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOOS=wasip1", "GOARCH=wasm")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	m, err := os.ReadFile(filepath.Join(dir, "p.wasm"))
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// execute runs a wasip1 program in wazero: its exit code and output.
func execute(t *testing.T, m []byte) (int, string) {
	t.Helper()
	ctx := context.Background()
	r := wazero.NewRuntime(ctx)
	defer r.Close(ctx)
	wasi_snapshot_preview1.MustInstantiate(ctx, r)
	var out bytes.Buffer
	_, err := r.InstantiateWithConfig(ctx, m, wazero.NewModuleConfig().WithStdout(&out).WithStderr(&out))
	var exit *sys.ExitError
	if !errors.As(err, &exit) {
		t.Fatalf("the program did not exit: %v", err)
	}
	return int(exit.ExitCode()), out.String()
}

func TestStripLines(t *testing.T) {
	in := build(t)
	out, err := StripLines(in)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := StripLines(out); err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second StripLines changed the module (err %v)", err)
	}
	merged, err := Apply(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) >= len(in) {
		t.Errorf("StripLines: %d bytes, %d before", len(out), len(in))
	}
	codeBefore, before := execute(t, in)
	for _, m := range [][]byte{out, merged} {
		code, after := execute(t, m)
		if code != codeBefore || code != 2 {
			t.Errorf("exit code %d, %d before (want 2)", code, codeBefore)
		}
		// The same output but for files and lines: "\t/path/x.go:12 +0x3" → "\t?:0 +0x3".
		if !strings.Contains(before, "main.go:") || strings.Contains(after, ".go:") {
			t.Errorf("before:\n%s\nafter:\n%s", before, after)
		}
		var want []string
		for line := range strings.Lines(before) {
			if i := strings.Index(line, "\t"); i == 0 {
				rest := line[strings.Index(line, ".go:")+4:]
				line = "\t?:0" + strings.TrimLeft(rest, "0123456789")
			}
			want = append(want, line)
		}
		if got := after; got != strings.Join(want, "") {
			t.Errorf("output:\n%s\nwant:\n%s", got, strings.Join(want, ""))
		}
	}
}

func TestStripLines_Unsupported(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"no code", module([]segment{{offset: 10, data: []byte(pcHeaderMagic)}})},
		{"no function table", append(module([]segment{{offset: 10, data: []byte("abc")}}), sec(sectionCode, 0)...)},
		{"a header alone", append(module([]segment{{offset: 10, data: []byte(pcHeaderMagic + "\x00")}}), sec(sectionCode, 0)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := StripLines(tc.in); !errors.Is(err, ErrUnsupported) {
				t.Errorf("err = %v, want ErrUnsupported", err)
			}
		})
	}
}

func TestSplit(t *testing.T) {
	z := func(n int) string { return string(make([]byte, n)) }
	for _, tc := range []struct {
		data string
		want []segment
	}{
		{"ab" + z(MaxGap) + "c", []segment{{100, []byte("ab" + z(MaxGap) + "c")}}},
		{"ab" + z(MaxGap+1) + "c", []segment{{100, []byte("ab")}, {100 + 2 + MaxGap + 1, []byte("c")}}},
		{z(MaxGap+1) + "a" + z(MaxGap+1), []segment{{100 + MaxGap + 1, []byte("a")}}},
		{z(3) + "a" + z(3), []segment{{100, []byte(z(3) + "a" + z(3))}}},
		{z(MaxGap + 1), nil},
	} {
		got := split([]byte(tc.data), 100)
		if len(got) != len(tc.want) {
			t.Errorf("split(%q) = %v, want %v", tc.data, got, tc.want)
			continue
		}
		for i := range got {
			if got[i].offset != tc.want[i].offset || !bytes.Equal(got[i].data, tc.want[i].data) {
				t.Errorf("split(%q) = %v, want %v", tc.data, got, tc.want)
			}
		}
	}
}
