package boundary

import (
	"encoding/json"
	"testing"
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
	got := string(AppendErrorJSON(nil, CodeInvalidRequest, `bad "x"`, "at"))
	want := `{"error":{"code":"invalid_request","message":"bad \"x\"","field":"at"}}`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
	if got := string(AppendErrorJSON(nil, CodeInternal, "m", "")); got != `{"error":{"code":"internal","message":"m"}}` {
		t.Errorf("without field: %s", got)
	}
}

func TestStatus(t *testing.T) {
	for i := int32(1); i <= 9; i++ {
		if c := StatusCode(-i); Status(c) != -i {
			t.Errorf("status %d: code %q maps back to %d", -i, c, Status(c))
		}
	}
	if Status("nope") != -1 || StatusCode(0) != "" || StatusCode(-10) != "" {
		t.Error("unknown codes and statuses")
	}
}
