//go:build wasip1 && !tokenfit_lite

// The full variant: core's whole JSON API through call, besides the exports
// both variants share (encodings.go). wasm/exports.txt lists them all.

package main

import (
	"bytes"
	"runtime"
	"strings"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/wasm/internal/abi"
)

// api is made on the first call: building the model registry costs a JSON
// decode that a host which only counts (the count fast path) never needs,
// and it would otherwise run inside _initialize.
var api *core.API

func theAPI() *core.API {
	if api == nil {
		api = core.NewAPI()
	}
	return api
}

// fail records err for last_error and returns its status number.
func fail(err error) int32 {
	lastErr = abi.ErrorJSON(err)
	return abi.Status(err)
}

func recovered(p any) error { return abi.Recovered(p) }

// call runs one operation of core's JSON API: the operation name is the
// opLen bytes at opPtr, the request the reqLen bytes at reqPtr. It returns a
// new buffer holding the JSON answer (an error answer included) as
// (address << 32 | length); the host reads it, then frees it. 0 means no
// answer could be made (see last_error).
//
//go:wasmexport call
func call(opPtr, opLen, reqPtr, reqLen uint32) (res uint64) {
	defer endGCCycle()
	defer func() {
		if p := recover(); p != nil {
			res = pack(abi.ErrorJSON(abi.Recovered(p)))
		}
	}()
	op, err := view(opPtr, opLen)
	if err != nil {
		return pack(abi.ErrorJSON(err))
	}
	req, err := view(reqPtr, reqLen)
	if err != nil {
		return pack(abi.ErrorJSON(err))
	}
	// No copy: core decodes the request into values of its own (strings
	// and json.RawMessage are copied out) and keeps no reference to it
	// after the call, so the host may reuse the buffer. A copy would cost as
	// much memory again as the request, for good.
	return pack(theAPI().Call(string(op), req))
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
	defer endGCCycle()
	defer func() {
		if p := recover(); p != nil {
			res = pack(abi.ErrorJSON(abi.Recovered(p)))
		}
	}()
	name, err := view(namePtr, nameLen)
	if err != nil {
		return pack(abi.ErrorJSON(err))
	}
	data, err := view(dataPtr, dataLen)
	if err != nil {
		return pack(abi.ErrorJSON(err))
	}
	// The collector is off during the load and collects its garbage after
	// it, once: most of what a load allocates it keeps, so the peak is
	// barely higher than collecting as it goes, and the instance is left
	// with no cycle under way. In a
	// reactor the collector's mark workers run only while an export waits,
	// so a cycle a load starts stays open for the next exports, with the
	// write barrier on and nothing freed: the heap grows inside one cycle
	// for as long as it lasts, and a small file loaded after large ones
	// costs several times what it costs as an instance's first tokenizer
	// (measured in docs/perf/tokenizer-json.md, "Why is a tokenizer.json
	// loaded through the JSON API, as base64, under a name?"). endGCCycle would only end
	// a cycle under way; this collection also frees the load's garbage at
	// once.
	defer pauseGC()()
	answer := theAPI().LoadTokenizerBytes(string(name), bytes.Clone(data))
	runtime.GC()
	return pack(answer)
}

// handleNamed returns the handle of the encoding name, or of the tokenizer
// loaded under it: such a handle stands for the name, so a count by it
// takes the name's latest load. The API is not made for a built-in name
// (no tokenizer can be loaded before it is).
func handleNamed(name string) (int32, error) {
	e, err := engine.Get(name)
	if err == nil {
		return handle(e), nil
	}
	if !hasLoader || api == nil {
		return 0, err
	}
	if _, ok := api.Registry().Tokenizer(name); !ok {
		return 0, err
	}
	for i, x := range handles {
		if x.tokenizer == name {
			return int32(i + 1), nil
		}
	}
	handles = append(handles, handleOf{tokenizer: strings.Clone(name)}) // name is the host's buffer
	return int32(len(handles)), nil
}

// counter returns what handle h counts with.
func counter(h int32) (interface{ Count(string) int }, error) {
	if !hasLoader || h <= 0 || int(h) > len(handles) || handles[h-1].tokenizer == "" {
		return enc(h)
	}
	t, ok := theAPI().Registry().Tokenizer(handles[h-1].tokenizer)
	if !ok {
		return nil, invalidHandle(h) // never: a tokenizer stays loaded
	}
	return t, nil
}
