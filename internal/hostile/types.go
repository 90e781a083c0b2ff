package hostile

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strings"
)

// Wrong JSON types for every field of every request: each base below is a
// valid request that sets every field its operation reads; Types replaces
// each value in it (every object member and array element, at any depth)
// with a value of each other JSON kind. It writes types.json (see
// TestTypes_UpToDate in this package: TOKENFIT_UPDATE=1 regenerates it).
//
// A value of the wrong kind is an invalid_request error. A null member is
// the member's absence: answered as if it were not there (SameAs holds the
// request without it), which for a required member is an invalid_request
// error. A null array element is an invalid_request error. Fields that take
// several kinds (a message's content: a string or a list of parts; a budget
// section: a string, a list or {"tokens": N}) accept each of them, and
// free-form JSON (the inside of a tool's parameters schema) any kind.

// Base is a valid request to mutate.
type Base struct {
	Op      string
	Request string
	// Required lists the members whose absence (or null) is an error.
	Required []string
	// Accept lists "path=kind" where another kind is valid too.
	Accept []string
	// Free lists paths below which any JSON is accepted.
	Free []string
}

const calibration = `{"models": {"claude-sonnet-4-5": {"pairs": 1, "sumLog": 0.1, "minLog": 0.1, "maxLog": 0.1}}}`

const tools = `[{"type": "function", "function": {"name": "f", "description": "d", "strict": true,
	"parameters": {"type": "object", "properties": {"a": {"type": "string", "enum": ["x", "y"]}}, "required": ["a"]}}}]`

