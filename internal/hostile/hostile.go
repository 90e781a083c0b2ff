// Package hostile reads the hostile-input cases of testdata/hostile, the
// list every host's tests run: Go natively (core.API.Call), the wazero host,
// the raw wasip1 ABI, the CLI, and the JavaScript hosts. It builds each
// case's request bytes and judges an answer against the case's expectation.
// It knows nothing of core, so that any test package can use it.
//
// The format is described in testdata/hostile/README.md.
package hostile

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
)

// Case is one hostile request and what must come of it.
type Case struct {
	Name  string `json:"name"`
	Class string `json:"class"`
	// Op is an operation of core's JSON API, or "count": the fast path
	// (host.Count, the ABI's count export, Encoding.Count), whose request
	// is the text itself and Encoding the encoding to count with.
	Op       string `json:"op"`
	Encoding string `json:"encoding,omitempty"`
	// The request bytes: Request (a JSON value, sent as written in the
	// file), Body (a string whose UTF-8 bytes are sent as they are: for
	// malformed JSON and for numbers a JavaScript host would reformat), or
	// Gen (parts concatenated: for huge and invalid UTF-8 bodies).
	Request json.RawMessage `json:"request,omitempty"`
	Body    *string         `json:"body,omitempty"`
	Gen     []Part          `json:"gen,omitempty"`
	// SameAs, when set, is another body whose answer (on the same
	// instance) must be byte for byte this case's answer.
	SameAs *string `json:"sameAs,omitempty"`
	// Expect is "ok" (an answer, not an error), "error:<code>", or an
	// object the answer must contain (objects by key, recursively; arrays
	// element by element and of the same length; numbers by value).
	Expect json.RawMessage `json:"expect"`
	// Huge marks the cases of tens of megabytes: runners scale their Gen
	// parts down by Scale unless asked for the full size.
	Huge bool `json:"huge,omitempty"`
	// Binary marks bodies that are not valid UTF-8 and so cannot be a
	// JavaScript string; JS hosts send them as bytes where the host takes
	// bytes (the wasip1 ABI) and skip them elsewhere.
	Binary bool   `json:"binary,omitempty"`
	Note   string `json:"note,omitempty"`
}

// Part is a piece of a generated body: S (UTF-8 text) or Hex (bytes),
// repeated Times times (default 1).
type Part struct {
	S     string `json:"s,omitempty"`
	Hex   string `json:"hex,omitempty"`
	Times int    `json:"times,omitempty"`
}

// Probe is the valid call made after every case on the same instance, and
// its answer.
type Probe struct {
	Op      string          `json:"op"`
	Request json.RawMessage `json:"request"`
	Expect  json.RawMessage `json:"expect"`
	// Count is the same probe on the fast path.
	Count struct {
		Encoding string `json:"encoding"`
		Text     string `json:"text"`
		Tokens   int    `json:"tokens"`
	} `json:"count"`
}

// Call is one operation and its request.
type Call struct {
	Op      string          `json:"op"`
	Request json.RawMessage `json:"request"`
}

// File is a case file.
type File struct {
	About []string `json:"about"`
	// Setup runs once on an instance before its cases (a live counter
	// with id 1 for the live operations' cases).
	Setup []Call `json:"setup,omitempty"`
	Probe *Probe `json:"probe,omitempty"`
	// Scale divides the Times of a huge case's parts when runners do not
	// run the full size (make test); TOKENFIT_HUGE=1 runs them whole.
	Scale int    `json:"scale,omitempty"`
	Cases []Case `json:"cases"`
}

// Dir returns testdata/hostile, found from the working directory up to the
// module root.
func Dir() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return filepath.Join(dir, "testdata", "hostile"), nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("hostile: no go.mod above the working directory")
		}
		dir = parent
	}
}

