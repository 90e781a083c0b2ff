package main

import (
	"bytes"
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"
	"unicode"
)

// The exact rule: the chat request, decoded as the providers' APIs decode
// it. Unlike the rule of decode.go (encoding/json's, which core's own
// requests keep), keys match exactly; a request's first fault is its error,
// named by its full path ("messages[2].content[0].type") and phrased as
// "want a string, got a number"; of a key given twice the last counts (as
// JavaScript's JSON.parse and Python's json.loads keep it). A struct's
// decodeExact reads an object into it through core's jsonObject
// (chat_json.go), member by member in declaration order.
//
// A field's doc comment may say more, in directives:
//
//   - //genjson:required — an absent or null member is "missing";
//   - //genjson:want <phrase> — the member must be the JSON kind <phrase>
//     opens with ("an object (a JSON schema)"), else the error says "want
//     <phrase>";
//   - //genjson:nonempty — an empty string is "missing" too;
//   - //genjson:check <func> — func(value, path) error runs on the member
//     once it is read;
//   - //genjson:string — a JSON string in place of the object is this
//     member (an image given as its URL, as early clients sent it).
//
// A type with a decodeExact of its own (a union: ChatContent, ToolChoice)
// is called, and the types its fields hold are generated.

// exactRoots are the types core decodes by the exact rule; so is every
// named type of core they hold.
var exactRoots = []string{"ChatRequest"}

// strictKeys are the exact types whose decoder also refuses a key that
// matches a member's only when case is ignored ("Role"): encoding/json
// would read it as the member, a provider ignores it, and either way the
// count would silently be another request's. The exact roots' key lists
// are generated too (chatRequestKeys), for the hand-written checks that
// span several shapes.
var strictKeys = []string{"ChatMessage"}

// exactFields are exact types whose members another type's hand-written
// decoder reads from an object already read (a format's json_schema,
// nested or, in the Responses API, beside its type): they get
// decodeExactFields instead of decodeExact.
var exactFields = []string{"JSONSchemaFormat"}

type exactGen struct {
	*gen
	body  bytes.Buffer
	queue []*types.Named
	done  map[string]bool
}

func (g *exactGen) need(n *types.Named) {
	if n.Obj().Pkg() != g.pkg || g.done[n.Obj().Name()] {
		return
	}
	g.done[n.Obj().Name()] = true
	g.queue = append(g.queue, n)
}

// keysVar is the name of the generated list of a type's JSON keys.
func keysVar(name string) string {
	r := []rune(name)
	i := 0
	for i < len(r) && unicode.IsUpper(r[i]) && (i == 0 || i+1 == len(r) || unicode.IsUpper(r[i+1])) {
		r[i] = unicode.ToLower(r[i])
		i++
	}
	return string(r) + "Keys"
}

// jsonKinds are the JSON kinds as jsonio.Kind names them.
var jsonKinds = []string{"an object", "an array", "a string", "a number", "a boolean"}

// exactOpts reads a field's directives.
func (g *exactGen) exactOpts(f *types.Var) (required bool, want, check string) {
	doc := g.fieldDoc(f)
	_, required = directive(doc, "required")
	want, _ = directive(doc, "want")
	check, _ = directive(doc, "check")
	return
}

