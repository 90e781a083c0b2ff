// Command genjson writes, from core's request and answer types and those of
// its request side (core/internal/chat, which core names again), the one
// schema of tokenfit's JSON API in three forms, without reflection:
//
//   - core/json_encode_gen.go: an appendJSON method for every type an
//     answer holds, and appendAny, which writes any answer. The bytes are
//     encoding/json's (SetEscapeHTML(false)): fields in declaration order,
//     embedded structs flattened by encoding/json's rules, omitempty, map
//     keys sorted. A type with an appendJSON of its own is called; the
//     request side's types are written inline (it keeps its own methods).
//   - core/json_decode_gen.go: the request decoders, by encoding/json's
//     rule (decode.go) for core's own requests; the request side's types
//     decode themselves (UnmarshalJSON).
//   - core/internal/chat/json_*_gen.go: the request side's own: the chat
//     request's decoders by the exact rule (exact.go), as the providers'
//     APIs read it, and the encoders its hand-written methods call.
//   - js/src/schema.d.ts: the TypeScript of every request and answer, with
//     the Go doc comments as TSDoc (ts.go).
//
// So adding a field to a request or an answer is one edit: the field, its
// json tag and its doc comment (and, where Go cannot say it, a genjson or
// ts tag: exact.go and ts.go list them). Run it with `go generate ./core`
// (make generate); TestGenerated_Fresh in this package fails when a file
// is stale.
package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"go/ast"
	"go/build"
	"go/format"
	"go/importer"
	"go/parser"
	"go/token"
	"go/types"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// The generated files, beside core's sources.
const (
	encodeFile = "json_encode_gen.go"
	decodeFile = "json_decode_gen.go"
)

// roots are the types an answer of core's API may hold at its top level or
// in an `any`: each gets a case in appendAny.
var roots = []string{
	"ErrorAnswer", "CountAnswer", "EncodeAnswer", "DecodeAnswer", "LimitAnswer", "TruncateAnswer",
	"Budget", "ChatAnswer", "ChunkAnswer", "CalibrateAnswer", "Plan", "LiveAnswer", "VersionAnswer",
	"ModelInfo", "[]ModelInfo", "map[string]Estimator", "map[string]any", "map[string]bool", "map[string]int",
	"map[string][]EncodingInfo", "TokenizerInfo", "UsageAnswer", "CatalogInfo",
}

// generated matches the type errors of hand-written code that calls what
// genjson writes, expected while core is checked without it.
var generated = regexp.MustCompile(`appendJSON|appendAny|decodeJSON|decodeFields|decodeExact|decodeExactFields|\w+Keys\b`)

func main() {
	dir := "."
	if len(os.Args) > 1 {
		dir = os.Args[1]
	}
	files, err := generate(dir)
	if err != nil {
		fmt.Fprintln(os.Stderr, "genjson:", err)
		os.Exit(1)
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), src, 0o644); err != nil {
			fmt.Fprintln(os.Stderr, "genjson:", err)
			os.Exit(1)
		}
	}
}

// The packages genjson writes for: core, and below it the request side,
// whose types core's requests and answers hold.
const (
	corePath = "github.com/tokenfit/tokenfit/core"
	chatPath = corePath + "/internal/chat"
	chatDir  = "internal/chat" // from core's directory
)

// chatHandWritten are the types that the request side's hand-written
// appendJSON methods (core/internal/chat/json.go) write by calling their
// generated method; exactRoots are its exact-rule decoders.
var chatHandWritten = []string{"ContentPart"}

