package core

import (
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"reflect"
	"strings"
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
			calls = append(calls, call{v.Op, v.Bytes()})
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
		v, err := h(a, a.Registry(), c.body)
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

// TestDecode_AsEncodingJSON checks the generated decoders
// (json_decode_gen.go) against encoding/json: for every hostile case and
// every request cut short, broken or with a byte inserted at each offset,
// the same value or the same error message as json.Unmarshal gave, named
// as decodeJSON named it when it called json.Unmarshal.
func TestDecode_AsEncodingJSON(t *testing.T) {
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	requests := map[string]func() any{
		"countTokens": func() any { return new(CountRequest) }, "encode": func() any { return new(CountRequest) },
		"decode": func() any { return new(DecodeRequest) }, "withinLimit": func() any { return new(LimitRequest) },
		"truncate": func() any { return new(TruncateRequest) }, "calculateBudget": func() any { return new(BudgetRequest) },
		"countChat": func() any { return new(chatExtra) }, "chunk": func() any { return new(ChunkRequest) },
		"calibrate": func() any { return new(CalibrateRequest) }, "planInjection": func() any { return new(PlanCall) },
		"liveNew": func() any { return new(LiveNewRequest) }, "liveEdit": func() any { return new(LiveEditRequest) },
		"liveGet": func() any { return new(LiveRequest) }, "models": func() any { return new(ModelsRequest) },
		"registerModels": func() any { return new(registryFile) }, "priceUsage": func() any { return new(UsageRequest) },
		"loadCatalog": func() any { return new(registryFile) },
	}
	type call struct {
		op   string
		body string
	}
	var calls []call
	for _, c := range f.Cases {
		if !c.Huge {
			calls = append(calls, call{c.Op, string(c.Bytes(f.Scale))})
		}
	}
	for _, b := range hostile.Bases {
		body := b.Request
		for i := range len(body) {
			calls = append(calls, call{b.Op, body[:i]}, call{b.Op, body[:i] + "x" + body[i:]}, call{b.Op, body[:i] + "}" + body[i:]},
				call{b.Op, body[:i] + `"` + body[i:]}, call{b.Op, body[:i] + "1" + body[i:]})
		}
		calls = append(calls, call{b.Op, strings.ToUpper(body)}, call{b.Op, body + " x"})
	}
	overrides, err := os.ReadFile("registry/overrides.json")
	if err != nil {
		t.Fatal(err)
	}
	calls = append(calls, call{"registerModels", string(overrides)})
	for _, body := range []string{`[]`, `3`, `"x"`, `null`, `{"ids": [1.5, null]}`, `{"limit": 1e3}`, `{"id": 9223372036854775808}`,
		`{"thresholds": {"full": "x"}}`, `{"thresholds": null}`, `{"session": {"config": {"minGap": "x"}}}`, `{"sections": {"system": {"TOKENS": "5"}}}`,
		`{"sections": {"system": {"tokens": "5x"}}}`, `{"sections": []}`, `{"items": [{"tier": 5}]}`, `{"items": [{"tier": null}]}`} {
		for op := range requests {
			calls = append(calls, call{op, body})
		}
	}
	for _, c := range calls {
		mk, ok := requests[c.op]
		if !ok {
			continue
		}
		got, want := mk(), mk()
		gotErr := decodeJSON([]byte(c.body), got.(decodable))
		wantErr := json.Unmarshal([]byte(c.body), want)
		if wantErr != nil {
			wantErr = stdJSONErr(wantErr)
		}
		switch {
		case nestedPath(gotErr, wantErr):
		case (gotErr == nil) != (wantErr == nil) || gotErr != nil && gotErr.Error() != wantErr.Error():
			t.Errorf("%s %.200q:\n got %v\nwant %v", c.op, c.body, gotErr, wantErr)
		case gotErr == nil && !reflect.DeepEqual(got, want):
			t.Errorf("%s %.200q:\n got %+v\nwant %+v", c.op, c.body, got, want)
		}
	}
	t.Logf("%d requests", len(calls))
}

// stdJSONErr names json.Unmarshal's errors as decodeJSON did when it used
// encoding/json.
func stdJSONErr(err error) error {
	var fe *FieldError
	var se *json.SyntaxError
	var te *json.UnmarshalTypeError
	switch {
	case errors.As(err, &fe):
		return fe
	case errors.As(err, &se):
		return fieldErr("(body)", "invalid JSON at byte %d: %v", se.Offset, se)
	case errors.As(err, &te):
		field := te.Field
		if field == "" {
			field = "(body)"
		}
		return fieldErr(field, "expected %s, got JSON %s", te.Type, te.Value)
	case errors.Is(err, ErrInvalidRequest):
		return err
	}
	return fieldErr("(body)", "%v", err)
}

// nestedPath reports whether got is want with the path of the value that
// holds it in front: the types whose UnmarshalJSON calls decodeWith
// (Thresholds, Session, ...) start a path of their own when encoding/json
// calls them here, and the API's decodeJSON (like its encoding/json before
// it) adds the outer path.
func nestedPath(got, want error) bool {
	var g, w *FieldError
	return errors.As(got, &g) && errors.As(want, &w) && g.Reason == w.Reason &&
		(w.Field == "(body)" || strings.HasSuffix(g.Field, "."+w.Field))
}