// Bases lists the requests that Types mutates: every operation with a
// request, every field.
var Bases = []Base{
	{Op: "countTokens", Request: `{"text": "Hello world", "model": "claude-sonnet-4-5", "calibration": ` + calibration + `}`,
		Required: []string{"calibration.models.claude-sonnet-4-5.sumLog", "calibration.models.claude-sonnet-4-5.maxLog"}},
	{Op: "countTokens", Request: `{"text": "Hello world", "encoding": "cl100k_base"}`},
	{Op: "encode", Request: `{"text": "Hello world", "model": "gpt-4o"}`},
	{Op: "decode", Request: `{"ids": [9906, 1917], "encoding": "cl100k_base"}`},
	{Op: "withinLimit", Request: `{"text": "Hello world", "limit": 5, "encoding": "o200k_base"}`},
	{Op: "truncate", Request: `{"text": "Hello world", "maxTokens": 1, "keep": "end", "model": "gpt-4o"}`},
	{Op: "countChat", Request: `{"model": "gpt-4o", "messages": [
		{"role": "system", "content": "Be brief."},
		{"role": "user", "name": "ann", "content": [{"type": "text", "text": "Hi"}, {"type": "image_url", "image_url": {"url": "https://example.com/a.png", "detail": "low", "width": 512, "height": 512}}]},
		{"role": "assistant", "content": null, "tool_calls": [{"id": "c1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]},
		{"role": "tool", "tool_call_id": "c1", "content": "42"}],
		"tools": ` + tools + `, "tool_choice": {"type": "function", "function": {"name": "f"}}}`,
		Required: []string{"messages[0].role", "messages[1].role", "messages[2].role", "messages[3].role",
			"messages[1].content[0].type", "messages[1].content[0].text", "messages[1].content[1].type",
			"messages[1].content[1].image_url", "messages[1].content[1].image_url.url",
			"messages[2].tool_calls[0].function", "messages[2].tool_calls[0].function.name",
			"tools[0].type", "tools[0].function", "tools[0].function.name",
			"tool_choice.type", "tool_choice.function", "tool_choice.function.name"},
		Accept: []string{"messages[0].content=array", "messages[1].content=string", "messages[2].content=string",
			"messages[2].content=array", "messages[3].content=array", "messages[1].content[1].image_url=string"},
		Free: []string{"tools[0].function.parameters"}},
	{Op: "countChat", Request: `{"model": "gpt-3.5-turbo", "messages": [
		{"role": "user", "content": "x"},
		{"role": "assistant", "content": null, "function_call": {"name": "f", "arguments": "{}"}},
		{"role": "function", "name": "f", "content": "1"}],
		"functions": [{"name": "f", "description": "d", "parameters": {"type": "object", "properties": {}}}], "function_call": "auto"}`,
		Required: []string{"messages[0].role", "messages[1].role", "messages[2].role", "messages[1].function_call.name", "functions[0].name"},
		Accept: []string{"messages[0].content=array", "messages[1].content=string", "messages[1].content=array",
			"messages[2].content=array"},
		Free: []string{"functions[0].parameters"}},
	{Op: "calculateBudget", Request: `{"model": "gpt-4o", "contextWindow": 150000, "outputReserve": 8192,
		"reserve": {"ratio": 0.15, "min": 500, "max": 4096, "safetyRatio": 0.05},
		"sections": {"system": "Be brief.", "procedure": ["step 1", "step 2"], "knowledge": {"tokens": 1500}, "episodes": "e", "current": "q?"},
		"directive": "Answer.", "history": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "hello"}],
		"tools": [{"type": "function", "function": {"name": "f", "parameters": {"type": "object"}}}],
		"limits": {"minHistoryTokens": 10, "maxKnowledgeTokens": 3000, "maxEpisodeTokens": 1000},
		"keepFrom": 0, "lowWater": 0.75, "alerts": {"warning": 0.7, "critical": 0.9}, "summarizeTarget": 0.5, "keepRecent": 4}`,
		Required: []string{"sections.knowledge.tokens", "history[0].role", "history[1].role", "tools[0].type", "tools[0].function", "tools[0].function.name"},
		Accept: []string{"sections.system=array", "sections.procedure=string", "sections.knowledge=string", "sections.knowledge=array",
			"sections.episodes=array", "sections.current=array", "history[0].content=array", "history[1].content=array",
			"tools=object"}, // the AI SDK's tools, keyed by name
		Free: []string{"tools[0].function.parameters"}},
	{Op: "calculateBudget", Request: `{"model": "claude-sonnet-4-5", "encoding": "o200k_base", "calibration": ` + calibration + `, "sections": {"system": "x"}}`,
		Required: []string{"calibration.models.claude-sonnet-4-5.sumLog", "calibration.models.claude-sonnet-4-5.maxLog"},
		Accept:   []string{"sections.system=array"}},
	{Op: "planInjection", Request: `{"model": "gpt-4o", "budget": 500, "items": [
		{"id": "a", "name": "no-secrets", "kind": "constraint", "tags": ["sec"], "activation": 0.9, "content": "Never print secrets.", "summary": "No secrets."}],
		"thresholds": {"full": 0.7, "summary": 0.3, "nameOnly": 0.1},
		"session": {"config": {"maxTokenBudget": 3000, "maxPerInjection": 500, "backoffMultiplier": 5}, "state": {"prompt": 0, "injections": 0, "tokensUsed": 0, "lastInjectionPrompt": 0}}}`,
		Required: []string{"items[0].id"}},
	{Op: "chunk", Request: `{"text": "One. Two. Three.", "maxTokens": 4, "overlap": 1, "encoding": "o200k_base"}`,
		Required: []string{"maxTokens"}},
	{Op: "calibrate", Request: `{"model": "claude-sonnet-4-5", "estimate": 100, "reported": 110, "calibration": ` + calibration + `}`,
		Required: []string{"model", "estimate", "reported", "calibration.models.claude-sonnet-4-5.sumLog", "calibration.models.claude-sonnet-4-5.maxLog"}},
	{Op: "liveNew", Request: `{"model": "gpt-4o", "text": "Hello", "units": "bytes"}`},
	{Op: "liveEdit", Request: `{"id": 1, "at": 0, "delete": 0, "insert": ""}`, Required: []string{"id"}},
	{Op: "liveGet", Request: `{"id": 1, "text": "Hello world"}`, Required: []string{"id"}},
	{Op: "liveFree", Request: `{"id": 2}`, Required: []string{"id"}},
	{Op: "models", Request: `{"model": "gpt-4o"}`},
	{Op: "registerModels", Request: `{"models": [{"id": "hostile-model", "provider": "acme", "aliases": ["hostile-alias"], "contextWindow": 32000,
		"maxOutput": 4000, "maxInput": 30000, "reasoning": false, "encoding": "o200k_base"}]}`,
		Required: []string{"models[0].id", "models[0].contextWindow", "models[0].encoding"}},
}

