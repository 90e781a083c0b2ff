package jsonio

import (
	"bytes"
	"encoding/json"
	"errors"
	"math"
	"slices"
	"testing"
)

// The reader and writer are checked against encoding/json, whose bytes and
// strings they must match.

var stringSeeds = []string{
	``, `a`, `Hello world`, `<b>&amp;</b>`, `"quoted" \back\`, "tab\tnew\nline\rcr\bbs\fff",
	"\x00\x01\x1f\x7f", "é ü 漢字 🙂", "\xff\xfe bad", "ok\xc3", "\u2028\u2029", "\ufffd",
}

func TestAppendString_AsEncodingJSON(t *testing.T) {
	for _, s := range stringSeeds {
		checkAppendString(t, s)
	}
}

func FuzzAppendString(f *testing.F) {
	for _, s := range stringSeeds {
		f.Add(s)
	}
	f.Fuzz(checkAppendString)
}

func checkAppendString(t *testing.T, s string) {
	for _, html := range []bool{false, true} {
		var want bytes.Buffer
		enc := json.NewEncoder(&want)
		enc.SetEscapeHTML(html)
		if err := enc.Encode(s); err != nil {
			t.Fatal(err)
		}
		if got := AppendString(nil, s, html); string(got) != string(bytes.TrimSuffix(want.Bytes(), []byte("\n"))) {
			t.Errorf("AppendString(%q, %v) = %s, want %s", s, html, got, want.Bytes())
		}
	}
}

var quotedSeeds = []string{
	`""`, `"a"`, `"\"\\\/\b\f\n\r\t"`, `"\u00e9\u6f22"`, `"\ud83d\ude42"`, `"\ud83d"`, `"\ud83dx"`,
	`"\ud83d\u0041"`, `"\ude42\ud83d"`, `"\uD83D\uDE42"`, `"\x"`, `"\u12"`, `"\u12g4"`, "\"a\x01\"",
	"\"\xff\"", `"a"b"`, `"\"`, `"abc`, ` "padded" `, `"é"`, `"\/"`,
}

func TestUnquote_AsEncodingJSON(t *testing.T) {
	for _, q := range quotedSeeds {
		checkUnquote(t, []byte(q))
	}
}

func FuzzUnquote(f *testing.F) {
	for _, q := range quotedSeeds {
		f.Add([]byte(q))
	}
	f.Fuzz(checkUnquote)
}

func checkUnquote(t *testing.T, q []byte) {
	var want string
	wantErr := json.Unmarshal(q, &want)
	if wantErr == nil && (len(bytes.TrimSpace(q)) == 0 || bytes.TrimSpace(q)[0] != '"') {
		return // a JSON value that is not a string: not Unquote's input
	}
	got, err := Unquote(q)
	switch {
	case wantErr != nil && err == nil:
		t.Errorf("Unquote(%q) = %q, encoding/json refuses it: %v", q, got, wantErr)
	case wantErr == nil && err != nil:
		t.Errorf("Unquote(%q): %v, want %q", q, err, want)
	case wantErr == nil && got != want:
		t.Errorf("Unquote(%q) = %q, want %q", q, got, want)
	}
}

var floatSeeds = []float64{0, -0.0, 1, -1, 0.1, 0.15, 1.0 / 3, 1e-6, 9.99e-7, 1e-7, 1.5e-9, 1e20, 1e21, 123456789e13,
	1e100, -2.5e-300, math.MaxFloat64, math.SmallestNonzeroFloat64, 4096, 0.000001234}

func TestAppendFloat_AsEncodingJSON(t *testing.T) {
	for _, f := range floatSeeds {
		checkAppendFloat(t, f)
	}
	for _, f := range []float64{math.NaN(), math.Inf(1), math.Inf(-1)} {
		if _, ok := AppendFloat(nil, f); ok {
			t.Errorf("AppendFloat(%v) ok, want not", f)
		}
	}
}

func FuzzAppendFloat(f *testing.F) {
	for _, x := range floatSeeds {
		f.Add(x)
	}
	f.Fuzz(checkAppendFloat)
}

func checkAppendFloat(t *testing.T, f float64) {
	want, err := json.Marshal(f)
	got, ok := AppendFloat(nil, f)
	if (err == nil) != ok || ok && string(got) != string(want) {
		t.Errorf("AppendFloat(%v) = %s %v, want %s %v", f, got, ok, want, err)
	}
}

func TestObjectArray_Walk(t *testing.T) {
	var keys []string
	var vals []string
	err := Object([]byte(` { "a" : 1 , "b\"c" : {"x": [1, "]"]} , "d": "}" , "e":[] } `), func(k string, v []byte) error {
		keys, vals = append(keys, k), append(vals, string(v))
		return nil
	})
	if err != nil || !slices.Equal(keys, []string{"a", `b"c`, "d", "e"}) ||
		!slices.Equal(vals, []string{"1", `{"x": [1, "]"]}`, `"}"`, "[]"}) {
		t.Errorf("Object: %q %q %v", keys, vals, err)
	}
	var elems []string
	err = Array([]byte(`[ true ,null, -1.5e3 ,"\\", [[]] ]`), func(v []byte) error {
		elems = append(elems, string(v))
		return nil
	})
	if err != nil || !slices.Equal(elems, []string{"true", "null", "-1.5e3", `"\\"`, "[[]]"}) {
		t.Errorf("Array: %q %v", elems, err)
	}
	for _, bad := range []string{``, `{`, `{"a"}`, `{"a":1,}`, `{"a":1 "b":2}`, `[1,`, `[1 2]`, `"x"`, `{"a":"}`} {
		nop := func([]byte) error { return nil }
		if Object([]byte(bad), func(string, []byte) error { return nil }) == nil && Array([]byte(bad), nop) == nil {
			t.Errorf("%q walked without an error", bad)
		}
	}
}

