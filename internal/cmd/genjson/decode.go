package main

import (
	"bytes"
	"fmt"
	"go/types"
	"slices"
	"strconv"
	"strings"
)

// requestRoots are the types core decodes requests into: each gets a
// decodeJSON method, and so does every named type of core they hold.
var requestRoots = []string{
	"CountRequest", "DecodeRequest", "LimitRequest", "TruncateRequest", "BudgetRequest", "ChatRequest",
	"chatExtra", "ChunkRequest", "CalibrateRequest", "PlanCall", "LiveNewRequest", "LiveEditRequest",
	"LiveRequest", "ModelsRequest", "registryFile", "LoadTokenizerRequest", "UsageRequest",
}

// decGen writes the decoders. Each decodeJSON method decodes a valid JSON
// value (jsonio.Check has passed) in place, as encoding/json's Unmarshal
// would: keys matched exactly, else ignoring case; unknown keys skipped;
// null leaving a value alone and clearing a pointer, slice or map; a value
// of the wrong JSON type recorded (the first one) with the path of field
// names that encoding/json reports; UnmarshalJSON methods called with the
// value's text, null included.
type decGen struct {
	*gen
	body  bytes.Buffer
	queue []*types.Named
	done  map[string]bool
}

// hasMethod reports whether t or *t has the method name.
func hasMethod(n *types.Named, name string) bool {
	for _, t := range []types.Type{n, types.NewPointer(n)} {
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			if ms.At(i).Obj().Name() == name {
				return true
			}
		}
	}
	return false
}

// ownDecode reports whether core declares decodeJSON on n by hand.
func ownDecode(n *types.Named) bool {
	for i := 0; i < n.NumMethods(); i++ {
		if n.Method(i).Name() == "decodeJSON" {
			return true
		}
	}
	return false
}

// fieldsOnly are structs that hand-written decoders decode with
// decodeFields and that need no decodeJSON of their own.
var fieldsOnly = []string{"decodeRequestIn"}

func (g *decGen) need(n *types.Named) {
	if g.done[n.Obj().Name()] {
		return
	}
	g.done[n.Obj().Name()] = true
	g.queue = append(g.queue, n)
}

// reflectName is the type's name as reflect.Type.String spells it, which
// encoding/json's type errors show.
func (g *decGen) reflectName(t types.Type) string {
	return types.TypeString(t, func(p *types.Package) string { return p.Name() })
}

func (g *decGen) writeMethod(n *types.Named) {
	b := &g.body
	name := n.Obj().Name()
	own := ownDecode(n)
	s, isStruct := n.Underlying().(*types.Struct)
	switch {
	case !own && hasMethod(n, "UnmarshalJSON"):
		fmt.Fprintf(b, "func (v *%s) decodeJSON(d *decoder, raw []byte) error {\nreturn v.UnmarshalJSON(raw)\n}\n\n", name)
		return
	case !own && hasMethod(n, "UnmarshalText"):
		g.fail("%s has UnmarshalText: give it a decodeJSON method", name)
		return
	case !isStruct && !own:
		fmt.Fprintf(b, "func (v *%s) decodeJSON(d *decoder, raw []byte) error {\n", name)
		g.value(b, n.Underlying(), "(*v)", "raw", g.reflectName(n))
		b.WriteString("return nil\n}\n\n")
		return
	case !isStruct:
		return
	}
	if !own && !slices.Contains(fieldsOnly, name) {
		fmt.Fprintf(b, "func (v *%s) decodeJSON(d *decoder, raw []byte) error {\nreturn v.decodeFields(d, raw, %q)\n}\n\n", name, g.reflectName(n))
	}
	fmt.Fprintf(b, "// decodeFields decodes an object's members into v's fields; typeName is\n// the type a value of another JSON type is reported as.\n")
	fmt.Fprintf(b, "func (v *%s) decodeFields(d *decoder, raw []byte, typeName string) error {\n", name)
	fields := g.fields(s, "v", 0)
	b.WriteString("if !d.is(raw, '{', typeName) {\nreturn nil\n}\n")
	names := make([]string, len(fields))
	for i, f := range fields {
		names[i] = strconv.Quote(f.name)
	}
	fmt.Fprintf(b, "n := len(d.path)\nreturn jsonio.Object(raw, func(key string, val []byte) error {\n")
	fmt.Fprintf(b, "switch fieldIndex(key, %s) {\n", "[]string{"+strings.Join(names, ", ")+"}")
	for i, f := range fields {
		fmt.Fprintf(b, "case %d:\n", i)
		push := append(append([]string{}, f.via...), f.name)
		for j := range push {
			push[j] = strconv.Quote(push[j])
		}
		fmt.Fprintf(b, "d.enter(%s)\n", strings.Join(push, ", "))
		g.value(b, f.typ, f.expr, "val", g.reflectName(f.typ))
	}
	b.WriteString("}\nd.path = d.path[:n]\nreturn nil\n})\n}\n\n")
}

