package boundary

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"testing"

	"github.com/tokenfit/tokenfit/core/engine"
)

func TestAppendJSONString_AsEncodingJSON(t *testing.T) {
	for _, s := range []string{"", "plain", `q"b\s`, "\n\r\t\x00\x1f\x7f", "é 你好 😀", "\u2028\u2029", "bad \xff\xe4\xbd end", "<&>"} {
		var back string
		b := AppendJSONString(nil, s)
		if err := json.Unmarshal(b, &back); err != nil {
			t.Fatalf("%q: %s is not JSON: %v", s, b, err)
		}
		want, _ := json.Marshal(s)
		var wantBack string
		json.Unmarshal(want, &wantBack)
		if back != wantBack {
			t.Errorf("%q: decodes to %q, encoding/json's to %q", s, back, wantBack)
		}
	}
}

func TestAppendErrorJSON(t *testing.T) {
	got := string(AppendErrorJSON(nil, engine.CodeInvalidRequest, `bad "x"`, "at", ""))
	want := `{"error":{"code":"invalid_request","message":"bad \"x\"","field":"at"}}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := string(AppendErrorJSON(nil, engine.CodeInternal, "m", "", "")); got != `{"error":{"code":"internal","message":"m"}}` {
		t.Errorf("without field: %s", got)
	}
	if got := string(AppendErrorJSON(nil, engine.CodeEncodingNotLoaded, "m", "", "p50k_base")); got != `{"error":{"code":"encoding_not_loaded","message":"m","encoding":"p50k_base"}}` {
		t.Errorf("with encoding: %s", got)
	}
}

// TestStatus_ABI holds wasm/ABI.md's status table to core/engine's table of
// codes, row for row.
func TestStatus_ABI(t *testing.T) {
	doc, err := os.ReadFile("../../ABI.md")
	if err != nil {
		t.Fatal(err)
	}
	rows := regexp.MustCompile("(?m)^\\| (-\\d+) \\| `([a-z_]+)` \\|").FindAllStringSubmatch(string(doc), -1)
	var got []string
	for i, r := range rows {
		if want := fmt.Sprint(-(i + 1)); r[1] != want {
			t.Errorf("ABI.md row %d has status %s, want %s", i+1, r[1], want)
		}
		if Status(r[2]) != int32(-(i + 1)) {
			t.Errorf("ABI.md: %s is %s, core/engine says %d", r[2], r[1], Status(r[2]))
		}
		got = append(got, r[2])
	}
	if !slices.Equal(got, engine.Codes()) {
		t.Errorf("ABI.md lists %v, core/engine %v", got, engine.Codes())
	}
	if Status("nope") != -1 {
		t.Error("an unknown code is not internal")
	}
}