// TestMembers: a repeated key once, where it first appears, with its last
// value, as encoding/json keeps the last into a map and Python's json.loads
// (core's TestPythonJSON) where the key first came; an escaped key is the
// key it spells.
func TestMembers(t *testing.T) {
	var keys, vals []string
	raw := ` {"a":1, "b":2, "\u0061":3, "c":{"a":4,"a":5}, "b":[6], "A":7} `
	err := Members([]byte(raw), func(k string, v []byte) error {
		keys, vals = append(keys, k), append(vals, string(v))
		return nil
	})
	if err != nil || !slices.Equal(keys, []string{"a", "b", "c", "A"}) || !slices.Equal(vals, []string{"3", "[6]", `{"a":4,"a":5}`, "7"}) {
		t.Errorf("Members: %q %q %v", keys, vals, err)
	}
	var m map[string]json.RawMessage
	if err := json.Unmarshal([]byte(raw), &m); err != nil || len(m) != len(keys) {
		t.Fatal(err)
	}
	for i, k := range keys {
		if string(m[k]) != vals[i] {
			t.Errorf("%s: %s, encoding/json %s", k, vals[i], m[k])
		}
	}
	if Members([]byte(`{"a":1,}`), func(string, []byte) error { return nil }) == nil {
		t.Error("a bad object walked without an error")
	}
}

func TestKind(t *testing.T) {
	for raw, want := range map[string]string{``: "nothing", ` {}`: "an object", `[]`: "an array", `"s"`: "a string",
		`true`: "a boolean", `false`: "a boolean", `null`: "null", `-1`: "a number"} {
		if got := Kind([]byte(raw)); got != want {
			t.Errorf("Kind(%q) = %q, want %q", raw, got, want)
		}
	}
}

func TestCompact_AsEncodingJSON(t *testing.T) {
	for _, s := range []string{`{}`, ` { "a" : [ 1 , 2 ] , "b\" c" : " x  y " } `, "[\n\t\"\\\\\" , null ]", `"s"`, `-1.5e3`} {
		var want bytes.Buffer
		if err := json.Compact(&want, []byte(s)); err != nil {
			t.Fatal(err)
		}
		if got := Compact(nil, []byte(s)); string(got) != want.String() {
			t.Errorf("Compact(%q) = %s, want %s", s, got, want.Bytes())
		}
	}
}

func TestWriter_Object(t *testing.T) {
	var w Writer
	s := w.ObjectStart()
	w.ObjectEnd(s)
	w.Byte(' ')
	s = w.ObjectStart()
	w.Raw(`,"a":`)
	w.Float(0.5)
	w.Raw(`,"b":`)
	w.RawJSON(nil)
	w.ObjectEnd(s)
	if string(w.B) != `{} {"a":0.5,"b":null}` || w.Err != nil {
		t.Errorf("got %s %v", w.B, w.Err)
	}
	w.Float(math.NaN())
	if w.Err == nil || w.Err.Error() != "json: unsupported value: NaN" {
		t.Errorf("NaN: %v", w.Err)
	}
}

var checkSeeds = []string{``, ` `, `{}`, `[]`, `{"a":[1,-2.5e+3,true,false,null,"\u00e9\n"]}`, `{`, `[`, `{"a"`, `{"a":`, `{"a":1`,
	`{"a":1,`, `{"a" 1}`, `{"a":1 "b"}`, `{1:2}`, `{,}`, `[1,]`, `[1 2]`, `[}`, `{]`, `tru`, `trux`, `nul`, `fals`, `-`, `-a`, `01`,
	`1.`, `1.x`, `1e`, `1e+`, `1ex`, `"abc`, `"a\x"`, `"\u12x4"`, "\"a\x01\"", `"\u00"`, `1 2`, `{} x`, `"'"`, `'`, "\xc3", `1.5e3]`,
	"\t\r\n [ ] \n", `[[[[]]]]`, `{"a":{"b":{}}}`, `-0`, `-0.0e-0`, `0x1`, `.5`, `+1`, `[-]`, "[\xff]", `{"a":1}}`}

func TestCheck_AsEncodingJSON(t *testing.T) {
	for _, s := range checkSeeds {
		checkCheck(t, []byte(s))
	}
	deep := bytes.Repeat([]byte("["), MaxDepth+5)
	checkCheck(t, deep)
	checkCheck(t, append(bytes.Repeat([]byte("["), MaxDepth), bytes.Repeat([]byte("]"), MaxDepth)...))
}

func FuzzCheck(f *testing.F) {
	for _, s := range checkSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(checkCheck)
}

func checkCheck(t *testing.T, b []byte) {
	var raw json.RawMessage
	want := json.Unmarshal(b, &raw)
	got := Check(b)
	var se *json.SyntaxError
	switch {
	case want == nil && got == nil:
	case want == nil || got == nil:
		t.Errorf("Check(%.80q) = %v, encoding/json: %v", b, got, want)
	case !errors.As(want, &se):
		t.Fatalf("encoding/json: %v", want)
	default:
		g := got.(*SyntaxError)
		if g.Msg != se.Error() || g.Offset != se.Offset {
			t.Errorf("Check(%.80q) = %q at %d, encoding/json: %q at %d", b, g.Msg, g.Offset, se.Error(), se.Offset)
		}
	}
}
