package host

import (
	"bytes"
	"cmp"
	"context"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"slices"
	"sync"
	"unicode/utf8"

	"github.com/tokenfit/tokenfit/core"
)

// opLoadTokenizer loads a Hugging Face tokenizer into an instance (core's
// loadTokenizer).
const opLoadTokenizer = "loadTokenizer"

// maxTokenizer is the largest file LoadTokenizer takes: half the module's
// input limit, so that the file fits with a module's load_tokenizer and its
// base64 request with call alike (Gemma 3's tokenizer.json is 33 MB).
const maxTokenizer = maxInput / 2

// LoadTokenizer loads a Hugging Face tokenizer.json, or its compact table
// (tokenfit convert), under name, as core.API.LoadTokenizerBytes does
// natively, and returns the tokenizer's name and vocabulary size. Every
// operation then takes name as its encoding (Count, CountTokens, …), on
// every instance of the pool: an instance that has not loaded it loads it
// before it answers (RATIONALE.md, "Why are registered models kept as
// state?"), and a later load under the name replaces it. The host keeps a
// copy of data for those instances, so the caller may change it afterwards.
//
// The file's bytes go into the module as they are (load_tokenizer,
// wasm/ABI.md), or, for a module built before that export, as base64 in a
// loadTokenizer request through call: the answer is the same, an error's
// too. A damaged or unsupported file is an *Error wrapping
// core.ErrInvalidTable, a bad name one wrapping core.ErrInvalidRequest, a
// file of more than 512 MiB code invalid_argument; the instances keep
// answering. Cost: O(len(data)) in the instance that loads it, and again in
// each instance that loads it later (a compact table of the same
// tokenizer loads in about half the time; docs/perf/tokenizer-json.md has
// the numbers).
func (h *Host) LoadTokenizer(ctx context.Context, name string, data []byte) (core.TokenizerInfo, error) {
	var info core.TokenizerInfo
	if h.cfg.lean {
		return info, fmt.Errorf("%w: %q", ErrLeanModule, opLoadTokenizer)
	}
	if len(data) > maxTokenizer {
		return info, &Error{Code: core.CodeInvalidArgument, Message: fmt.Sprintf("tokenfit: invalid argument: a tokenizer file of %d bytes is over the host's limit of %d bytes", len(data), maxTokenizer)}
	}
	data = bytes.Clone(data) // kept, and read by a call that may outlive ctx
	out, err := with(ctx, h, func(in *instance) ([]byte, error) {
		out, err := in.loadTokenizer(ctx, name, data)
		if err == nil && !isErrorAnswer(out) {
			h.toks.add(in, out, loadedTokenizer{name: name, data: data})
		}
		return out, err
	})
	if err != nil {
		return info, err
	}
	if isErrorAnswer(out) {
		return info, parseError(out)
	}
	if err := json.Unmarshal(out, &info); err != nil {
		return info, fmt.Errorf("%w: decoding the %s answer: %v", core.ErrInternal, opLoadTokenizer, err)
	}
	return info, nil
}

// loadTokenizer loads data under name and returns core's loadTokenizer
// answer: through load_tokenizer, the bytes copied into a buffer of their
// own (freed after: the module keeps its own copy), or without it as base64
// in a JSON request through call.
func (in *instance) loadTokenizer(ctx context.Context, name string, data []byte) ([]byte, error) {
	if in.loadTok == nil {
		if !utf8.ValidString(name) {
			// What load_tokenizer answers: JSON cannot carry the name.
			return core.ErrorJSON(&core.FieldError{Field: "name", Reason: "must be UTF-8"}), nil
		}
		return in.call(ctx, opLoadTokenizer, tokenizerRequest(name, data))
	}
	if err := in.putString(ctx, &in.op, name); err != nil {
		return nil, err
	}
	var file buffer
	if err := in.putBytes(ctx, &file, data); err != nil {
		return nil, err
	}
	out, err := in.takeResult(ctx, in.loadTok, uint64(in.op.ptr), uint64(len(name)), uint64(file.ptr), uint64(len(data)))
	if err != nil {
		return nil, err
	}
	if file.ptr != 0 { // 0: an empty file, which needs no buffer
		if _, err := in.invoke(ctx, in.free, uint64(file.ptr)); err != nil {
			return nil, err
		}
	}
	if out == nil {
		return nil, in.status(ctx, -1)
	}
	return out, nil
}

// tokenizerRequest is core's loadTokenizer request for a file's bytes:
// {"name": name, "data": base64 of data}, data present even when empty.
func tokenizerRequest(name string, data []byte) []byte {
	q, _ := json.Marshal(name)
	b := make([]byte, 0, len(q)+base64.StdEncoding.EncodedLen(len(data))+20)
	b = append(append(append(b, `{"name":`...), q...), `,"data":"`...)
	b = base64.StdEncoding.AppendEncode(b, data)
	return append(b, `"}`...)
}

// tokenizers are the tokenizers loaded through a Host (LoadTokenizer, or
// Call's loadTokenizer). Like registered models they are state inside one
// instance, so the host keeps each name's latest successful load and an
// instance that has not loaded it loads it before it answers. The state is
// one load per name, however many times a name was loaded.
type tokenizers struct {
	mu     sync.Mutex
	gen    uint64 // changes with every load; 0: none yet
	byName map[string]loadedTokenizer
}

// loadedTokenizer is one load, the host's copy: a JSON request given to
// Call, or a file's bytes given to LoadTokenizer under name.
type loadedTokenizer struct {
	gen     uint64 // the load's generation
	request []byte // Call's request; nil for LoadTokenizer's file
	name    string
	data    []byte
}

// add records load, which succeeded on in with answer (which names the
// tokenizer). An instance that was up to date before it still is.
func (t *tokenizers) add(in *instance, answer []byte, load loadedTokenizer) {
	var a struct {
		Name string `json:"name"`
	}
	json.Unmarshal(answer, &a) // the module's own answer: it cannot fail
	t.mu.Lock()
	defer t.mu.Unlock()
	if in.toks == t.gen {
		in.toks = t.gen + 1
	}
	t.gen++
	if t.byName == nil {
		t.byName = map[string]loadedTokenizer{}
	}
	load.gen = t.gen
	t.byName[a.Name] = load
}

// since returns the current generation and the loads after generation gen,
// oldest first.
func (t *tokenizers) since(gen uint64) (uint64, []loadedTokenizer) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var loads []loadedTokenizer
	for _, l := range t.byName {
		if l.gen > gen {
			loads = append(loads, l)
		}
	}
	slices.SortFunc(loads, func(a, b loadedTokenizer) int { return cmp.Compare(a.gen, b.gen) })
	return t.gen, loads
}

// replay loads l into in again.
func (in *instance) replay(ctx context.Context, l loadedTokenizer) ([]byte, error) {
	if l.request != nil {
		return in.call(ctx, opLoadTokenizer, l.request)
	}
	return in.loadTokenizer(ctx, l.name, l.data)
}