// writeMethods writes the exact decoders of one named type.
func (g *exactGen) writeMethods(n *types.Named) {
	name := n.Obj().Name()
	s, isStruct := n.Underlying().(*types.Struct)
	own := hasMethod(n, "decodeExact")
	if !isStruct {
		if !own {
			g.fail("%s: an exact type that is not a struct needs a decodeExact method", name)
		}
		return
	}
	fields := g.fields(s, "v", 0)
	if own {
		// Generate what its fields hold; its own decoder calls them.
		for _, f := range fields {
			g.held(f.typ)
		}
		if !slices.Contains(exactFields, name) {
			return
		}
	}
	b := &g.body
	if slices.Contains(exactRoots, name) || slices.Contains(strictKeys, name) {
		quoted := make([]string, len(fields))
		for i, f := range fields {
			quoted[i] = strconv.Quote(f.name)
		}
		fmt.Fprintf(b, "// %s are %s's JSON keys.\nvar %s = []string{%s}\n\n", keysVar(name), name, keysVar(name), strings.Join(quoted, ", "))
	}
	if slices.Contains(exactFields, name) {
		fmt.Fprintf(b, "// decodeExactFields decodes an object's members into v's fields.\n")
		fmt.Fprintf(b, "func (v *%s) decodeExactFields(o jsonObject) error {\n", name)
	} else {
		fmt.Fprintf(b, "// decodeExact decodes a JSON object into v (null: an error naming path).\n")
		fmt.Fprintf(b, "func (v *%s) decodeExact(raw []byte, path string) error {\n*v = %s{}\n", name, name)
		for _, f := range fields {
			if _, ok := directive(g.fieldDoc(fieldVar(s, f)), "string"); ok {
				b.WriteString("if s := bytes.TrimSpace(raw); len(s) > 0 && s[0] == '\"' {\nu, err := jsonio.Unquote(s)\nif err != nil {\nreturn requestJSONErr(path, err)\n}\n")
				fmt.Fprintf(b, "%s = u\nreturn nil\n}\n", f.expr)
			}
		}
		b.WriteString("o, err := objectAt(raw, path)\nif err != nil {\nreturn err\n}\n")
	}
	if slices.Contains(strictKeys, name) {
		fmt.Fprintf(b, "if err := o.exactKeys(%s); err != nil {\nreturn err\n}\n", keysVar(name))
	}
	for _, f := range fields {
		if len(f.via) > 0 {
			g.fail("%s.%s: embedded structs are not supported by the exact rule", name, f.name)
		}
		g.field(f, fieldVar(s, f))
	}
	b.WriteString("return nil\n}\n\n")
}

// fieldVar finds the Go field of a top-level member.
func fieldVar(s *types.Struct, f field) *types.Var {
	goName := f.expr[strings.LastIndexByte(f.expr, '.')+1:]
	for i := 0; i < s.NumFields(); i++ {
		if s.Field(i).Name() == goName {
			return s.Field(i)
		}
	}
	return nil
}

// held queues the named types of core a value of t holds.
func (g *exactGen) held(t types.Type) {
	t = types.Unalias(t) // core names the request side's types again
	switch u := t.(type) {
	case *types.Named:
		g.need(u)
	case *types.Pointer:
		g.held(u.Elem())
	case *types.Slice:
		g.held(u.Elem())
	}
}

// field writes the statements that decode one member.
func (g *exactGen) field(f field, v *types.Var) {
	b := &g.body
	required, want, check := g.exactOpts(v)
	key := strconv.Quote(f.name)
	path := "joinPath(o.path, " + key + ")"
	if want != "" {
		i := slices.IndexFunc(jsonKinds, func(k string) bool { return strings.HasPrefix(want, k) })
		if i < 0 {
			g.fail("%s: want %q opens with no JSON kind", f.name, want)
			return
		}
		kind := jsonKinds[i]
		fmt.Fprintf(b, "if raw := o.fields[%s]; !jsonio.IsNull(raw) && jsonio.Kind(raw) != %q {\nreturn typeErr(%s, %q, raw)\n}\n", key, kind, path, want)
	}
	t := f.typ
	if p, ok := t.(*types.Pointer); ok {
		if required {
			g.fail("%s: a required member cannot be a pointer", f.name)
		}
		elem := g.typeString(p.Elem())
		if n, ok := p.Elem().(*types.Named); ok && g.decodes(n) {
			g.need(n)
			fmt.Fprintf(b, "if raw := o.fields[%s]; !jsonio.IsNull(raw) {\n%s = new(%s)\n", key, f.expr, elem)
			fmt.Fprintf(b, "if err := %s.decodeExact(raw, %s); err != nil {\nreturn err\n}\n}\n", f.expr, path)
		} else {
			// Set once read: a Go caller's value keeps no half-read member.
			fmt.Fprintf(b, "if !jsonio.IsNull(o.fields[%s]) {\nx := new(%s)\n", key, elem)
			g.value(p.Elem(), "x", key, path, false)
			fmt.Fprintf(b, "%s = x\n}\n", f.expr)
		}
	} else {
		g.value(t, "&"+f.expr, key, path, required)
	}
	if _, ok := directive(g.fieldDoc(v), "nonempty"); ok {
		fmt.Fprintf(b, "if %s == \"\" {\nreturn fieldErr(%s, \"missing\")\n}\n", f.expr, path)
	}
	if check != "" {
		fmt.Fprintf(b, "if err := %s(%s, %s); err != nil {\nreturn err\n}\n", check, f.expr, path)
	}
}

