package host

import (
	"bytes"
	"encoding/json"
	"slices"
	"sync"
)

// opLoadTokenizer loads a Hugging Face tokenizer into an instance (core's
// loadTokenizer).
const opLoadTokenizer = "loadTokenizer"

// tokenizers are the tokenizers that loadTokenizer calls through a Host
// have loaded. Like registered models they are state inside one instance,
// so the host keeps each name's latest successful request and an instance
// that has not loaded it loads it before it answers. The state is one
// request per name, however many times a name was loaded.
type tokenizers struct {
	mu     sync.Mutex
	gen    uint64 // changes with every load; 0: none yet
	byName map[string]loadedTokenizer
}

type loadedTokenizer struct {
	gen     uint64 // the load's generation
	request []byte // the host's copy
}

// add records a load that succeeded on in, answered by answer (which names
// the tokenizer). An instance that was up to date before it still is.
func (t *tokenizers) add(in *instance, request, answer []byte) {
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
	t.byName[a.Name] = loadedTokenizer{t.gen, bytes.Clone(request)}
}

// since returns the current generation and the requests of the loads after
// generation gen, oldest first.
func (t *tokenizers) since(gen uint64) (uint64, [][]byte) {
	t.mu.Lock()
	defer t.mu.Unlock()
	var loads []loadedTokenizer
	for _, l := range t.byName {
		if l.gen > gen {
			loads = append(loads, l)
		}
	}
	slices.SortFunc(loads, func(a, b loadedTokenizer) int { return int(a.gen - b.gen) })
	reqs := make([][]byte, len(loads))
	for i, l := range loads {
		reqs[i] = l.request
	}
	return t.gen, reqs
}
