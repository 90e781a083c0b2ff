package core

import (
	"runtime"
	"slices"
	"strings"
	"sync"

	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/format"
	"github.com/tokenfit/tokenfit/core/internal/stop"
	"github.com/tokenfit/tokenfit/internal/errs"
)

// Version is tokenfit's version, reported by the "version" operation.
const Version = "0.1.0"

// API answers the JSON requests that every host speaks: one operation name
// and one JSON object in, one JSON object out. Hosts hold one API and pass
// requests through unchanged; the answers are the same bytes in Go, in
// WebAssembly and in the CLI. An API is safe for concurrent use.
type API struct {
	mu    sync.RWMutex
	reg   *Registry
	lives lives
}

// NewAPI returns an API over the built-in model registry.
func NewAPI() *API { return &API{reg: DefaultRegistry()} }

// Registry returns the registry the API answers with.
func (a *API) Registry() *Registry {
	a.mu.RLock()
	defer a.mu.RUnlock()
	return a.reg
}

// ErrorAnswer is the JSON shape of every error: {"error": {…}}.
type ErrorAnswer struct {
	Error ErrorBody `json:"error"`
}

// ErrorBody holds a stable code, a message saying what to do, the JSON
// field at fault when there is one, and for encoding_not_loaded the
// encoding to load.
type ErrorBody struct {
	Code     string `json:"code"`
	Message  string `json:"message"`
	Field    string `json:"field,omitempty"`
	Encoding string `json:"encoding,omitempty"`
}

// ErrorJSON encodes err as {"error": {"code", "message", "field"}}.
func ErrorJSON(err error) []byte {
	body := ErrorBody{Code: Code(err), Message: err.Error()}
	if fe, ok := errs.As[*FieldError](err); ok {
		body.Field = fe.Field
	} else if ee, ok := errs.As[*engine.Error](err); ok {
		body.Field, body.Encoding = ee.Field, ee.Encoding
	}
	return ErrorAnswer{body}.JSON()
}

// JSON encodes the answer, for hosts that answer with codes of their own.
// O(len(message)).
func (e ErrorAnswer) JSON() []byte {
	b, _ := marshal(e)
	return b
}

// Call runs one operation and returns its JSON answer, or the JSON error.
// It never panics: a panic inside becomes an "internal" error and the API
// stays usable.
func (a *API) Call(op string, request []byte) []byte {
	out, err := a.Do(op, request)
	if err != nil {
		return ErrorJSON(err)
	}
	return out
}

// Do runs one operation: the answer as JSON, or an error wrapping one of
// the package's sentinel errors.
func (a *API) Do(op string, request []byte) (out []byte, err error) {
	return a.do(nil, op, request)
}

// DoUntil is Do for a caller that may give up on the answer (a server
// whose client went away): once done is closed, the operation stops at
// its next check and DoUntil returns an error wrapping ErrStopped. The
// checks fall between the steps of the longest loops (a chat's messages
// and its template's parts, chunks); a single count runs to its end, which
// its text bounds.
func (a *API) DoUntil(done <-chan struct{}, op string, request []byte) ([]byte, error) {
	select {
	case <-done:
		return nil, ErrStopped
	default:
	}
	return a.do(stop.Chan(done), op, request)
}

func (a *API) do(done stop.Chan, op string, request []byte) (out []byte, err error) {
	h, ok := operations[op]
	if !ok {
		return nil, format.Errorf("%w %q (known: %s)", ErrUnknownOperation, engine.Clip(op), strings.Join(OperationNames(), ", "))
	}
	if len(strings.TrimSpace(string(request))) == 0 {
		request = []byte("{}")
	}
	reg := a.Registry()
	if done != nil {
		r := *reg
		r.stop = done
		reg = &r
	}
	out, err = answer(func() (any, error) { return h(a, reg, request) })
	// models lists the registry, which its own requests (registerModels,
	// loadCatalog) were held to: its answer follows the registry, not this
	// request.
	if budget := answerBudget(len(request)); len(out) > budget && op != "models" {
		return nil, tooLarge("the answer", len(out), budget)
	}
	return out, err
}

// answer runs one operation: its answer as JSON, or its error; a panic
// becomes an error wrapping ErrInternal.
func answer(op func() (any, error)) (out []byte, err error) {
	defer func() {
		if p := recover(); p != nil {
			if _, ok := p.(stop.Signal); ok {
				out, err = nil, ErrStopped
				return
			}
			out, err = nil, format.Errorf("%w: %v\n%s", ErrInternal, p, string(stack()))
		}
	}()
	v, err := op()
	if err != nil {
		return nil, err
	}
	return marshal(v)
}