// generate type-checks core in dir, and the request side below it, without
// their generated files and returns the generated files' sources by path
// from dir.
func generate(dir string) (map[string][]byte, error) {
	fset := token.NewFileSet()
	chatFiles, err := parseDir(fset, filepath.Join(dir, chatDir))
	if err != nil {
		return nil, err
	}
	coreFiles, err := parseDir(fset, dir)
	if err != nil {
		return nil, err
	}
	source := importer.ForCompiler(fset, "source", nil)
	chatPkg, err := check(fset, chatPath, chatFiles, source)
	if err != nil {
		return nil, err
	}
	corePkg, err := check(fset, corePath, coreFiles, importerFunc(func(path string) (*types.Package, error) {
		if path == chatPath {
			return chatPkg, nil
		}
		return source.Import(path)
	}))
	if err != nil {
		return nil, err
	}
	all := append(append([]*ast.File{}, coreFiles...), chatFiles...)
	out := map[string][]byte{}

	// The request side: the encoders its hand-written appendJSON methods
	// call and its exact-rule decoders. Core calls none of them: it writes
	// the request side's types inline and decodes them by their
	// UnmarshalJSON.
	c := &gen{pkg: chatPkg, done: map[string]bool{}}
	c.index(all)
	for _, name := range chatHandWritten {
		t, err := c.parseType(name)
		if err != nil {
			return nil, fmt.Errorf("%s: %v", name, err)
		}
		c.value(&bytes.Buffer{}, t, "v", false)
	}
	c.drain()
	cx := &exactGen{gen: c, done: map[string]bool{}}
	for _, r := range exactRoots {
		t, err := c.parseType(r)
		if err != nil {
			return nil, fmt.Errorf("exact root %s: %v", r, err)
		}
		cx.need(t.(*types.Named))
	}
	for len(cx.queue) > 0 {
		n := cx.queue[0]
		cx.queue = cx.queue[1:]
		cx.writeMethods(n)
	}

	// Core: every answer and request.
	g := &gen{pkg: corePkg, pkgs: []*types.Package{corePkg, chatPkg}, done: map[string]bool{}}
	g.index(all)
	var rootTypes []types.Type
	for _, r := range roots {
		t, err := g.parseType(r)
		if err != nil {
			return nil, fmt.Errorf("root %s: %v", r, err)
		}
		rootTypes = append(rootTypes, t)
	}
	g.writeAny(rootTypes)
	g.drain()
	dg := &decGen{gen: g, done: map[string]bool{}}
	for _, r := range append(requestRoots, fieldsOnly...) {
		t, err := g.parseType(r)
		if err != nil {
			return nil, fmt.Errorf("request root %s: %v", r, err)
		}
		n, ok := t.(*types.Named)
		if !ok {
			return nil, fmt.Errorf("request root %s: not a named type", r)
		}
		if n.Obj().Pkg() == corePkg {
			dg.need(n)
		}
	}
	for len(dg.queue) > 0 {
		n := dg.queue[0]
		dg.queue = dg.queue[1:]
		dg.writeMethod(n)
	}
	var reqTypes []types.Type
	for _, r := range requestRoots {
		t, _ := g.parseType(r)
		reqTypes = append(reqTypes, t)
	}
	out[tsFile] = g.writeTS(fset, rootTypes, reqTypes)
	for _, x := range []*gen{c, g} {
		if x.err != nil {
			return nil, x.err
		}
	}
	if out[encodeFile], err = goFile("core", g.anyFn.Bytes(), g.body.Bytes()); err != nil {
		return nil, err
	}
	if out[decodeFile], err = goFile("core", dg.body.Bytes()); err != nil {
		return nil, err
	}
	if out[filepath.Join(chatDir, encodeFile)], err = goFile("chat", c.body.Bytes()); err != nil {
		return nil, err
	}
	if out[filepath.Join(chatDir, decodeFile)], err = goFile("chat", cx.body.Bytes()); err != nil {
		return nil, err
	}
	return out, nil
}

// parseDir parses the files of the default build (no tags) in dir, but
// its tests and generated files: a file and its alternative under a tag
// may both declare a method, and //go:build ignore generators are left
// out too.
func parseDir(fset *token.FileSet, dir string) ([]*ast.File, error) {
	pkgs, err := parser.ParseDir(fset, dir, func(fi os.FileInfo) bool {
		n := fi.Name()
		ok, err := build.Default.MatchFile(dir, n)
		return err == nil && ok && !strings.HasSuffix(n, "_test.go") && !strings.HasSuffix(n, "_gen.go")
	}, parser.ParseComments)
	if err != nil {
		return nil, err
	}
	var files []*ast.File
	for name, p := range pkgs {
		if name == "main" {
			continue // go:build ignore generators
		}
		for _, f := range p.Files {
			files = append(files, f)
		}
	}
	sort.Slice(files, func(i, j int) bool { return fset.File(files[i].Pos()).Name() < fset.File(files[j].Pos()).Name() })
	return files, nil
}

