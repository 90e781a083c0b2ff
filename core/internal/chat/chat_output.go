package chat

import (
	"strings"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// ResponseFormat is a request's structured output, in Chat Completions'
// shape (response_format): Type "text", "json_object" or "json_schema"
// with JSONSchema. The Responses API's text.format and the AI SDK's
// responseFormat are read into it. OpenAI bills a json_schema format's
// schema as part of the prompt (formatText says how it is counted).
type ResponseFormat struct {
	//genjson:required
	//genjson:ts 'text' | 'json_object' | 'json_schema' | string
	Type       string            `json:"type"`
	JSONSchema *JSONSchemaFormat `json:"json_schema,omitempty"`
}

// JSONSchemaFormat is a json_schema response format: its name,
// description, schema (kept as sent: the API renders properties in the
// order written) and strict flag.
type JSONSchemaFormat struct {
	Name        string `json:"name"`
	Description string `json:"description,omitempty"`
	// Schema is a JSON Schema object, kept as sent.
	//genjson:want an object (a JSON schema)
	Schema RawJSON `json:"schema,omitempty"`
	Strict *bool   `json:"strict,omitempty"`
}

// decodeExact reads Chat Completions' response_format.
func (f *ResponseFormat) decodeExact(raw []byte, path string) error {
	return f.decode(raw, path, false)
}

// decode reads Chat's response_format, {"type": …, "json_schema": {name,
// description, schema, strict}}, or when flat the Responses API's
// text.format, whose json_schema fields sit beside its type.
func (f *ResponseFormat) decode(raw []byte, path string, flat bool) error {
	o, typ, err := block(raw, path)
	if err != nil {
		return err
	}
	f.Type = typ
	if typ != "json_schema" {
		return f.check(path)
	}
	f.JSONSchema = new(JSONSchemaFormat)
	if flat {
		return f.JSONSchema.decodeExactFields(o)
	}
	raw, path = o.fields["json_schema"], joinPath(path, "json_schema")
	if jsonio.IsNull(raw) {
		return fieldErr(path, "missing")
	}
	if o, err = objectAt(raw, path); err != nil {
		return err
	}
	return f.JSONSchema.decodeExactFields(o)
}

func (f *ResponseFormat) check(path string) error {
	switch f.Type {
	case "text", "json_object", "json_schema":
		return nil
	}
	return fieldErr(joinPath(path, "type"), "unknown format %q (want text, json_object or json_schema)", engine.Clip(f.Type))
}

// How a json_schema response format is billed (testdata/chat-rules.md
// §14; OpenAI documents none of it). The API writes it as a section of
// the prompt,
//
//	# Response Formats
//
//	## NAME
//
//	// DESCRIPTION
//	SCHEMA
//
// where SCHEMA is the schema as compact JSON, keys in the order sent,
// without its "additionalProperties" and "required" keywords at any depth
// (strict mode implies them), and the description line is there only when
// the format has one. The section joins the function definitions' message
// with a blank line (one token more) when the request has any. This
// reproduces all 5 billed json_schema counts of testdata/billed/openai.json:
// gpt-4o on Chat Completions (29 and 118 tokens) and on the Responses API
// (30 and 117), and gpt-5.4-mini on the Responses API without tools (56).
// A json_object or text format costs nothing (8 counts).
const (
	// formatJoin is what the section adds beside function definitions.
	formatJoin = 1
	// formatAloneSpread is what the bound adds without definitions: the
	// section may then open a message of its own (PerMessage and a role),
	// measured on the harmony families only.
	formatAloneSpread = 4
)

// formatText is the section a json_schema format adds to the prompt, or ""
// for any other format.
func formatText(f *ResponseFormat) (string, error) {
	if f == nil || f.Type != "json_schema" || f.JSONSchema == nil {
		return "", nil
	}
	js := f.JSONSchema
	var b strings.Builder
	b.WriteString("# Response Formats\n\n## " + js.Name + "\n\n")
	if js.Description != "" {
		b.WriteString("// " + js.Description + "\n")
	}
	if len(js.Schema) > 0 {
		n, err := parseOrdered(js.Schema)
		if err != nil {
			return "", fieldErr("response_format.json_schema.schema", "%v", err)
		}
		formatSchema(n).writeJSON(&b)
	}
	return b.String(), nil
}

// formatSchema is a schema without its additionalProperties and required
// keywords, at every depth: in the schemas under properties (whose names
// stay), $defs and definitions, items, not, and the lists anyOf, oneOf,
// allOf and prefixItems. Other values (enum, const, default…) stay as
// they are.
func formatSchema(n *jnode) *jnode {
	if n.kind != 'o' {
		return n
	}
	out := &jnode{kind: 'o'}
	for i, k := range n.keys {
		v := n.vals[i]
		switch k {
		case "additionalProperties", "required":
			continue
		case "properties", "patternProperties", "$defs", "definitions":
			if v.kind == 'o' {
				m := &jnode{kind: 'o'}
				for j, name := range v.keys {
					m.set(name, formatSchema(v.vals[j]))
				}
				v = m
			}
		case "items", "not", "contains", "additionalItems":
			v = formatSchema(v)
		case "anyOf", "oneOf", "allOf", "prefixItems":
			if v.kind == 'a' {
				a := &jnode{kind: 'a'}
				for _, e := range v.vals {
					a.vals = append(a.vals, formatSchema(e))
				}
				v = a
			}
		}
		out.set(k, v)
	}
	return out
}

// format returns the tokens a request's response format adds, and what
// the bound adds beyond them.
func (c *chatCounter) format(req *ChatRequest) (n, slack int, err error) {
	text, err := formatText(req.ResponseFormat)
	if err != nil || text == "" {
		return 0, 0, err
	}
	c.inexact("a json_schema response format: its rendering is fitted on 5 billed counts, not documented")
	n = c.count(text)
	if len(functionInputs(req)) > 0 {
		return n + formatJoin, 0, nil
	}
	return n, formatAloneSpread, nil
}
