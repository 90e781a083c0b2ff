//go:build js && wasm

// Command js is tokenfit for GOOS=js: core's API on one global object,
// globalThis.__tokenfit, for browsers, Node, Deno, Bun and workerd. Build it
// with
//
//	GOOS=js GOARCH=wasm go build -gcflags=github.com/tokenfit/tokenfit/core=-l \
//	    -gcflags=github.com/tokenfit/tokenfit/core/internal/chat=-l \
//	    -trimpath -ldflags="-s -w -buildid= -checklinkname=0" -buildvcs=false -o tokenfit-js.wasm ./wasm/js
//
// (make wasm does; core without inlining is only smaller) and run it with Go's wasm_exec.js. When main has run,
// globalThis.__tokenfit holds (see wasm/ABI.md, "GOOS=js"):
//
//	abiVersion            number
//	version               string, core.Version
//	call(op, json)        string: the JSON answer, an error answer included
//	count(encoding, text) number: tokens, or a negative status (see lastError)
//	loadTable(bytes)      string: {"encoding": name} or an error answer
//	loadPacked(bytes)     the same for a table in the transport form (.tkp), expanded here
//	lastError()           string: the error answer of the latest negative status, or ""
//
// Nothing here decides anything; every function recovers panics, because a
// Go panic under GOOS=js would end the runtime for every later call.
package main

import (
	"encoding/json"
	"fmt"
	"syscall/js"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/engine"
	_ "github.com/tokenfit/tokenfit/core/hf" // loadTokenizer
	"github.com/tokenfit/tokenfit/wasm/internal/abi"
)

var api = core.NewAPI()

// lastErr is the error answer of the latest negative status.
var lastErr string

func main() {
	js.Global().Set("__tokenfit", js.ValueOf(map[string]any{
		"abiVersion": abi.Version,
		"version":    core.Version,
		"call":       js.FuncOf(call),
		"count":      js.FuncOf(count),
		"loadTable":  js.FuncOf(loadTable),
		"loadPacked": js.FuncOf(loadPacked),
		"lastError":  js.FuncOf(lastError),
	}))
	select {} // keep the functions alive
}

// arg returns args[i], or undefined when the caller passed fewer.
func arg(args []js.Value, i int) js.Value {
	if i < len(args) {
		return args[i]
	}
	return js.Undefined()
}

// str returns a string argument, or an error naming it.
func str(args []js.Value, i int, name string) (string, error) {
	v := arg(args, i)
	if v.Type() != js.TypeString {
		return "", fmt.Errorf("%w: %s must be a string, got %s", abi.ErrInvalidArgument, name, v.Type())
	}
	return v.String(), nil
}

// call(op, json) → the JSON answer as a string.
func call(_ js.Value, args []js.Value) (res any) {
	defer func() {
		if p := recover(); p != nil {
			res = string(abi.ErrorJSON(abi.Recovered(p)))
		}
	}()
	op, err := str(args, 0, "op")
	if err != nil {
		return string(abi.ErrorJSON(err))
	}
	req := ""
	if v := arg(args, 1); !v.IsUndefined() && !v.IsNull() {
		if req, err = str(args, 1, "request"); err != nil {
			return string(abi.ErrorJSON(err))
		}
	}
	return string(api.Call(op, []byte(req)))
}

// count(encoding, text) → tokens, or a negative status. The encoding is a
// built-in one or a tokenizer loaded under that name (loadTokenizer).
func count(_ js.Value, args []js.Value) (res any) {
	defer func() {
		if p := recover(); p != nil {
			res = fail(abi.Recovered(p))
		}
	}()
	name, err := str(args, 0, "encoding")
	if err != nil {
		return fail(err)
	}
	text, err := str(args, 1, "text")
	if err != nil {
		return fail(err)
	}
	e, err := core.GetEncoding(name)
	if err == nil {
		return e.Count(text)
	}
	if t, ok := api.Registry().Tokenizer(name); ok {
		return t.Count(text)
	}
	return fail(err)
}

// loadTable(Uint8Array) → {"encoding": name} or an error answer.
func loadTable(_ js.Value, args []js.Value) any {
	return load(args, func(b []byte) (string, error) {
		e, err := core.LoadEncoding(b)
		if err != nil {
			return "", err
		}
		return e.Name(), nil
	})
}

// loadPacked(Uint8Array) → loadTable's answer for a .tkp, expanded here
// rather than by a JavaScript loop (see engine.LoadPacked).
func loadPacked(_ js.Value, args []js.Value) any {
	return load(args, func(b []byte) (string, error) {
		e, err := engine.LoadPacked(b)
		if err != nil {
			return "", err
		}
		return e.Name(), nil
	})
}

// load copies the table in args[0] into Go and loads it with fn.
func load(args []js.Value, fn func([]byte) (string, error)) (res any) {
	defer func() {
		if p := recover(); p != nil {
			res = string(abi.ErrorJSON(abi.Recovered(p)))
		}
	}()
	v := arg(args, 0)
	if v.Type() != js.TypeObject || !v.InstanceOf(js.Global().Get("Uint8Array")) {
		return string(abi.ErrorJSON(fmt.Errorf("%w: the table must be a Uint8Array", abi.ErrInvalidArgument)))
	}
	b := make([]byte, v.Get("length").Int())
	js.CopyBytesToGo(b, v)
	name, err := fn(b)
	if err != nil {
		return string(abi.ErrorJSON(err))
	}
	out, _ := json.Marshal(map[string]string{"encoding": name})
	return string(out)
}

// lastError() → the error answer of the latest negative status, once.
func lastError(js.Value, []js.Value) any {
	s := lastErr
	lastErr = ""
	return s
}

func fail(err error) int {
	lastErr = string(abi.ErrorJSON(err))
	return int(abi.Status(err))
}
