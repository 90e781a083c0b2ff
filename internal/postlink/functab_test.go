package postlink

import (
	"bytes"
	"context"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"
	"github.com/tetratelabs/wazero/imports/wasi_snapshot_preview1"
	"github.com/tetratelabs/wazero/sys"
)

// program grows its stack, collects garbage from a deep stack (which reads
// the stack maps), prints its stack with runtime.Stack from an inlined
// call, recovers a panic and then dies of one, so that its output shows
// every use the runtime makes of the function table.
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

// stack is inlined into main: its frame is one of the inlined calls a
// traceback expands.
func stack(buf []byte) int { return runtime.Stack(buf, false) }

func main() {
	println("deep", deep(20000))
	buf := make([]byte, 1<<16)
	os.Stdout.Write(buf[:stack(buf)])
	println("recovered", recovered())
	sink = nil
	die(7)
}

//go:noinline
func die(n int) { panic(n) }
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

// TestStrip: the program stripped (and pre-initialised or merged, as Apply
// does) prints what it printed before but for what Strip drops: files and
// lines ("\t/path/x.go:12 +0x3" → "\t?:0 +0x3"), inlined calls' frames, and
// arguments ("main.deep(0x4e20)" → "main.deep()").
func TestStrip(t *testing.T) {
	in := build(t)
	out, err := Strip(in)
	if err != nil {
		t.Fatal(err)
	}
	if again, err := Strip(out); err != nil || !bytes.Equal(again, out) {
		t.Errorf("a second Strip changed the module (err %v)", err)
	}
	merged, err := Apply(context.Background(), in)
	if err != nil {
		t.Fatal(err)
	}
	if len(out) >= len(in) {
		t.Errorf("Strip: %d bytes, %d before", len(out), len(in))
	}
	codeBefore, before := execute(t, in)
	if !strings.Contains(before, "main.go:") || !strings.Contains(before, "main.stack(...)") || !strings.Contains(before, "main.die(0x7)") {
		t.Fatalf("the program's output lacks a file, an inlined call or an argument:\n%s", before)
	}
	var want strings.Builder
	lines := slices.Collect(strings.Lines(before))
	for i := 0; i < len(lines); i++ {
		line := lines[i]
		if i+1 < len(lines) && strings.HasPrefix(lines[i+1], "\t") { // a frame: its function, then its place
			if strings.HasSuffix(line, "(...)\n") {
				i++ // an inlined call
				continue
			}
			line = line[:strings.LastIndex(line, "(")] + "()\n"
		}
		if strings.HasPrefix(line, "\t") {
			rest := line[strings.Index(line, ".go:")+4:]
			line = "\t?:0" + strings.TrimLeft(rest, "0123456789")
		}
		want.WriteString(line)
	}
	for _, m := range [][]byte{out, merged} {
		code, after := execute(t, m)
		if code != codeBefore || code != 2 {
			t.Errorf("exit code %d, %d before (want 2)", code, codeBefore)
		}
		if after != want.String() {
			t.Errorf("output:\n%s\nwant:\n%s\nbefore:\n%s", after, want.String(), before)
		}
	}
}

// TestStrip_ABI: the indexes of the pc-value tables and funcdata Strip
// drops are the toolchain's (internal/abi), and moduledata's fields up to
// gofunc are where Strip reads them (runtime/symtab.go): a Go release that
// changes either fails here rather than in a module whose stack maps were
// dropped.
func TestStrip_ABI(t *testing.T) {
	goCmd, err := exec.LookPath("go")
	if err != nil {
		t.Skip("no go command")
	}
	root, err := exec.Command(goCmd, "env", "GOROOT").Output()
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range []string{"internal/abi/symtab.go", "internal/abi/type.go", "runtime/symtab.go"} {
		b, err := os.ReadFile(filepath.Join(strings.TrimSpace(string(root)), "src", f))
		if err != nil {
			t.Fatal(err)
		}
		src = append(src, b...)
	}
	// moduledata's fields, without comments and with single spaces: 8-byte
	// pointers and 24-byte slices up to gofunc at mdGofunc.
	md := regexp.MustCompile(`(?s)type moduledata struct \{(.*?)\n\}`).FindSubmatch(src)
	if md == nil {
		t.Fatal("no moduledata in runtime/symtab.go")
	}
	fields := strings.Join(strings.Fields(regexp.MustCompile(`//[^\n]*`).ReplaceAllString(string(md[1]), "")), " ")
	const want = "sys.NotInHeap pcHeader *pcHeader funcnametab []byte cutab []uint32 filetab []byte pctab []byte pclntable []byte ftab []functab findfunctab uintptr minpc, maxpc uintptr text, etext uintptr noptrdata, enoptrdata uintptr data, edata uintptr bss, ebss uintptr noptrbss, enoptrbss uintptr covctrs, ecovctrs uintptr end, gcdata, gcbss uintptr types, etypes uintptr rodata uintptr gofunc uintptr epclntab uintptr "
	if !strings.HasPrefix(fields+" ", want) || mdFuncnametab != 8 || mdPctab != 8+3*24 || mdFtab != 8+5*24 || mdRodata != 8+6*24+20*8 || mdGofunc != mdRodata+8 || mdEpclntab != mdGofunc+8 {
		t.Errorf("moduledata's fields are not where Strip reads them:\n%s", fields)
	}
	for name, want := range map[string]int{
		"PCDATA_UnsafePoint": pcdataUnsafePoint, "PCDATA_InlTreeIndex": pcdataInlTreeIndex, "PCDATA_ArgLiveIndex": pcdataArgLiveIndex,
		"FUNCDATA_InlTree": funcdataInlTree, "FUNCDATA_ArgInfo": funcdataArgInfo, "FUNCDATA_ArgLiveInfo": funcdataArgLiveInfo,
		"TraceArgsEndSeq": argInfoEnd, "TraceArgsOffsetTooLarge": argInfoNoSize,
	} {
		m := regexp.MustCompile(`\b` + name + `\s*=\s*(0x[0-9a-fA-F]+|\d+)`).FindSubmatch(src)
		if m == nil {
			t.Errorf("%s is not in internal/abi", name)
			continue
		}
		if got, _ := strconv.ParseInt(string(m[1]), 0, 64); int(got) != want {
			t.Errorf("%s = %d in internal/abi, %d here", name, got, want)
		}
	}
}

func TestStrip_Unsupported(t *testing.T) {
	for _, tc := range []struct {
		name string
		in   []byte
	}{
		{"no code", module([]segment{{offset: 10, data: []byte(pcHeaderMagic)}})},
		{"no function table", append(module([]segment{{offset: 10, data: []byte("abc")}}), sec(sectionCode, 0)...)},
		{"a header alone", append(module([]segment{{offset: 10, data: []byte(pcHeaderMagic + "\x00")}}), sec(sectionCode, 0)...)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Strip(tc.in); !errors.Is(err, ErrUnsupported) {
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
