package host_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host/internal/modbuild"
)

// jsDriver loads the GOOS=js module in Node with Go's wasm_exec.js, loads
// the tables named on the command line, then answers one JSON line per
// request on stdin: {"op", "req"} → the call's answer; {"count",
// "encoding"} → {"n", "err"}; {"raw": "bad"} → the answers to calls with
// arguments of the wrong type.
const jsDriver = `
import { readFileSync } from 'node:fs';
import { createInterface } from 'node:readline';
const [wasmExec, wasm, ...tables] = process.argv.slice(2);
await import(wasmExec);
const go = new Go();
const { instance } = await WebAssembly.instantiate(readFileSync(wasm), go.importObject);
go.run(instance);
const tf = globalThis.__tokenfit;
const out = [];
out.push(JSON.stringify({ abi: tf.abiVersion, version: tf.version }));
out.push(tf.loadTable(new Uint8Array([1, 2, 3])));
out.push(tf.loadTable('not bytes'));
for (const t of tables) out.push(tf.loadTable(new Uint8Array(readFileSync(t))));
for await (const line of createInterface({ input: process.stdin })) {
  const r = JSON.parse(line);
  if (r.op !== undefined) out.push(tf.call(r.op, r.req));
  else if (r.count !== undefined) { const n = tf.count(r.encoding, r.count); out.push(JSON.stringify({ n, err: n < 0 ? JSON.parse(tf.lastError()).error.code : '' })); }
  else out.push(JSON.stringify([tf.call(), tf.call(5, '{}'), tf.call('version', 7), tf.count(), tf.count('o200k_base', 7), tf.lastError(), tf.lastError()]));
}
console.log(out.join('\n'));
`

// TestJSModule runs the GOOS=js module under Node: the same answers as
// core natively for the parity requests, counts through count(), and bad
// arguments answered as errors by a module that keeps working.
func TestJSModule(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH")
	}
	wasm, err := modbuild.Build(context.Background(), modbuild.JS, "")
	if err == modbuild.ErrNoToolchain {
		t.Skip(err)
	} else if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	driver := filepath.Join(dir, "driver.mjs")
	if err := os.WriteFile(driver, []byte(jsDriver), 0o644); err != nil {
		t.Fatal(err)
	}
	args := []string{driver, filepath.Join(runtime.GOROOT(), "lib", "wasm", "wasm_exec.js"), wasm}
	for _, name := range core.EncodingNames() {
		p := filepath.Join(dir, name+".tkt")
		os.WriteFile(p, core.EncodingTable(name), 0o644)
		args = append(args, p)
	}
	for _, name := range core.EncodingNames() {
		if _, err := core.GetEncoding(name); err != nil {
			t.Fatal(err)
		}
	}

	// The GOOS=js module has no catalog until it is given one, as the npm
	// package gives it; native core reads its own on first use.
	calls := append([]call{{"loadCatalog", string(core.CatalogJSON())}}, representative()...)
	for _, op := range core.OperationNames() {
		calls = append(calls, call{op, `{"text": `})
	}
	counts := []struct{ text, encoding string }{
		{"Hello world", "o200k_base"}, {"<|endoftext|>", "cl100k_base"}, {"", "r50k_base"},
		{strings.Repeat("自然语言 🎉 ", 50), "p50k_base"}, {"x", "o300k"},
	}
	var in bytes.Buffer
	enc := json.NewEncoder(&in)
	for _, c := range calls {
		enc.Encode(map[string]string{"op": c.op, "req": c.req})
	}
	for _, c := range counts {
		enc.Encode(map[string]string{"count": c.text, "encoding": c.encoding})
	}
	enc.Encode(map[string]string{"raw": "bad"})
	cmd := exec.Command(node, args...)
	cmd.Stdin = &in
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(bytes.NewReader(out))
	sc.Buffer(nil, 64<<20)
	next := func() string {
		t.Helper()
		if !sc.Scan() {
			t.Fatal("the driver answered fewer lines than asked")
		}
		return sc.Text()
	}
	if got, want := next(), `{"abi":1,"version":"`+core.Version+`"}`; got != want {
		t.Errorf("globals: %s, want %s", got, want)
	}
	if got := next(); !strings.Contains(got, `"code":"invalid_table"`) {
		t.Errorf("loadTable(garbage) = %s", got)
	}
	if got := next(); !strings.Contains(got, `"code":"invalid_argument"`) {
		t.Errorf("loadTable(string) = %s", got)
	}
	for _, name := range core.EncodingNames() {
		if got, want := next(), `{"encoding":"`+name+`"}`; got != want {
			t.Errorf("loadTable(%s) = %s", name, got)
		}
	}
	api := core.NewAPI()
	for _, c := range calls {
		if got, want := next(), string(api.Call(c.op, []byte(c.req))); got != want {
			t.Errorf("%s %.100s\n js     %.300s\n native %.300s", c.op, c.req, got, want)
		}
	}
	for _, c := range counts {
		var got struct {
			N   int
			Err string
		}
		json.Unmarshal([]byte(next()), &got)
		e, err := core.GetEncoding(c.encoding)
		switch {
		case err != nil && got.Err != core.Code(err):
			t.Errorf("count(%s): %+v, want error %s", c.encoding, got, core.Code(err))
		case err == nil && got.N != e.Count(c.text):
			t.Errorf("count(%s, %.20q) = %+v, want %d", c.encoding, c.text, got, e.Count(c.text))
		}
	}
	var bad []any
	if err := json.Unmarshal([]byte(next()), &bad); err != nil || len(bad) != 7 {
		t.Fatalf("bad arguments: %v %v", bad, err)
	}
	for i, want := range []string{`"code":"invalid_argument"`, `"code":"invalid_argument"`, `"code":"invalid_argument"`} {
		if s, _ := bad[i].(string); !strings.Contains(s, want) {
			t.Errorf("bad call %d answered %v", i, bad[i])
		}
	}
	if bad[3] != -2.0 || bad[4] != -2.0 {
		t.Errorf("count with bad arguments: %v, %v; want -2", bad[3], bad[4])
	}
	if s, _ := bad[5].(string); !strings.Contains(s, "text must be a string") || bad[6] != "" {
		t.Errorf("lastError: %q then %q", bad[5], bad[6])
	}
}
