package host

import (
	"encoding/json"
	"strings"
	"sync"
)

// registrations is the registry state that the registerModels calls through
// a Host add up to: the estimators by name and the models by id, each as
// its latest registration left it, in the order core keeps them. Its size is
// that of the models and estimators registered, however many times each was
// registered. Applied to an instance (as one registerModels request), it
// gives that instance the registry of one that saw every registration.
type registrations struct {
	mu         sync.Mutex
	gen        uint64 // changes with every registration; 0: none yet
	estimators map[string]json.RawMessage
	models     []registered
	request    []byte // the state as a registerModels request; nil when stale
}

// registered is one model as last registered, under its id in lower case
// (core's key: a model whose id is already known replaces it).
type registered struct {
	key string
	raw json.RawMessage
}

// add records a registration that succeeded on in. An instance that was up
// to date before it is still up to date after.
func (r *registrations) add(in *instance, request []byte) {
	var f struct {
		Estimators map[string]json.RawMessage `json:"estimators"`
		Models     []json.RawMessage          `json:"models"`
	}
	// The module decoded the request with encoding/json, as here, and
	// accepted it: it cannot fail.
	json.Unmarshal(request, &f)
	keys := make([]string, len(f.Models))
	replaced := map[string]bool{}
	for i, m := range f.Models {
		var id struct {
			ID string `json:"id"`
		}
		json.Unmarshal(m, &id)
		keys[i] = strings.ToLower(id.ID)
		replaced[keys[i]] = true
	}

	r.mu.Lock()
	defer r.mu.Unlock()
	if in.regs == r.gen {
		in.regs = r.gen + 1
	}
	r.gen++
	r.request = nil
	if r.estimators == nil {
		r.estimators = map[string]json.RawMessage{}
	}
	for name, e := range f.Estimators {
		r.estimators[name] = e
	}
	kept := r.models[:0]
	for _, m := range r.models {
		if !replaced[m.key] {
			kept = append(kept, m)
		}
	}
	clear(r.models[len(kept):])
	r.models = kept
	for i, m := range f.Models {
		r.models = append(r.models, registered{keys[i], m})
	}
}

// state returns the generation of the state and the state as one
// registerModels request. Cost: O(state) after a registration, O(1) after.
func (r *registrations) state() (uint64, []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.request == nil && r.gen != 0 {
		models := make([]json.RawMessage, len(r.models))
		for i, m := range r.models {
			models[i] = m.raw
		}
		r.request, _ = json.Marshal(struct {
			Estimators map[string]json.RawMessage `json:"estimators"`
			Models     []json.RawMessage          `json:"models"`
		}{r.estimators, models})
	}
	return r.gen, r.request
}