// OperationNames lists the operations Call answers.
func OperationNames() []string {
	names := make([]string, 0, len(operations))
	for n := range operations {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// handler runs an operation on the API with the registry of the call
// (the API's, with the call's stop channel).
type handler func(a *API, reg *Registry, request []byte) (any, error)

// decode returns a handler that decodes the request into Req and calls f.
func decode[Req any, P interface {
	*Req
	decodable
}](f func(a *API, reg *Registry, req Req) (any, error)) handler {
	return func(a *API, reg *Registry, b []byte) (any, error) {
		var req Req
		if err := decodeJSON(b, P(&req)); err != nil {
			return nil, err
		}
		return f(a, reg, req)
	}
}

var operations map[string]handler

func init() {
	operations = map[string]handler{
		"countTokens": decode(func(a *API, reg *Registry, r CountRequest) (any, error) { return reg.CountTokens(r) }),
		"encode":      decode(func(a *API, reg *Registry, r CountRequest) (any, error) { return reg.Encode(r) }),
		"decode":      decode(func(a *API, reg *Registry, r DecodeRequest) (any, error) { return reg.Decode(r) }),
		"withinLimit": decode(func(a *API, reg *Registry, r LimitRequest) (any, error) { return reg.WithinLimit(r) }),
		"truncate":    decode(func(a *API, reg *Registry, r TruncateRequest) (any, error) { return reg.Truncate(r) }),
		"calculateBudget": decode(func(a *API, reg *Registry, r BudgetRequest) (any, error) {
			return CalculateBudget(reg, r)
		}),
		"countChat":      func(a *API, reg *Registry, b []byte) (any, error) { return reg.countChat(b) },
		"chunk":          decode(func(a *API, reg *Registry, r ChunkRequest) (any, error) { return reg.Chunk(r) }),
		"calibrate":      decode(func(a *API, reg *Registry, r CalibrateRequest) (any, error) { return reg.Calibrate(r) }),
		"planInjection":  decode(func(a *API, reg *Registry, r PlanCall) (any, error) { return reg.PlanInjection(r) }),
		"liveNew":        decode(func(a *API, reg *Registry, r LiveNewRequest) (any, error) { return a.liveNew(r) }),
		"liveEdit":       decode(func(a *API, reg *Registry, r LiveEditRequest) (any, error) { return a.liveEdit(r) }),
		"liveGet":        decode(func(a *API, reg *Registry, r LiveRequest) (any, error) { return a.liveGet(r) }),
		"liveFree":       decode(func(a *API, reg *Registry, r LiveRequest) (any, error) { return a.liveFree(r) }),
		"models":         decode(func(a *API, reg *Registry, r ModelsRequest) (any, error) { return reg.ModelsAnswer(r) }),
		"priceUsage":     decode(func(a *API, reg *Registry, r UsageRequest) (any, error) { return reg.PriceUsage(r) }),
		"loadCatalog":    func(a *API, _ *Registry, b []byte) (any, error) { return a.loadCatalog(b) },
		"registerModels": func(a *API, _ *Registry, b []byte) (any, error) { return a.registerModels(b) },
		"encodings":      func(*API, *Registry, []byte) (any, error) { return encodingsAnswer(), nil },
		"version":        func(*API, *Registry, []byte) (any, error) { return VersionAnswer{Version: Version}, nil },
	}
}

// countChat decodes a chat request in any shape (see Shape), which may
// carry tokenfit's calibration beside the provider's fields.
func (r *Registry) countChat(b []byte) (any, error) {
	var extra chatExtra
	if err := decodeJSON(b, &extra); err != nil {
		return nil, err
	}
	s, err := chat.Read(b)
	if err != nil {
		return nil, err
	}
	reg := r
	ans, err := reg.CountChat(s.Req, extra.Calibration)
	if err != nil {
		return nil, s.Refield(err, "messages")
	}
	ans.Shape, ans.System = s.Fold(&ans.ChatCount)
	if ans.Cost, err = reg.chatCost(b, ans); err != nil {
		return nil, err
	}
	return ans, nil
}

// chatExtra is what a countChat request carries beside OpenAI's fields.
type chatExtra struct {
	Calibration *Calibration `json:"calibration"`
}

// update replaces the registry with what with makes of it; on an error the
// registry stays as it was.
func (a *API) update(with func(*Registry) (*Registry, error)) (*Registry, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	reg, err := with(a.reg)
	if err != nil {
		return nil, err
	}
	a.reg = reg
	return reg, nil
}

func (a *API) registerModels(b []byte) (any, error) {
	reg, err := a.update(func(r *Registry) (*Registry, error) { return r.With(b) })
	if err != nil {
		return nil, err
	}
	return map[string]int{"models": len(reg.models)}, nil
}

// loadCatalog puts a catalog's rows under the registry's (see
// Registry.WithCatalog; the request is the catalog: core/registry/
// catalog.json, the npm package's tables/catalog.json, CatalogJSON in a
// native build), and answers what Catalog says of it.
func (a *API) loadCatalog(b []byte) (any, error) {
	reg, err := a.update(func(r *Registry) (*Registry, error) { return r.WithCatalog(b) })
	if err != nil {
		return nil, err
	}
	return reg.Catalog(), nil
}

// VersionAnswer reports the version.
type VersionAnswer struct {
	Version string `json:"version"`
}

// EncodingInfo describes an encoding.
type EncodingInfo struct {
	Name   string `json:"name"`
	Loaded bool   `json:"loaded"`
}

func encodingsAnswer() map[string][]EncodingInfo {
	var out []EncodingInfo
	for _, n := range EncodingNames() {
		out = append(out, EncodingInfo{Name: n, Loaded: engine.Loaded(n)})
	}
	return map[string][]EncodingInfo{"encodings": out}
}

// ModelsRequest asks for one model (Model set) or all, or those of a
// provider, of a family (a prefix of the catalog's family or of the id),
// of a kind ("chat" for those that take chat), or with a window of at
// least MinWindow tokens.
type ModelsRequest struct {
	Model    string `json:"model,omitempty"`
	Provider string `json:"provider,omitempty"`
	// Family is a prefix of the model's family (modelFamily) or of its id.
	Family string `json:"family,omitempty"`
	// Kind is "chat", or a Model.Kind.
	//genjson:ts 'chat' | NonNullable<Model['kind']>
	Kind string `json:"kind,omitempty"`
	// MinWindow is the least context window.
	MinWindow int `json:"minWindow,omitempty"`
}

// keeps reports whether m passes the request's filters.
func (q ModelsRequest) keeps(m Model) bool {
	kind := m.Kind
	if kind == "" {
		kind = "chat"
	}
	fam := strings.ToLower(q.Family)
	return (q.Provider == "" || strings.EqualFold(m.Provider, q.Provider)) &&
		(q.Kind == "" || strings.EqualFold(kind, q.Kind)) &&
		m.ContextWindow >= q.MinWindow &&
		(fam == "" || strings.HasPrefix(strings.ToLower(m.Family), fam) || strings.HasPrefix(strings.ToLower(m.ID), fam))
}

// ModelInfo is a model with the numbers derived from it.
type ModelInfo struct {
	Model
	ResponseReserve      int  `json:"responseReserve"`
	EffectiveInputBudget int  `json:"effectiveInputBudget"`
	Exact                bool `json:"exact"`
	Resolved
}

// ModelsAnswer lists models, or resolves one (an unknown one falls back).
func (r *Registry) ModelsAnswer(req ModelsRequest) (map[string]any, error) {
	info := func(m Model, res Resolved) ModelInfo {
		return ModelInfo{Model: m, ResponseReserve: m.ResponseReserve(), EffectiveInputBudget: m.EffectiveInputBudget(),
			Exact: m.Encoding != "" || r.tokenizers[m.Tokenizer] != nil, Resolved: res}
	}
	if req.Model != "" {
		res, err := r.Resolve(req.Model)
		if err != nil {
			return nil, err
		}
		return map[string]any{"model": info(res.Model, res.resolved())}, nil
	}
	all := []ModelInfo{}
	for _, m := range r.Models() {
		if req.keeps(m) {
			all = append(all, info(m, Resolved{}))
		}
	}
	return map[string]any{"models": all, "estimators": r.estimators, "catalog": r.Catalog()}, nil
}

// stack is runtime/debug.Stack without runtime/debug, which links fmt and
// os into the modules: the calling goroutine's stack trace.
func stack() []byte {
	buf := make([]byte, 4096)
	for {
		n := runtime.Stack(buf, false)
		if n < len(buf) {
			return buf[:n]
		}
		buf = make([]byte, 2*len(buf))
	}
}
