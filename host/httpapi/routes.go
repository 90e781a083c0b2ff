package httpapi

import (
	"slices"

	"github.com/tokenfit/tokenfit/core"
)

// operations are the operations served, under /v1/: core's stateless ones.
var operations = []string{
	"calculateBudget", "calibrate", "chunk", "countChat", "countTokens", "decode", "encode",
	"encodings", "models", "planInjection", "priceUsage", "truncate", "version", "withinLimit",
}

// unserved are core's operations that hold state in the API answering them,
// with why they are not served: one server answers every client.
var unserved = map[string]string{
	"liveNew":        "live counters live in one instance: keep them in-process (the npm package, the host)",
	"liveEdit":       "live counters live in one instance: keep them in-process (the npm package, the host)",
	"liveGet":        "live counters live in one instance: keep them in-process (the npm package, the host)",
	"liveFree":       "live counters live in one instance: keep them in-process (the npm package, the host)",
	"registerModels": "registered models would change every client's answers: pass the model in the request",
	"loadTokenizer":  "a loaded tokenizer would change every client's answers: count with it in-process (the npm package, the host, core)",
	"loadCatalog":    "the server loads the model catalog itself (tokenfit serve: always; the edge handler: createHandler({ init: { catalog } }))",
}

// Operations lists the operations served under /v1/, sorted.
func Operations() []string { return slices.Clone(operations) }

// served reports whether op is routed.
func served(op string) bool {
	_, found := slices.BinarySearch(operations, op)
	return found
}

// The codes of the HTTP layer's own errors, beside core's.
const (
	CodeNotFound             = "not_found"
	CodeMethodNotAllowed     = "method_not_allowed"
	CodePayloadTooLarge      = "payload_too_large"
	CodeUnsupportedMediaType = "unsupported_media_type"
	CodeRequestTimeout       = "request_timeout"
	CodeUnauthorized         = "unauthorized"
	CodeOverloaded           = "overloaded" // past the requests or body bytes in flight: 503 with Retry-After
	// CodeClientGone is the log's code of a request whose client went away
	// before its answer (status StatusClientGone, never sent).
	CodeClientGone = "client_gone"
)

// StatusClientGone is the status a request whose client went away is
// logged with (nginx's 499): no answer is written.
const StatusClientGone = 499

// statuses maps every error code to its HTTP status: core's codes, the
// boundary codes of the hosts (invalid_argument, invalid_handle,
// not_initialized in JavaScript) and the HTTP layer's own.
var statuses = map[string]int{
	core.CodeInvalidRequest:    400,
	core.CodeUnknownEncoding:   400,
	core.CodeInvalidToken:      400,
	core.CodeInvalidTable:      400,
	core.CodeUnknownOperation:  404,
	core.CodeEncodingNotLoaded: 500,
	core.CodeInternal:          500,
	core.CodeInvalidArgument:   400,
	core.CodeInvalidHandle:     400,
	core.CodeTooLarge:          413,
	"not_initialized":          503,
	CodeNotFound:               404,
	CodeMethodNotAllowed:       405,
	CodePayloadTooLarge:        413,
	CodeUnsupportedMediaType:   415,
	CodeRequestTimeout:         408,
	CodeUnauthorized:           401,
	CodeOverloaded:             503,
}

// Status returns the HTTP status of an error code: 500 for a code it does
// not know.
func Status(code string) int {
	if s, ok := statuses[code]; ok {
		return s
	}
	return 500
}

// Statuses returns every error code the package knows with its status.
func Statuses() map[string]int {
	m := make(map[string]int, len(statuses))
	for c, s := range statuses {
		m[c] = s
	}
	return m
}