// stateful operations answer differently each time (new ids, counts of
// registrations): their null cases carry no SameAs.
var stateful = map[string]bool{"liveNew": true, "registerModels": true}

// replacements are the values of each JSON kind put in place of a value.
var replacements = []struct{ kind, json string }{
	{"string", `"x"`}, {"number", `7`}, {"bool", `true`}, {"null", `null`}, {"array", `[]`}, {"object", `{}`},
}

// node is a parsed JSON value that keeps its object members in order.
type node struct {
	kind    string // string number bool null array object
	literal json.RawMessage
	keys    []string
	elems   []*node
}

func parse(s string) (*node, error) {
	d := json.NewDecoder(strings.NewReader(s))
	d.UseNumber()
	n, err := parseNode(d)
	if err != nil {
		return nil, err
	}
	if _, err := d.Token(); err != io.EOF {
		return nil, fmt.Errorf("data after the value")
	}
	return n, nil
}

func parseNode(d *json.Decoder) (*node, error) {
	t, err := d.Token()
	if err != nil {
		return nil, err
	}
	switch v := t.(type) {
	case json.Delim:
		n := &node{kind: "array"}
		if v == '{' {
			n.kind = "object"
		}
		for d.More() {
			if n.kind == "object" {
				k, err := d.Token()
				if err != nil {
					return nil, err
				}
				n.keys = append(n.keys, k.(string))
			}
			e, err := parseNode(d)
			if err != nil {
				return nil, err
			}
			n.elems = append(n.elems, e)
		}
		if _, err := d.Token(); err != nil {
			return nil, err
		}
		return n, nil
	case string:
		b, _ := json.Marshal(v)
		return &node{kind: "string", literal: b}, nil
	case json.Number:
		return &node{kind: "number", literal: json.RawMessage(v)}, nil
	case bool:
		return &node{kind: "bool", literal: json.RawMessage(fmt.Sprint(v))}, nil
	}
	return &node{kind: "null", literal: json.RawMessage("null")}, nil
}

func (n *node) write(b *bytes.Buffer) {
	switch n.kind {
	case "object", "array":
		open, close := byte('['), byte(']')
		if n.kind == "object" {
			open, close = '{', '}'
		}
		b.WriteByte(open)
		for i, e := range n.elems {
			if i > 0 {
				b.WriteByte(',')
			}
			if n.kind == "object" {
				k, _ := json.Marshal(n.keys[i])
				b.Write(k)
				b.WriteByte(':')
			}
			e.write(b)
		}
		b.WriteByte(close)
	default:
		b.Write(n.literal)
	}
}

// walk calls f with the path of every value below n and a pointer to it.
func (n *node) walk(path string, f func(path string, at **node)) {
	for i := range n.elems {
		p := fmt.Sprintf("%s[%d]", path, i)
		if n.kind == "object" {
			p = n.keys[i]
			if path != "" {
				p = path + "." + n.keys[i]
			}
		}
		f(p, &n.elems[i])
		n.elems[i].walk(p, f)
	}
}

