//go:build wasip1

// Package full is the full wasip1 modules' own part: core's whole JSON API
// through call and load_tokenizer, besides the exports every module has
// (package reactor), with errors answered as core answers them.
// wasm/exports.txt lists the exports. The module with the tokenizer.json
// loader (wasm/wasip1) imports package core/hf too; the one without it
// (wasm/wasip1/nohf) does not, and its load_tokenizer answers
// unknown_operation.
package full

import (
	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/wasm/internal/abi"
	"github.com/tokenfit/tokenfit/wasm/internal/reactor"
)

func init() {
	reactor.Use(func(err error) ([]byte, int32) { return abi.ErrorJSON(err), abi.Status(err) }, abi.Recovered)
}

// api is made on the first call: building the model registry costs a JSON
// decode that a host which only counts (the count fast path) never needs,
// and it would otherwise run inside _initialize.
var api *core.API

// API returns the module's API, made on the first call.
func API() *core.API {
	if api == nil {
		api = core.NewAPI()
	}
	return api
}

// Made reports whether the API is made.
func Made() bool { return api != nil }

// encodingHandle returns the handle of a loaded encoding named by the n
// bytes at ptr, or of a tokenizer loaded under that name, or a negative
// status (encoding_not_loaded, unknown_encoding).
//
//go:wasmexport encoding_handle
func encodingHandle(ptr, n uint32) (h int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&h)
	s, err := reactor.Text(ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	e, err := engine.Get(s)
	if err == nil {
		return reactor.Handle(e)
	}
	if tokenizers.named != nil {
		if h, ok := tokenizers.named(s); ok {
			return h
		}
	}
	return reactor.Fail(err)
}

// count returns the number of tokens in the n bytes at ptr with the
// encoding (or tokenizer) h, or a negative status. The text is read in
// place.
//
//go:wasmexport count
func count(h int32, ptr, n uint32) (c int32) {
	defer reactor.EndGCCycle()
	defer reactor.Rescue(&c)
	var t interface{ Count(string) int }
	e, err := reactor.Encoding(h)
	if err == nil {
		t = e
	} else if tokenizers.counter != nil {
		t = tokenizers.counter(h) // nil for no tokenizer's handle
	}
	if t == nil {
		return reactor.Fail(err)
	}
	s, err := reactor.Text(ptr, n)
	if err != nil {
		return reactor.Fail(err)
	}
	return int32(t.Count(s))
}

// tokenizers are the handles of loaded tokenizers, in the module with the
// tokenizer.json loader (package loader: UseTokenizers): named returns
// the handle of the tokenizer loaded under name (reactor.Reserve gives it
// one) and false when none is; counter returns what a handle named gave
// counts with, and nil for any other.
var tokenizers struct {
	named   func(name string) (int32, bool)
	counter func(h int32) interface{ Count(string) int }
}

// UseTokenizers sets tokenizers. Package loader calls it in its
// initialisation.
func UseTokenizers(named func(name string) (int32, bool), counter func(h int32) interface{ Count(string) int }) {
	tokenizers.named, tokenizers.counter = named, counter
}

// call runs one operation of core's JSON API: the operation name is the
// opLen bytes at opPtr, the request the reqLen bytes at reqPtr. It returns a
// new buffer holding the JSON answer (an error answer included) as
// (address << 32 | length); the host reads it, then frees it. 0 means no
// answer could be made (see last_error).
//
//go:wasmexport call
func call(opPtr, opLen, reqPtr, reqLen uint32) (res uint64) {
	defer reactor.EndGCCycle()
	defer func() {
		if p := recover(); p != nil {
			res = reactor.Pack(abi.ErrorJSON(abi.Recovered(p)))
		}
	}()
	op, err := reactor.View(opPtr, opLen)
	if err != nil {
		return reactor.Pack(abi.ErrorJSON(err))
	}
	req, err := reactor.View(reqPtr, reqLen)
	if err != nil {
		return reactor.Pack(abi.ErrorJSON(err))
	}
	// No copy: core decodes the request into values of its own (strings
	// and json.RawMessage are copied out) and keeps no reference to it
	// after the call, so the host may reuse the buffer. A copy would cost as
	// much memory again as the request, for good.
	return reactor.Pack(API().Call(string(op), req))
}

// loadTokenizer loads the tokenizer.json (or its compact table) in the
// dataLen bytes at dataPtr under the name in the nameLen bytes at namePtr,
// and answers as call("loadTokenizer", {"name", "data"}) does, without the
// base64 and the JSON request (wasm/ABI.md): a new buffer holding the JSON
// answer, packed. The tokenizer keeps views of its file, and the host's
// buffer is only lent, so it loads a copy.
//
//go:wasmexport load_tokenizer
func loadTokenizer(namePtr, nameLen, dataPtr, dataLen uint32) (res uint64) {
	defer reactor.EndGCCycle()
	defer func() {
		if p := recover(); p != nil {
			res = reactor.Pack(abi.ErrorJSON(abi.Recovered(p)))
		}
	}()
	name, err := reactor.View(namePtr, nameLen)
	if err != nil {
		return reactor.Pack(abi.ErrorJSON(err))
	}
	data, err := reactor.View(dataPtr, dataLen)
	if err != nil {
		return reactor.Pack(abi.ErrorJSON(err))
	}
	return reactor.Pack(load(string(name), data))
}

// load answers load_tokenizer once its buffers are checked: in a module
// without the tokenizer.json loader, loadTokenizer's unknown_operation;
// package loader gives the loader's (UseLoader).
var load = func(string, []byte) []byte { return API().Call("loadTokenizer", nil) }

// UseLoader makes load_tokenizer answer with load. Package loader calls it
// in its initialisation.
func UseLoader(l func(name string, data []byte) []byte) { load = l }