// value writes the statements that decode the JSON text in the variable
// src into the addressable target, of type t; they may return an error.
func (g *decGen) value(b *bytes.Buffer, t types.Type, target, src, typeName string) {
	t = types.Unalias(t) // core names the request side's types again
	if n, ok := t.(*types.Named); ok && n.Obj().Pkg() != nil {
		if n.Obj().Pkg() == g.pkg {
			g.need(n)
			fmt.Fprintf(b, "if err := %s.decodeJSON(d, %s); err != nil {\nreturn err\n}\n", target, src)
			return
		}
		if g.ours(n.Obj().Pkg()) && hasMethod(n, "UnmarshalJSON") {
			// The request side's types decode themselves (their decodeJSON
			// would only call UnmarshalJSON).
			fmt.Fprintf(b, "if err := %s.UnmarshalJSON(%s); err != nil {\nreturn err\n}\n", target, src)
			return
		}
		g.fail("%s: a type of another package", g.typeString(t))
		return
	}
	conv := g.typeString(t)
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.String:
			fmt.Fprintf(b, "if x%d, ok := d.str(%s, %q); ok {\n%s = %s(x%d)\n}\n", g.next(), src, typeName, target, conv, g.tmp)
		case u.Kind() == types.Bool:
			fmt.Fprintf(b, "if x%d, ok := d.boolean(%s, %q); ok {\n%s = %s(x%d)\n}\n", g.next(), src, typeName, target, conv, g.tmp)
		case u.Info()&types.IsInteger != 0 && u.Info()&types.IsUnsigned != 0:
			fmt.Fprintf(b, "if x%d, ok := d.uint(%s, %q, %d); ok {\n%s = %s(x%d)\n}\n", g.next(), src, typeName, bits(u), target, conv, g.tmp)
		case u.Info()&types.IsInteger != 0:
			fmt.Fprintf(b, "if x%d, ok := d.int(%s, %q, %d); ok {\n%s = %s(x%d)\n}\n", g.next(), src, typeName, bits(u), target, conv, g.tmp)
		case u.Kind() == types.Float64:
			fmt.Fprintf(b, "if x%d, ok := d.float(%s, %q); ok {\n%s = %s(x%d)\n}\n", g.next(), src, typeName, target, conv, g.tmp)
		default:
			g.fail("unsupported basic type %s", conv)
		}
	case *types.Pointer:
		fmt.Fprintf(b, "if %s[0] == 'n' {\n%s = nil\n} else {\nif %s == nil {\n%s = new(%s)\n}\n", src, target, target, target, g.typeString(u.Elem()))
		g.value(b, u.Elem(), "(*"+target+")", src, g.reflectName(u.Elem()))
		b.WriteString("}\n")
	case *types.Slice:
		g.tmp++
		e, s := fmt.Sprintf("e%d", g.tmp), fmt.Sprintf("s%d", g.tmp)
		fmt.Fprintf(b, "if %s[0] == 'n' {\n%s = nil\n} else if d.is(%s, '[', %q) {\n", src, target, src, typeName)
		fmt.Fprintf(b, "%s := %s{}\nif err := jsonio.Array(%s, func(%s []byte) error {\nvar x %s\n", s, conv, src, e, g.typeString(u.Elem()))
		g.value(b, u.Elem(), "x", e, g.reflectName(u.Elem()))
		fmt.Fprintf(b, "%s = append(%s, x)\nreturn nil\n}); err != nil {\nreturn err\n}\n%s = %s\n}\n", s, s, target, s)
	case *types.Map:
		if k, ok := u.Key().(*types.Basic); !ok || k.Kind() != types.String {
			g.fail("%s: map keys must be strings", conv)
			return
		}
		g.tmp++
		e, k := fmt.Sprintf("e%d", g.tmp), fmt.Sprintf("k%d", g.tmp)
		fmt.Fprintf(b, "if %s[0] == 'n' {\n%s = nil\n} else if d.is(%s, '{', %q) {\n", src, target, src, typeName)
		fmt.Fprintf(b, "if %s == nil {\n%s = %s{}\n}\nm := %s\n", target, target, conv, target)
		fmt.Fprintf(b, "if err := jsonio.Object(%s, func(%s string, %s []byte) error {\nvar x %s\n", src, k, e, g.typeString(u.Elem()))
		g.value(b, u.Elem(), "x", e, g.reflectName(u.Elem()))
		fmt.Fprintf(b, "m[%s] = x\nreturn nil\n}); err != nil {\nreturn err\n}\n}\n", k)
	default:
		g.fail("unsupported type %s in a request", conv)
	}
}

func (g *decGen) next() int {
	g.tmp++
	return g.tmp
}

func bits(b *types.Basic) int {
	switch b.Kind() {
	case types.Int8, types.Uint8:
		return 8
	case types.Int16, types.Uint16:
		return 16
	case types.Int32, types.Uint32:
		return 32
	}
	return 64
}