// check type-checks a package without its generated files. Hand-written
// code calls the generated methods, which are missing then: those errors
// are expected, any other is not.
func check(fset *token.FileSet, path string, files []*ast.File, imp types.Importer) (*types.Package, error) {
	var typeErr error
	conf := types.Config{Importer: imp, Error: func(err error) {
		if msg := err.Error(); typeErr == nil && !generated.MatchString(msg) {
			typeErr = err
		}
	}}
	pkg, _ := conf.Check(path, fset, files, nil)
	return pkg, typeErr
}

type importerFunc func(path string) (*types.Package, error)

func (f importerFunc) Import(path string) (*types.Package, error) { return f(path) }

// drain writes the appendJSON method of every type queued.
func (g *gen) drain() {
	for len(g.queue) > 0 {
		n := g.queue[0]
		g.queue = g.queue[1:]
		g.writeMethod(n)
	}
}

// goFile is a generated Go file of package pkg, its imports those its code
// uses.
func goFile(pkg string, parts ...[]byte) ([]byte, error) {
	body := bytes.Join(parts, nil)
	var imports []string
	for _, p := range []string{"bytes", "maps", "slices"} {
		if bytes.Contains(body, []byte(p+".")) {
			imports = append(imports, strconv.Quote(p))
		}
	}
	if len(imports) > 0 {
		imports = append(imports, "")
	}
	for _, p := range []string{"github.com/tokenfit/tokenfit/core/internal/jsonio", chatPath} {
		if bytes.Contains(body, []byte(p[strings.LastIndexByte(p, '/')+1:]+".")) {
			imports = append(imports, strconv.Quote(p))
		}
	}
	head := "// Code generated by internal/cmd/genjson; DO NOT EDIT.\n// Regenerate: go generate ./core\n\npackage " + pkg + "\n\n"
	if len(imports) > 0 {
		head += "import (\n" + strings.Join(imports, "\n") + "\n)\n\n"
	}
	return gofmt(head, body)
}

func gofmt(head string, parts ...[]byte) ([]byte, error) {
	out := []byte(head)
	for _, p := range parts {
		out = append(out, p...)
	}
	src, err := format.Source(out)
	if err != nil {
		return nil, fmt.Errorf("%v\n%s", err, out)
	}
	return src, nil
}

type gen struct {
	pkg   *types.Package
	pkgs  []*types.Package             // the packages whose types the TypeScript declares (core's gen)
	specs map[string]*ast.TypeSpec     // core's type declarations by name
	docs  map[string]*ast.CommentGroup // and their doc comments
	anyFn bytes.Buffer
	body  bytes.Buffer
	queue []*types.Named
	done  map[string]bool
	err   error
	tmp   int
}

// index records each type declaration of files with its doc comment.
func (g *gen) index(files []*ast.File) {
	g.specs, g.docs = map[string]*ast.TypeSpec{}, map[string]*ast.CommentGroup{}
	for _, f := range files {
		for _, d := range f.Decls {
			gd, ok := d.(*ast.GenDecl)
			if !ok || gd.Tok != token.TYPE {
				continue
			}
			for _, s := range gd.Specs {
				ts := s.(*ast.TypeSpec)
				g.specs[ts.Name.Name] = ts
				g.docs[ts.Name.Name] = ts.Doc
				if ts.Doc == nil && len(gd.Specs) == 1 {
					g.docs[ts.Name.Name] = gd.Doc
				}
			}
		}
	}
}

// fieldDoc returns the doc comment of a struct field of core.
func (g *gen) fieldDoc(f *types.Var) *ast.CommentGroup {
	for _, spec := range g.specs {
		st, ok := spec.Type.(*ast.StructType)
		if !ok || st.Pos() > f.Pos() || f.Pos() > st.End() {
			continue
		}
		for _, af := range st.Fields.List {
			for _, n := range af.Names {
				if n.Pos() == f.Pos() {
					return af.Doc
				}
			}
		}
	}
	return nil
}

