//go:build wasip1

// Package loader is the tokenizer.json loader's part of the full wasip1
// module (wasm/wasip1), which imports it: core's (package core/hf, which
// gives the JSON API its loadTokenizer operation), load_tokenizer's load,
// and the handles of loaded tokenizers, which encoding_handle gives and
// count counts by. The module without the loader (wasm/wasip1/nohf) is
// the same module without this package, and so links none of it.
package loader

import (
	"bytes"
	"runtime"
	"strings"

	_ "github.com/tokenfit/tokenfit/core/hf"
	"github.com/tokenfit/tokenfit/wasm/internal/full"
	"github.com/tokenfit/tokenfit/wasm/internal/reactor"
)

func init() {
	full.UseLoader(load)
	full.UseTokenizers(named, counter)
}

// load loads the tokenizer.json (or its compact table) data under name, as
// call("loadTokenizer", {"name", "data"}) does (core.API.LoadTokenizerBytes).
// The tokenizer keeps views of its file, and the host's buffer is only
// lent, so it loads a copy.
//
// The collector is off during the load and collects its garbage after it,
// once: most of what a load allocates it keeps, so the peak is barely
// higher than collecting as it goes, and the instance is left with no
// cycle under way. In a reactor the collector's mark workers run only
// while an export waits, so a cycle a load starts stays open for the next
// exports, with the write barrier on and nothing freed: the heap grows
// inside one cycle for as long as it lasts, and a small file loaded after
// large ones costs several times what it costs as an instance's first
// tokenizer (measured in docs/perf/tokenizer-json.md, "Why is a
// tokenizer.json loaded through the JSON API, as base64, under a name?").
// EndGCCycle would only end a cycle under way; this collection also frees
// the load's garbage at once.
func load(name string, data []byte) []byte {
	defer reactor.PauseGC()()
	answer := full.API().LoadTokenizerBytes(name, bytes.Clone(data))
	runtime.GC()
	return answer
}

// loaded are the handles named gave, with their tokenizers' names (a
// module loads a few).
var loaded []struct {
	h    int32
	name string
}

// named returns the handle of the tokenizer loaded under name: it stands
// for the name, so a count by it takes the name's latest load. The API is
// not made for it (no tokenizer can be loaded before it is).
func named(name string) (int32, bool) {
	if !full.Made() {
		return 0, false
	}
	if _, ok := full.API().Registry().Tokenizer(name); !ok {
		return 0, false
	}
	for _, x := range loaded {
		if x.name == name {
			return x.h, true
		}
	}
	h := reactor.Reserve()
	loaded = append(loaded, struct {
		h    int32
		name string
	}{h, strings.Clone(name)}) // name is the host's buffer
	return h, true
}

// counter returns the tokenizer of a handle named gave, nil for any other
// handle.
func counter(h int32) interface{ Count(string) int } {
	for _, x := range loaded {
		if x.h == h {
			t, _ := full.API().Registry().Tokenizer(x.name) // a tokenizer stays loaded
			return t
		}
	}
	return nil
}