// Load reads cases.json and types.json (the generated wrong-type cases).
func Load() (*File, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	f, err := read(filepath.Join(dir, "cases.json"))
	if err != nil {
		return nil, err
	}
	types, err := read(filepath.Join(dir, "types.json"))
	if err != nil {
		return nil, err
	}
	f.Cases = append(f.Cases, types.Cases...)
	seen := map[string]bool{}
	for _, c := range f.Cases {
		if seen[c.Name] {
			return nil, fmt.Errorf("hostile: two cases named %q", c.Name)
		}
		seen[c.Name] = true
		if _, err := c.expectation(); err != nil {
			return nil, fmt.Errorf("hostile: case %q: %v", c.Name, err)
		}
	}
	return f, nil
}

func read(path string) (*File, error) {
	b, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var f File
	d := json.NewDecoder(bytes.NewReader(b))
	d.DisallowUnknownFields()
	if err := d.Decode(&f); err != nil {
		return nil, fmt.Errorf("hostile: %s: %v", path, err)
	}
	if f.Scale == 0 {
		f.Scale = 1
	}
	return &f, nil
}

// Full reports whether huge cases run at full size (TOKENFIT_HUGE=1).
func Full() bool { return os.Getenv("TOKENFIT_HUGE") == "1" }

// Bytes returns the request bytes of c; scale divides the Times of a huge
// case's parts (1: full size).
func (c Case) Bytes(scale int) []byte {
	switch {
	case c.Body != nil:
		return []byte(*c.Body)
	case c.Gen != nil:
		if !c.Huge {
			scale = 1
		}
		n := 0
		for _, p := range c.Gen {
			n += len(p.bytes()) * p.times(scale)
		}
		out := make([]byte, 0, n)
		for _, p := range c.Gen {
			b := p.bytes()
			for range p.times(scale) {
				out = append(out, b...)
			}
		}
		return out
	}
	return []byte(c.Request)
}

func (p Part) bytes() []byte {
	if p.Hex != "" {
		b, err := hex.DecodeString(strings.ReplaceAll(p.Hex, " ", ""))
		if err != nil {
			panic(fmt.Sprintf("hostile: bad hex %q", p.Hex))
		}
		return b
	}
	return []byte(p.S)
}

func (p Part) times(scale int) int {
	t := max(p.Times, 1)
	if t > 1 {
		t = max(t/scale, 1)
	}
	return t
}

type expectation struct {
	ok     bool
	code   string // an error with this code
	subset any    // an answer holding this
}

func (c Case) expectation() (expectation, error) {
	return parseExpect(c.Expect)
}

func parseExpect(raw json.RawMessage) (expectation, error) {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		switch {
		case s == "ok":
			return expectation{ok: true}, nil
		case strings.HasPrefix(s, "error:") && len(s) > 6:
			return expectation{code: s[6:]}, nil
		}
		return expectation{}, fmt.Errorf("expect %q: want \"ok\", \"error:<code>\" or an object", s)
	}
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader(raw))
	d.UseNumber()
	if err := d.Decode(&v); err != nil || v == nil {
		return expectation{}, fmt.Errorf("expect %s: want \"ok\", \"error:<code>\" or an object", raw)
	}
	return expectation{subset: v}, nil
}

// Check judges an answer (a JSON object: core's answer, an error answer, or
// for "count" {"tokens": N}) against the case's expectation.
func (c Case) Check(answer []byte) error {
	e, err := c.expectation()
	if err != nil {
		return err
	}
	return e.check(answer)
}

// Expect judges an answer against an expectation written as a case's
// expect is ("ok", "error:<code>" or an object the answer must contain);
// the shared vectors (testdata/vectors/budget.json, plan.json) use it.
func Expect(expect json.RawMessage, answer []byte) error {
	e, err := parseExpect(expect)
	if err != nil {
		return err
	}
	return e.check(answer)
}

// VectorCase is one case of testdata/vectors/budget.json, plan.json or
// shapes.json.
type VectorCase struct {
	Name    string          `json:"name"`
	Source  string          `json:"source"`
	Op      string          `json:"op"`
	Request json.RawMessage `json:"request"`
	// Body, when set, is the request as text: for JSON a parser of the file
	// would change, such as an object that gives a key twice.
	Body   *string         `json:"body,omitempty"`
	Expect json.RawMessage `json:"expect"`
}