// Types expands Bases into cases: each base itself (answered), then every
// value replaced by each other kind.
func Types() ([]Case, error) {
	var out []Case
	for bi, b := range Bases {
		root, err := parse(b.Request)
		if err != nil {
			return nil, fmt.Errorf("base %d (%s): %v", bi, b.Op, err)
		}
		var buf bytes.Buffer
		root.write(&buf)
		body := buf.String()
		out = append(out, Case{Name: fmt.Sprintf("types/%s#%d", b.Op, bi), Class: "wrong-type", Op: b.Op, Body: &body, Expect: json.RawMessage(`"ok"`)})
		var paths []string
		root.walk("", func(path string, _ **node) { paths = append(paths, path) })
		for _, path := range paths {
			if below(b.Free, path) {
				continue // inside free-form JSON: nothing is a wrong type
			}
			var at **node
			var parent *node
			root.walk("", func(p string, n **node) {
				if p == path {
					at = n
				}
			})
			root.walkParents(func(n *node) {
				for i := range n.elems {
					if &n.elems[i] == at {
						parent = n
					}
				}
			})
			orig := *at
			for _, r := range replacements {
				if orig.kind == r.kind {
					continue
				}
				*at = &node{kind: r.kind, literal: json.RawMessage(r.json)}
				if r.kind == "array" || r.kind == "object" {
					*at = &node{kind: r.kind}
				}
				var buf bytes.Buffer
				root.write(&buf)
				*at = orig
				body := buf.String()
				c := Case{
					Name:   fmt.Sprintf("types/%s#%d/%s=%s", b.Op, bi, path, r.kind),
					Class:  "wrong-type",
					Op:     b.Op,
					Body:   &body,
					Expect: json.RawMessage(`"error:invalid_request"`),
				}
				switch {
				case slices.Contains(b.Accept, path+"="+r.kind):
					c.Expect = json.RawMessage(`"ok"`)
				case r.kind == "null" && parent.kind == "array" && orig.kind == "string":
					c.Expect = json.RawMessage(`"ok"`) // a null string is an empty one
				case r.kind == "null" && parent.kind == "object":
					if !slices.Contains(b.Required, path) {
						c.Expect = json.RawMessage(`"ok"`)
					}
					if !stateful[b.Op] {
						without := parent.without(at)
						var buf bytes.Buffer
						root.write(&buf)
						parent.restore(without)
						same := buf.String()
						c.SameAs = &same
					}
				}
				out = append(out, c)
			}
		}
	}
	return out, nil
}

// walkParents calls f with n and every array or object below it.
func (n *node) walkParents(f func(*node)) {
	if n.kind != "array" && n.kind != "object" {
		return
	}
	f(n)
	for _, e := range n.elems {
		e.walkParents(f)
	}
}

// without removes the member at from object n, returning what restore
// needs to put it back.
func (n *node) without(at **node) (undo [2]any) {
	for i := range n.elems {
		if &n.elems[i] == at {
			undo = [2]any{n.keys, n.elems} // the appends below copy: these stay whole
			n.keys = append(n.keys[:i:i], n.keys[i+1:]...)
			n.elems = append(n.elems[:i:i], n.elems[i+1:]...)
			return undo
		}
	}
	panic("hostile: member not found")
}

func (n *node) restore(undo [2]any) {
	n.keys, n.elems = undo[0].([]string), undo[1].([]*node)
}

// below reports whether path lies strictly inside one of the subtrees.
func below(roots []string, path string) bool {
	for _, p := range roots {
		if strings.HasPrefix(path, p+".") || strings.HasPrefix(path, p+"[") {
			return true
		}
	}
	return false
}

// TypesFile is types.json's content.
func TypesFile() ([]byte, error) {
	cases, err := Types()
	if err != nil {
		return nil, err
	}
	f := File{
		About: []string{
			"Generated by internal/hostile (types.go) from its Bases; DO NOT EDIT. Regenerate: TOKENFIT_UPDATE=1 go test ./internal/hostile",
			"Every value of a valid request of every operation, replaced by a value of each other JSON kind. A wrong kind is an",
			"invalid_request error. A null member is the member's absence (sameAs: the request without it; an error when it is",
			"required); a null element of a list of strings is an empty string; any other null element is an error. Fields that",
			"take several kinds (content: a string or parts; a budget section: a string, a list or {tokens}) accept each.",
		},
		Scale: 1,
		Cases: cases,
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}
