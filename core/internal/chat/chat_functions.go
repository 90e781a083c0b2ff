package chat

import (
	"bytes"
	"errors"
	"slices"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// The API shows function definitions to the model as TypeScript-like text,
// a "namespace functions" in the system message, and bills that text. This
// file renders it (testdata/chat-rules.md §4.2):
//
//	namespace functions {
//
//	// Get the weather
//	type get_weather = (_: {
//	// The city
//	location: string,
//	unit?: "celsius" | "fahrenheit",
//	}) => any;
//
//	} // namespace functions
//
// Properties come in the order the caller wrote them, so parameters are
// parsed into an ordered tree rather than a Go map.

// maxSchemaDepth bounds the nesting of a parameters schema: deeper input is
// refused rather than walked (strict mode itself allows 10 levels).
const maxSchemaDepth = 64

// jnode is a JSON value that keeps the order of object keys.
type jnode struct {
	kind  byte   // 'o' object, 'a' array, 's' string, 'n' number, 'b' boolean, 'z' null
	str   string // a string's value, a number's literal, "true"/"false"
	keys  []string
	vals  []*jnode       // object values (parallel to keys) or array elements
	index map[string]int // key → position, built once an object is large
}

// smallObject is the size up to which objects are searched linearly.
const smallObject = 16

// get returns an object's value for key, or nil.
func (n *jnode) get(key string) *jnode {
	if n == nil || n.kind != 'o' {
		return nil
	}
	if i, ok := n.find(key); ok {
		return n.vals[i]
	}
	return nil
}

func (n *jnode) find(key string) (int, bool) {
	if n.index != nil {
		i, ok := n.index[key]
		return i, ok
	}
	for i, k := range n.keys {
		if k == key {
			return i, true
		}
	}
	return 0, false
}

// set adds a key, or replaces the value of a repeated key in its first
// position, as JavaScript and Python objects do.
func (n *jnode) set(key string, val *jnode) {
	if i, ok := n.find(key); ok {
		n.vals[i] = val
		return
	}
	n.keys = append(n.keys, key)
	n.vals = append(n.vals, val)
	if n.index != nil {
		n.index[key] = len(n.keys) - 1
	} else if len(n.keys) > smallObject {
		n.index = make(map[string]int, 2*len(n.keys))
		for i, k := range n.keys {
			n.index[k] = i
		}
	}
}

// text renders a scalar the way string interpolation does.
func (n *jnode) text() string {
	switch n.kind {
	case 's', 'n', 'b':
		return n.str
	case 'z':
		return "null"
	}
	var b strings.Builder
	n.writeJSON(&b)
	return b.String()
}

// writeJSON writes the value as compact JSON.
func (n *jnode) writeJSON(b *strings.Builder) { n.write(b, ",", ":", true) }

// writeSpaced writes the value as Python's json.dumps does by default,
// with ", " and ": " between members.
func (n *jnode) writeSpaced(b *strings.Builder) { n.write(b, ", ", ": ", false) }

// write writes the value with comma and colon between members; escapeHTML
// escapes < > & as encoding/json does.
func (n *jnode) write(b *strings.Builder, comma, colon string, escapeHTML bool) {
	switch n.kind {
	case 'o':
		b.WriteByte('{')
		for i, k := range n.keys {
			if i > 0 {
				b.WriteString(comma)
			}
			b.Write(jsonio.AppendString(nil, k, escapeHTML))
			b.WriteString(colon)
			n.vals[i].write(b, comma, colon, escapeHTML)
		}
		b.WriteByte('}')
	case 'a':
		b.WriteByte('[')
		for i, v := range n.vals {
			if i > 0 {
				b.WriteString(comma)
			}
			v.write(b, comma, colon, escapeHTML)
		}
		b.WriteByte(']')
	case 's':
		b.Write(jsonio.AppendString(nil, n.str, escapeHTML))
	default:
		b.WriteString(n.text())
	}
}

var errSchemaDepth = errors.New("nested too deeply")

// parseOrdered parses one JSON value keeping object key order. Cost: O(n)
// to validate, then O(n·depth) to walk (depth ≤ maxSchemaDepth).
func parseOrdered(data []byte) (*jnode, error) {
	if jsonio.Check(data) != nil {
		return nil, jsonio.ErrSyntax
	}
	return parseNode(data, 0)
}

func parseNode(b []byte, depth int) (*jnode, error) {
	if depth > maxSchemaDepth {
		return nil, errSchemaDepth
	}
	b = bytes.TrimSpace(b)
	if len(b) == 0 {
		return nil, jsonio.ErrSyntax
	}
	switch b[0] {
	case '{':
		n := &jnode{kind: 'o'}
		err := jsonio.Object(b, func(key string, val []byte) error {
			child, err := parseNode(val, depth+1)
			if err == nil {
				n.set(key, child)
			}
			return err
		})
		return n, err
	case '[':
		n := &jnode{kind: 'a'}
		err := jsonio.Array(b, func(val []byte) error {
			child, err := parseNode(val, depth+1)
			if err == nil {
				n.vals = append(n.vals, child)
			}
			return err
		})
		return n, err
	case '"':
		s, err := jsonio.Unquote(b)
		return &jnode{kind: 's', str: s}, err
	case 't', 'f':
		return &jnode{kind: 'b', str: string(b)}, nil
	case 'n':
		return &jnode{kind: 'z'}, nil
	}
	return &jnode{kind: 'n', str: string(b)}, nil
}

// funcInput is one function definition and the JSON path it came from.
type funcInput struct {
	def  *FunctionDef
	path string
}

// rendered is the namespace text and what CountChat needs to know about it.
type rendered struct {
	text        string
	undescribed int      // properties without description that are not string enums
	nested      bool     // an object below the top level, or anyOf
	unknown     []string // schema keywords whose rendering is not known
	strict      bool     // a definition asked for strict mode
}

// Schema keywords whose rendering (or absence from it) matches API counts.
var knownSchemaKeys = []string{"type", "properties", "required", "description", "enum", "items", "anyOf", "const", "additionalProperties"}

type funcRenderer struct {
	style   ParamStyle
	out     rendered
	unknown map[string]bool
}

// renderFunctions renders the definitions in request order. An invalid
// schema gives a *FieldError under the definition's path. Cost: O(n) in the
// size of the definitions (times the nesting depth, at most
// maxSchemaDepth, for the indentation of nested objects).
func renderFunctions(defs []funcInput, style ParamStyle) (rendered, error) {
	r := &funcRenderer{style: style, unknown: map[string]bool{}}
	var b strings.Builder
	b.WriteString("namespace functions {\n\n")
	for _, d := range defs {
		if d.def.Strict != nil && *d.def.Strict {
			r.out.strict = true
		}
		var params *jnode
		if len(d.def.Parameters) > 0 && !jsonio.IsNull(d.def.Parameters) {
			p, err := parseOrdered(d.def.Parameters)
			if err != nil {
				return rendered{}, fieldErr(d.path+".parameters", "%v", err)
			}
			if p.kind != 'o' {
				return rendered{}, fieldErr(d.path+".parameters", "want an object (a JSON schema), got %s", kindName(p))
			}
			params = p
			r.checkKeys(params)
		}
		if d.def.Description != "" {
			b.WriteString("// ")
			b.WriteString(d.def.Description)
			b.WriteByte('\n')
		}
		props, err := r.properties(params, d.path+".parameters")
		if err != nil {
			return rendered{}, err
		}
		if props != nil && len(props.keys) > 0 {
			body, err := r.objectProperties(params, props, 0, d.path+".parameters")
			if err != nil {
				return rendered{}, err
			}
			b.WriteString("type " + d.def.Name + " = (_: ")
			if desc, _ := r.description(params, d.path+".parameters"); desc != "" && style == ParamsHarmony {
				// The parameters' own description: harmony writes an
				// object's description before its brace.
				b.WriteString("// " + desc + "\n")
			}
			b.WriteString("{\n")
			b.WriteString(body)
			b.WriteString("\n}) => any;\n\n")
		} else {
			b.WriteString("type " + d.def.Name + " = () => any;\n\n")
		}
	}
	b.WriteString("} // namespace functions")
	r.out.text = b.String()
	for k := range r.unknown {
		r.out.unknown = append(r.out.unknown, k)
	}
	slices.Sort(r.out.unknown)
	return r.out, nil
}

// checkKeys notes the keywords of a schema whose rendering is not known.
func (r *funcRenderer) checkKeys(schema *jnode) {
	for _, k := range schema.keys {
		if !slices.Contains(knownSchemaKeys, k) {
			r.unknown[k] = true
		}
	}
}

func kindName(n *jnode) string {
	switch n.kind {
	case 'o':
		return "an object"
	case 'a':
		return "an array"
	case 's':
		return "a string"
	case 'n':
		return "a number"
	case 'b':
		return "a boolean"
	}
	return "null"
}

// properties returns a schema's properties object, or nil.
func (r *funcRenderer) properties(schema *jnode, path string) (*jnode, error) {
	props := schema.get("properties")
	if props == nil || props.kind == 'z' {
		return nil, nil
	}
	if props.kind != 'o' {
		return nil, fieldErr(path+".properties", "want an object, got %s", kindName(props))
	}
	return props, nil
}

// objectProperties renders the property lines of an object schema, without
// the surrounding braces, joined by newlines. depth is the object's nesting
// level (0 for parameters itself).
func (r *funcRenderer) objectProperties(schema, props *jnode, depth int, path string) (string, error) {
	var required map[string]bool
	if req := schema.get("required"); req != nil && req.kind != 'z' {
		if req.kind != 'a' {
			return "", fieldErr(path+".required", "want an array of property names, got %s", kindName(req))
		}
		required = make(map[string]bool, len(req.vals))
		for _, v := range req.vals {
			if v.kind == 's' {
				required[v.str] = true
			}
		}
	}
	indent := ""
	if r.style == ParamsIndented {
		indent = strings.Repeat(" ", 2*depth)
	}
	var lines []string
	for i, key := range props.keys {
		prop := props.vals[i]
		pp := path + ".properties." + key
		if prop.kind != 'o' {
			return "", fieldErr(pp, "want an object (a JSON schema), got %s", kindName(prop))
		}
		desc, err := r.description(prop, pp)
		if err != nil {
			return "", err
		}
		if desc != "" && (r.style != ParamsIndented || depth == 0) {
			lines = append(lines, indent+"// "+desc)
		}
		if desc == "" && !isStringEnum(prop) {
			r.out.undescribed++
		}
		typ, err := r.formatType(prop, depth, pp)
		if err != nil {
			return "", err
		}
		opt := "?"
		if required[key] {
			opt = ""
		}
		lines = append(lines, indent+key+opt+": "+typ+",")
	}
	return strings.Join(lines, "\n"), nil
}

func (r *funcRenderer) description(schema *jnode, path string) (string, error) {
	d := schema.get("description")
	if d == nil || d.kind == 'z' {
		return "", nil
	}
	if d.kind != 's' {
		return "", fieldErr(path+".description", "want a string, got %s", kindName(d))
	}
	return d.str, nil
}

func isStringEnum(schema *jnode) bool {
	t := schema.get("type")
	return t != nil && t.kind == 's' && t.str == "string" && schema.get("enum") != nil
}

// formatType renders a property's type. depth is the level of the object
// the property belongs to.
func (r *funcRenderer) formatType(schema *jnode, depth int, path string) (string, error) {
	r.checkKeys(schema)
	if anyOf := schema.get("anyOf"); anyOf != nil && anyOf.kind != 'z' {
		if anyOf.kind != 'a' {
			return "", fieldErr(path+".anyOf", "want an array of schemas, got %s", kindName(anyOf))
		}
		r.out.nested = true
		alts := make([]string, len(anyOf.vals))
		for i, alt := range anyOf.vals {
			ap := indexPath(path+".anyOf", i)
			if alt.kind != 'o' {
				return "", fieldErr(ap, "want an object (a JSON schema), got %s", kindName(alt))
			}
			s, err := r.formatType(alt, depth, ap)
			if err != nil {
				return "", err
			}
			alts[i] = s
		}
		return strings.Join(alts, " | "), nil
	}
	t := schema.get("type")
	if t == nil || t.kind == 'z' {
		if schema.get("enum") != nil {
			r.unknown["enum without type"] = true
			return r.enum(schema, "", path)
		}
		return "any", nil
	}
	switch t.kind {
	case 's':
		return r.formatNamedType(schema, t.str, depth, path)
	case 'a':
		// A list of types; its rendering was never measured.
		r.unknown["type as an array"] = true
		alts := make([]string, 0, len(t.vals))
		for i, v := range t.vals {
			if v.kind != 's' {
				return "", fieldErr(indexPath(path+".type", i), "want a type name, got %s", kindName(v))
			}
			s, err := r.formatNamedType(schema, v.str, depth, path)
			if err != nil {
				return "", err
			}
			alts = append(alts, s)
		}
		return strings.Join(alts, " | "), nil
	}
	return "", fieldErr(path+".type", "want a type name, got %s", kindName(t))
}

func (r *funcRenderer) formatNamedType(schema *jnode, typ string, depth int, path string) (string, error) {
	switch typ {
	case "string", "number", "integer":
		if e := schema.get("enum"); e != nil && e.kind != 'z' {
			return r.enum(schema, typ, path)
		}
		if typ == "string" {
			return "string", nil
		}
		return "number", nil
	case "boolean", "null":
		return typ, nil
	case "object":
		r.out.nested = true
		props, err := r.properties(schema, path)
		if err != nil {
			return "", err
		}
		body := ""
		if props != nil {
			if body, err = r.objectProperties(schema, props, depth+1, path); err != nil {
				return "", err
			}
		}
		return "{\n" + body + "\n}", nil
	case "array":
		items := schema.get("items")
		if items == nil || items.kind == 'z' {
			r.unknown["array without items"] = true
			return "any[]", nil
		}
		if items.kind != 'o' {
			return "", fieldErr(path+".items", "want an object (a JSON schema), got %s", kindName(items))
		}
		s, err := r.formatType(items, depth, path+".items")
		if err != nil {
			return "", err
		}
		return s + "[]", nil
	}
	r.unknown["type "+typ] = true
	return "any", nil
}

// enum renders an enum as a union of literals: quoted for strings, bare
// for numbers (and, without a type, bare for anything but strings).
func (r *funcRenderer) enum(schema *jnode, typ, path string) (string, error) {
	e := schema.get("enum")
	if e.kind != 'a' {
		return "", fieldErr(path+".enum", "want an array, got %s", kindName(e))
	}
	alts := make([]string, len(e.vals))
	for i, v := range e.vals {
		if v.kind == 'o' || v.kind == 'a' {
			r.unknown["enum of objects or arrays"] = true
		}
		quote := typ == "string" || (typ == "" && v.kind == 's')
		if quote {
			alts[i] = `"` + v.text() + `"`
		} else {
			alts[i] = v.text()
		}
	}
	return strings.Join(alts, " | "), nil
}