// Bytes returns the request bytes of c.
func (c VectorCase) Bytes() []byte {
	if c.Body != nil {
		return []byte(*c.Body)
	}
	return c.Request
}

// Vectors reads the cases of testdata/vectors/NAME.json (budget, plan).
func Vectors(name string) ([]VectorCase, error) {
	dir, err := Dir()
	if err != nil {
		return nil, err
	}
	b, err := os.ReadFile(filepath.Join(dir, "..", "vectors", name+".json"))
	if err != nil {
		return nil, err
	}
	var f struct{ Cases []VectorCase }
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, fmt.Errorf("%s.json: %w", name, err)
	}
	return f.Cases, nil
}

// CheckProbe judges the probe's answer.
func (p Probe) CheckProbe(answer []byte) error {
	e, err := parseExpect(p.Expect)
	if err != nil {
		return err
	}
	return e.check(answer)
}

func (e expectation) check(answer []byte) error {
	var v map[string]any
	d := json.NewDecoder(bytes.NewReader(answer))
	d.UseNumber()
	if err := d.Decode(&v); err != nil || v == nil || d.More() {
		return fmt.Errorf("answer %.300q is not one JSON object", answer)
	}
	errBody, isErr := v["error"].(map[string]any)
	switch {
	case e.ok:
		if isErr {
			return fmt.Errorf("want an answer, got error %v: %v", errBody["code"], errBody["message"])
		}
	case e.code != "":
		if !isErr {
			return fmt.Errorf("want error %s, got answer %.300s", e.code, answer)
		}
		if errBody["code"] != e.code {
			return fmt.Errorf("want error %s, got %v: %v", e.code, errBody["code"], errBody["message"])
		}
		if m, _ := errBody["message"].(string); m == "" {
			return fmt.Errorf("error %s without a message", e.code)
		}
	default:
		if err := contains(v, e.subset, "answer"); err != nil {
			return fmt.Errorf("%v (answer %.400s)", err, answer)
		}
	}
	if isErr && errBody["code"] == "internal" {
		return fmt.Errorf("internal error: %v", errBody["message"])
	}
	return nil
}

// contains reports whether got holds want: objects by their keys, arrays
// element by element, numbers by value, all else whole.
func contains(got, want any, path string) error {
	switch w := want.(type) {
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: want an object, got %v", path, got)
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok {
				return fmt.Errorf("%s.%s: missing", path, k)
			}
			if err := contains(gv, wv, path+"."+k); err != nil {
				return err
			}
		}
		return nil
	case json.Number:
		g, ok := got.(json.Number)
		if !ok {
			return fmt.Errorf("%s: want %v, got %v", path, w, got)
		}
		wf, _ := w.Float64()
		gf, _ := g.Float64()
		if wf != gf && !(math.IsNaN(wf) && math.IsNaN(gf)) {
			return fmt.Errorf("%s: want %v, got %v", path, w, g)
		}
		return nil
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return fmt.Errorf("%s: want %v, got %v", path, w, got)
		}
		for i := range w {
			if err := contains(g[i], w[i], fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		return nil
	}
	if !reflect.DeepEqual(got, want) {
		return fmt.Errorf("%s: want %v, got %v", path, want, got)
	}
	return nil
}

// CountAnswer is the answer the runners make of a fast-path count.
func CountAnswer(n int) []byte { return fmt.Appendf(nil, `{"tokens":%d}`, n) }

// IsError reports whether an answer is an error answer, and its code.
func IsError(answer []byte) (code string, ok bool) {
	var v struct {
		Error *struct {
			Code string `json:"code"`
		} `json:"error"`
	}
	if json.Unmarshal(answer, &v) != nil || v.Error == nil {
		return "", false
	}
	return v.Error.Code, true
}

// IsErrorAnswer reports whether an answer is an error answer.
func IsErrorAnswer(answer []byte) bool {
	_, ok := IsError(answer)
	return ok
}