// directive returns the argument of a //genjson:<key> line of a doc
// comment, and whether it has one. Go leaves such lines out of the
// documentation (go/doc/comment), and out of the TSDoc.
func directive(doc *ast.CommentGroup, key string) (string, bool) {
	if doc == nil {
		return "", false
	}
	for _, c := range doc.List {
		if rest, ok := strings.CutPrefix(c.Text, "//genjson:"+key); ok && (rest == "" || rest[0] == ' ') {
			return strings.TrimSpace(rest), true
		}
	}
	return "", false
}

func (g *gen) fail(format string, args ...any) {
	if g.err == nil {
		g.err = fmt.Errorf(format, args...)
	}
}

// parseType reads a type expression in package core's scope.
func (g *gen) parseType(s string) (types.Type, error) {
	tv, err := types.Eval(token.NewFileSet(), g.pkg, token.NoPos, s)
	if err != nil {
		return nil, err
	}
	if !tv.IsType() {
		return nil, errors.New("not a type")
	}
	return types.Unalias(tv.Type), nil
}

// ours reports whether p is a package genjson writes for.
func (g *gen) ours(p *types.Package) bool { return p == g.pkg || slices.Contains(g.pkgs, p) }

func (g *gen) qual(p *types.Package) string {
	if p == g.pkg {
		return ""
	}
	return p.Name()
}

func (g *gen) typeString(t types.Type) string { return types.TypeString(t, g.qual) }

// writeAny writes appendAny, which dispatches on the answer types.
func (g *gen) writeAny(rootTypes []types.Type) {
	b := &g.anyFn
	b.WriteString("// appendAny writes v, an answer or a value inside one, as JSON.\n")
	b.WriteString("func appendAny(w *jsonio.Writer, v any) {\nswitch v := v.(type) {\n")
	b.WriteString("case nil:\nw.Null()\n")
	for _, t := range rootTypes {
		fmt.Fprintf(b, "case %s:\n", g.typeString(t))
		g.value(b, t, "v", false)
	}
	b.WriteString("default:\nw.Err = errUnsupportedAnswer(v)\n}\n}\n\n")
}

// ownMethod reports whether core declares appendJSON on t by hand.
func (g *gen) ownMethod(n *types.Named) bool {
	for i := 0; i < n.NumMethods(); i++ {
		if n.Method(i).Name() == "appendJSON" {
			return true
		}
	}
	return false
}

