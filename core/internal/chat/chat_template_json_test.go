package chat

import (
	"encoding/json"
	"os"
	"testing"
)

// TestPythonJSON holds tojson's printing (appendPyJSON, and appendIndented
// of it for indent=4) to Python's json.loads then json.dumps on 400 objects that
// repeat keys (core/testdata/python-json.json, made by python-json.py): a key
// once, where it first appears, with its last value; "\u0061" is "a". Before
// repeated keys were collapsed, every member was printed.
func TestPythonJSON(t *testing.T) {
	b, err := os.ReadFile("../../testdata/python-json.json")
	if err != nil {
		t.Fatal(err)
	}
	var f struct {
		Cases []struct{ JSON, Dumps, Indent string }
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	for _, c := range f.Cases {
		tr := &templateRender{}
		if got := string(tr.appendPyJSON(nil, []byte(c.JSON))); got != c.Dumps {
			t.Errorf("%s\n got %s\nwant %s", c.JSON, got, c.Dumps)
		}
		if got := string(appendIndented(nil, tr.appendPyJSON(nil, []byte(c.JSON)), 0)); got != c.Indent { // as toolJSONIndent prints
			t.Errorf("%s indent=4\n got %s\nwant %s", c.JSON, got, c.Indent)
		}
	}
	if len(f.Cases) < 400 {
		t.Errorf("%d cases", len(f.Cases))
	}
}