// decodes reports whether a named type of core has a decodeExact, its own
// or a generated one.
func (g *exactGen) decodes(n *types.Named) bool {
	_, isStruct := n.Underlying().(*types.Struct)
	return n.Obj().Pkg() == g.pkg && (isStruct || hasMethod(n, "decodeExact"))
}

// value writes the statements that decode member key into *ptr.
func (g *exactGen) value(t types.Type, ptr, key, path string, required bool) {
	t = types.Unalias(t) // core names the request side's types again
	b := &g.body
	ret := func(call string) { fmt.Fprintf(b, "if err := %s; err != nil {\nreturn err\n}\n", call) }
	target := strings.TrimPrefix(ptr, "&")
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() == g.pkg {
		if g.decodes(n) {
			g.need(n)
			if required {
				fmt.Fprintf(b, "if raw := o.fields[%s]; jsonio.IsNull(raw) {\nreturn fieldErr(%s, \"missing\")\n} else ", key, path)
				fmt.Fprintf(b, "if err := %s.decodeExact(raw, %s); err != nil {\nreturn err\n}\n", target, path)
				return
			}
			fmt.Fprintf(b, "if raw := o.fields[%s]; !jsonio.IsNull(raw) {\n", key)
			ret(fmt.Sprintf("%s.decodeExact(raw, %s)", target, path))
			b.WriteString("}\n")
			return
		}
		if n.Obj().Name() == "RawJSON" {
			fmt.Fprintf(b, "if raw := o.fields[%s]; !jsonio.IsNull(raw) {\n%s = bytes.Clone(bytes.TrimSpace(raw))\n}\n", key, target)
			return
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		conv := func(basic string) string {
			if types.Identical(t, types.Typ[u.Kind()]) {
				return ptr
			}
			return fmt.Sprintf("(*%s)(%s)", basic, ptr)
		}
		switch {
		case u.Kind() == types.String && required:
			ret(fmt.Sprintf("o.requiredStr(%s, %s)", key, conv("string")))
		case u.Kind() == types.String:
			ret(fmt.Sprintf("o.str(%s, %s)", key, conv("string")))
		case u.Kind() == types.Bool && !required:
			ret(fmt.Sprintf("o.boolean(%s, %s)", key, conv("bool")))
		case u.Kind() == types.Int && !required:
			// Counts and sizes: a non-negative integer.
			ret(fmt.Sprintf("o.size(%s, %s)", key, conv("int")))
		default:
			g.fail("%s: %s is not supported by the exact rule", key, g.typeString(t))
		}
	case *types.Slice:
		elem, ok := u.Elem().(*types.Named)
		if !ok || required {
			g.fail("%s: only lists of core's types are supported by the exact rule", key)
			return
		}
		g.need(elem)
		fmt.Fprintf(b, "if list, err := decodeArray(o.fields[%s], %s); err != nil {\nreturn err\n} else if list != nil {\n", key, path)
		fmt.Fprintf(b, "%s = make(%s, len(list))\nfor i, raw := range list {\n", target, g.typeString(t))
		ret(fmt.Sprintf("%s[i].decodeExact(raw, indexPath(%s, i))", target, path))
		b.WriteString("}\n}\n")
	default:
		g.fail("%s: %s is not supported by the exact rule", key, g.typeString(t))
	}
}
