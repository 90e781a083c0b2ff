package chat

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
	"github.com/tokenfit/tokenfit/core/internal/limit"
)

// toolJSON is a tool as a template's tojson filter prints it: Python's
// json.dumps(tool, ensure_ascii=False) as transformers calls it, separators
// ", " and ": ", keys in the order the request gives them, non-ASCII text
// as it is. The tool is {"type", "function": {"name", "description",
// "parameters", "strict"}}, absent fields left out.
func (t *templateRender) toolJSON(tool *ChatTool) string {
	b := []byte(`{"type": `)
	b = appendPyString(b, tool.Type)
	b = append(b, `, "function": {"name": `...)
	f := &tool.Function
	b = appendPyString(b, f.Name)
	if f.Description != "" {
		b = append(b, `, "description": `...)
		b = appendPyString(b, f.Description)
	}
	return string(t.appendToolTail(b, f))
}

// appendToolTail appends a tool's function's "parameters" and "strict" as
// tojson prints them (absent fields left out) and closes the function and
// the tool: the end every template that prints a tool shares.
func (t *templateRender) appendToolTail(b []byte, f *FunctionDef) []byte {
	if len(f.Parameters) > 0 {
		b = append(b, `, "parameters": `...)
		b = t.appendPyJSON(b, f.Parameters)
	}
	if f.Strict != nil {
		b = append(b, `, "strict": `...)
		b = strconv.AppendBool(b, *f.Strict)
	}
	return append(b, "}}"...)
}

// appendPyJSON appends the JSON value raw (already checked by the decoder)
// as json.dumps prints it after json.loads: a repeated key once, where it
// first appears, with its last value (jsonio.Members).
func (t *templateRender) appendPyJSON(b, raw []byte) []byte {
	raw = bytes.TrimSpace(raw) // no copy: a copy at every level costs n·depth
	switch jsonio.Kind(raw) {
	case "an object":
		b = append(b, '{')
		first := true
		_ = jsonio.Members(raw, func(key string, val []byte) error {
			if !first {
				b = append(b, ", "...)
			}
			first = false
			b = appendPyString(b, key)
			b = append(b, ": "...)
			b = t.appendPyJSON(b, val)
			return nil
		})
		return append(b, '}')
	case "an array":
		b = append(b, '[')
		first := true
		_ = jsonio.Array(raw, func(val []byte) error {
			if !first {
				b = append(b, ", "...)
			}
			first = false
			b = t.appendPyJSON(b, val)
			return nil
		})
		return append(b, ']')
	case "a string":
		s, _ := jsonio.Unquote(raw)
		return appendPyString(b, s)
	case "a number":
		if strings.ContainsAny(string(raw), ".eE") || len(raw) > 15 {
			// Python keeps 1.0 and 1e5 as floats (1.0, 100000.0) and big
			// integers whole; JavaScript's Jinja prints 1 and 100000.
			t.inexact("a tool schema has a number with a fraction, an exponent or over 15 digits: Python's json.dumps may print it differently")
			if f, err := strconv.ParseFloat(string(raw), 64); err == nil {
				if out, ok := jsonio.AppendFloat(b, f); ok {
					return out
				}
			}
		}
		if strings.Trim(string(raw), "-0") == "" {
			return append(b, '0')
		}
	}
	return append(b, raw...) // true, false, null, an integer
}

// appendPyString appends s quoted as json.dumps(ensure_ascii=False) does:
// " and \ escaped, \b \f \n \r \t short, other control characters as
// \u00XX, everything else as it is.
func appendPyString(b []byte, s string) []byte {
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		if c >= utf8.RuneSelf || c >= 0x20 && c != '"' && c != '\\' {
			b = append(b, c)
			i++
			continue
		}
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, `\b`...)
		case '\f':
			b = append(b, `\f`...)
		case '\n':
			b = append(b, `\n`...)
		case '\r':
			b = append(b, `\r`...)
		case '\t':
			b = append(b, `\t`...)
		default:
			b = append(b, '\\', 'u', '0', '0', "0123456789abcdef"[c>>4], "0123456789abcdef"[c&0xf])
		}
		i++
	}
	return append(b, '"')
}

// toolsIndented returns the tools as toolJSON prints them, for printing
// with tojson(indent=4) (appendIndented: json.dumps with indent=4, the
// separators "," at line ends and ": "), once it knows the indented text
// fits the rendering's budget: indentation grows a tool by four spaces a
// level on every line, hundreds of times its size for a deeply nested
// schema, so that is measured first (indentedSize) and such a rendering
// refused before it is printed or counted.
func (t *templateRender) toolsIndented(tools []ChatTool) ([]string, bool) {
	out := make([]string, len(tools))
	n := 0
	for i := range tools {
		out[i] = t.toolJSON(&tools[i])
		n += indentedSize(out[i]) + 2
	}
	if t.size+n > t.budget {
		t.err = limit.TooLarge("the tools printed with tojson(indent=4)", t.size+n, t.budget)
		return nil, false
	}
	return out, true
}

// argumentsJSON is a tool call's arguments as tojson prints them: vLLM
// parses the JSON string of an OpenAI-shaped call into an object before
// the template sees it (so does llama.cpp for templates that print
// arguments with tojson), and the template prints it again as json.dumps
// does. vLLM makes empty arguments {}, and so also arguments that are not
// JSON or not an object, which earlier versions refused: those are
// printed as {} and flagged.
func (t *templateRender) argumentsJSON(args string) string {
	raw := []byte(strings.TrimSpace(args))
	if args == "" {
		return "{}"
	}
	if jsonio.Check(raw) != nil || jsonio.Kind(raw) != "an object" {
		t.inexact("tool call arguments that are not a JSON object: vLLM renders them as {}, and earlier versions refuse the request")
		return "{}"
	}
	return string(t.appendPyJSON(nil, raw))
}

// appendIndented appends the JSON raw, as json.dumps prints it with
// separators ", " and ": " (appendPyJSON's), with indent=4 at depth (a
// repeated key as appendPyJSON prints it).
func appendIndented(b, raw []byte, depth int) []byte {
	line := func(b []byte, d int) []byte {
		b = append(b, '\n')
		for range d {
			b = append(b, "    "...)
		}
		return b
	}
	switch jsonio.Kind(raw) {
	case "an object":
		n := 0
		_ = jsonio.Members(raw, func(key string, val []byte) error {
			if n > 0 {
				b = append(b, ',')
			} else {
				b = append(b, '{')
			}
			n++
			b = appendPyString(line(b, depth+1), key)
			b = append(b, ": "...)
			b = appendIndented(b, val, depth+1)
			return nil
		})
		if n == 0 {
			return append(b, "{}"...)
		}
		return append(line(b, depth), '}')
	case "an array":
		n := 0
		_ = jsonio.Array(raw, func(val []byte) error {
			if n > 0 {
				b = append(b, ',')
			} else {
				b = append(b, '[')
			}
			n++
			b = appendIndented(line(b, depth+1), val, depth+1)
			return nil
		})
		if n == 0 {
			return append(b, "[]"...)
		}
		return append(line(b, depth), ']')
	}
	return append(b, raw...)
}