// value writes the statements that write expr, of type t.
func (g *gen) value(b *bytes.Buffer, t types.Type, expr string, _ bool) {
	t = types.Unalias(t) // core names the request side's types again
	if n, ok := t.(*types.Named); ok {
		obj := n.Obj()
		switch {
		case obj.Pkg() == nil:
			// error and other universe types
		case obj.Pkg().Path() == "encoding/json" && obj.Name() == "RawMessage",
			obj.Pkg() != g.pkg && g.ours(obj.Pkg()) && obj.Name() == "RawJSON":
			fmt.Fprintf(b, "w.RawJSON(%s)\n", expr)
			return
		case obj.Pkg().Path() == "encoding/json" && obj.Name() == "Number":
			fmt.Fprintf(b, "w.Raw(string(%s))\n", expr)
			return
		case obj.Pkg() == g.pkg:
			if !g.ownMethod(n) {
				if g.hasMarshaler(n) {
					g.fail("%s has a MarshalJSON or MarshalText method: give it an appendJSON method instead", obj.Name())
					return
				}
				if !g.done[obj.Name()] {
					g.done[obj.Name()] = true
					g.queue = append(g.queue, n)
				}
			}
			fmt.Fprintf(b, "%s.appendJSON(w)\n", expr)
			return
		default:
			if g.hasMarshaler(n) {
				g.fail("%s has a MarshalJSON or MarshalText method", g.typeString(n))
				return
			}
		}
	}
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.String:
			fmt.Fprintf(b, "w.String(string(%s))\n", expr)
		case u.Kind() == types.Bool:
			fmt.Fprintf(b, "w.Bool(bool(%s))\n", expr)
		case u.Info()&types.IsInteger != 0 && u.Info()&types.IsUnsigned != 0:
			fmt.Fprintf(b, "w.Uint(uint64(%s))\n", expr)
		case u.Info()&types.IsInteger != 0:
			fmt.Fprintf(b, "w.Int(int64(%s))\n", expr)
		case u.Kind() == types.Float64:
			fmt.Fprintf(b, "w.Float(float64(%s))\n", expr)
		default:
			g.fail("unsupported basic type %s", g.typeString(t))
		}
	case *types.Pointer:
		fmt.Fprintf(b, "if %s == nil {\nw.Null()\n} else {\n", expr)
		g.value(b, u.Elem(), "(*"+expr+")", false)
		b.WriteString("}\n")
	case *types.Slice:
		if e, ok := u.Elem().(*types.Basic); ok && e.Kind() == types.Byte {
			g.fail("%s: []byte is base64 in encoding/json; unsupported", g.typeString(t))
			return
		}
		fmt.Fprintf(b, "if %s == nil {\nw.Null()\n} else {\n", expr)
		g.array(b, u.Elem(), expr)
		b.WriteString("}\n")
	case *types.Array:
		g.array(b, u.Elem(), expr)
	case *types.Map:
		k, ok := u.Key().Underlying().(*types.Basic)
		if !ok || k.Kind() != types.String {
			g.fail("%s: map keys must be strings", g.typeString(t))
			return
		}
		g.tmp++
		key, start := fmt.Sprintf("k%d", g.tmp), fmt.Sprintf("s%d", g.tmp)
		fmt.Fprintf(b, "if %s == nil {\nw.Null()\n} else {\n", expr)
		fmt.Fprintf(b, "%s := w.ObjectStart()\n", start)
		fmt.Fprintf(b, "for _, %s := range slices.Sorted(maps.Keys(%s)) {\nw.Byte(',')\nw.String(string(%s))\nw.Byte(':')\n", key, expr, key)
		g.value(b, u.Elem(), expr+"["+key+"]", false)
		fmt.Fprintf(b, "}\nw.ObjectEnd(%s)\n}\n", start)
	case *types.Interface:
		if !u.Empty() {
			g.fail("unsupported interface %s", g.typeString(t))
			return
		}
		fmt.Fprintf(b, "appendAny(w, %s)\n", expr)
	case *types.Struct:
		g.structBody(b, u, expr)
	default:
		g.fail("unsupported type %s", g.typeString(t))
	}
}

func (g *gen) array(b *bytes.Buffer, elem types.Type, expr string) {
	g.tmp++
	i, e := fmt.Sprintf("i%d", g.tmp), fmt.Sprintf("e%d", g.tmp)
	fmt.Fprintf(b, "w.Byte('[')\nfor %s, %s := range %s {\nif %s > 0 {\nw.Byte(',')\n}\n", i, e, expr, i)
	g.value(b, elem, e, false)
	b.WriteString("}\nw.Byte(']')\n")
}

func (g *gen) hasMarshaler(n *types.Named) bool {
	for _, t := range []types.Type{n, types.NewPointer(n)} {
		ms := types.NewMethodSet(t)
		for i := 0; i < ms.Len(); i++ {
			switch ms.At(i).Obj().Name() {
			case "MarshalJSON", "MarshalText":
				return true
			}
		}
	}
	return false
}

// writeMethod writes the appendJSON method of a named type of core.
func (g *gen) writeMethod(n *types.Named) {
	b := &g.body
	fmt.Fprintf(b, "func (v %s) appendJSON(w *jsonio.Writer) {\n", n.Obj().Name())
	if s, ok := n.Underlying().(*types.Struct); ok {
		g.structBody(b, s, "v")
	} else {
		g.value(b, n.Underlying(), "v", false)
	}
	b.WriteString("}\n\n")
}

// field is one JSON member of a struct after encoding/json's flattening.
type field struct {
	name      string
	expr      string // selector from the struct value
	typ       types.Type
	omitEmpty bool
	depth     int
	tagged    bool
	via       []string // the embedded structs' Go names on the way, which encoding/json's error paths show
}

