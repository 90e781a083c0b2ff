package core

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/tokenfit/tokenfit/internal/hostile"
)

// TestMarshal_AsEncodingJSON checks the generated encoder (json_gen.go)
// against encoding/json on the answer of every hostile case, every budget
// and plan vector and the answers without a request: the same bytes.
func TestMarshal_AsEncodingJSON(t *testing.T) {
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	type call struct {
		op   string
		body []byte
	}
	var calls []call
	for _, s := range f.Setup {
		calls = append(calls, call{s.Op, s.Request})
	}
	for _, c := range f.Cases {
		if c.Op != "count" && !c.Huge {
			calls = append(calls, call{c.Op, c.Bytes(f.Scale)})
		}
	}
	for _, name := range []string{"budget", "plan"} {
		vs, err := hostile.Vectors(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, v := range vs {
			calls = append(calls, call{v.Op, v.Request})
		}
	}
	for _, op := range []string{"models", "encodings", "version"} {
		calls = append(calls, call{op, []byte("{}")})
	}
	calls = append(calls, call{"models", []byte(`{"model": "gpt-4o"}`)}, call{"models", []byte(`{"model": "claude-x"}`)},
		call{"liveGet", []byte(`{"id": 1}`)}, call{"liveFree", []byte(`{"id": 1}`)})
	a := NewAPI()
	answers := 0
	for _, c := range calls {
		h, ok := operations[c.op]
		if !ok {
			continue
		}
		v, err := h(a, c.body)
		if err != nil {
			v = ErrorAnswer{ErrorBody{Code: Code(err), Message: err.Error()}}
		}
		got, err := marshal(v)
		if err != nil {
			t.Errorf("%s %.100s: %v", c.op, c.body, err)
			continue
		}
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(false)
		if err := enc.Encode(v); err != nil {
			t.Fatal(err)
		}
		if w := bytes.TrimSuffix(want.Bytes(), []byte("\n")); !bytes.Equal(got, w) {
			t.Errorf("%s %.100s:\n got %.2000s\nwant %.2000s", c.op, c.body, got, w)
		}
		answers++
	}
	t.Logf("%d answers", answers)
}