// fields lists the members of s as encoding/json does: exported fields by
// their tag name or Go name, "-" left out, untagged embedded structs
// flattened, and of several fields with one name the shallowest (or the
// one tagged, among equally shallow ones) kept, or none when that is
// ambiguous.
func (g *gen) fields(s *types.Struct, expr string, depth int) []field {
	return g.fieldsVia(s, expr, depth, nil)
}

func (g *gen) fieldsVia(s *types.Struct, expr string, depth int, via []string) []field {
	var out []field
	for i := 0; i < s.NumFields(); i++ {
		f := s.Field(i)
		tag := reflect.StructTag(s.Tag(i)).Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		if f.Embedded() && name == "" {
			t := f.Type()
			if _, ok := t.(*types.Pointer); ok {
				g.fail("embedded pointer %s is not supported", f.Name())
				continue
			}
			if st, ok := t.Underlying().(*types.Struct); ok {
				out = append(out, g.fieldsVia(st, expr+"."+f.Name(), depth+1, append(append([]string{}, via...), f.Name()))...)
				continue
			}
		}
		if !f.Exported() {
			continue
		}
		if strings.Contains(opts, "string") {
			g.fail("field %s: the string option is not supported", f.Name())
		}
		tagged := name != ""
		if name == "" {
			name = f.Name()
		}
		out = append(out, field{name: name, expr: expr + "." + f.Name(), typ: f.Type(),
			omitEmpty: strings.Contains(","+opts+",", ",omitempty,"), depth: depth, tagged: tagged, via: via})
	}
	if depth > 0 {
		return out
	}
	var kept []field
	for _, f := range out {
		var rivals []field
		for _, o := range out {
			if o.name == f.name {
				rivals = append(rivals, o)
			}
		}
		if dominant(f, rivals) {
			kept = append(kept, f)
		}
	}
	return kept
}

func dominant(f field, rivals []field) bool {
	for _, o := range rivals {
		if o.depth < f.depth {
			return false
		}
	}
	var same []field
	for _, o := range rivals {
		if o.depth == f.depth {
			same = append(same, o)
		}
	}
	if len(same) == 1 {
		return true
	}
	tagged := 0
	for _, o := range same {
		if o.tagged {
			tagged++
		}
	}
	return tagged == 1 && f.tagged
}

func (g *gen) structBody(b *bytes.Buffer, s *types.Struct, expr string) {
	g.tmp++
	start := fmt.Sprintf("s%d", g.tmp)
	fmt.Fprintf(b, "%s := w.ObjectStart()\n", start)
	for _, f := range g.fields(s, expr, 0) {
		key, _ := json.Marshal(f.name)
		lit := fmt.Sprintf("%q", ","+string(key)+":")
		if f.omitEmpty {
			cond := g.nonEmpty(f.typ, f.expr)
			if cond == "" {
				f.omitEmpty = false
			} else {
				fmt.Fprintf(b, "if %s {\n", cond)
			}
		}
		fmt.Fprintf(b, "w.Raw(%s)\n", lit)
		g.value(b, f.typ, f.expr, false)
		if f.omitEmpty {
			b.WriteString("}\n")
		}
	}
	fmt.Fprintf(b, "w.ObjectEnd(%s)\n", start)
}

// nonEmpty returns the condition under which omitempty keeps a value of t,
// or "" when encoding/json never leaves it out (a struct).
func (g *gen) nonEmpty(t types.Type, expr string) string {
	t = types.Unalias(t) // core names the request side's types again
	switch u := t.Underlying().(type) {
	case *types.Basic:
		switch {
		case u.Kind() == types.String:
			return expr + ` != ""`
		case u.Kind() == types.Bool:
			return "bool(" + expr + ")"
		default:
			return expr + " != 0"
		}
	case *types.Slice, *types.Map:
		return "len(" + expr + ") != 0"
	case *types.Array:
		if u.Len() == 0 {
			return "false"
		}
		return ""
	case *types.Pointer, *types.Interface:
		return expr + " != nil"
	}
	return ""
}
