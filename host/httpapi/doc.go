// Package httpapi serves core's JSON API over HTTP, for programs in any
// language that use tokenfit as a sidecar (tokenfit serve) and for Go
// programs that mount it in their own server:
//
//	POST /v1/{operation}   core's JSON request in, its answer out
//	GET  /healthz          {"status": "ok", "version": …}
//
// Every stateless operation is routed (Operations); the live counters,
// registerModels and loadTokenizer are not, since their state would be shared by every client
// of the server. Errors are core's {"error": {"code", "message", "field"}}
// with the status Status gives the code: 400 for a bad request, 404 for an
// unknown route, 405 (with Allow) for another method, 413 over the body
// limit or a budget of core's (too_large), 415 for a body that is not
// application/json, 500 for an internal error (whose details go to the
// log, not to the client), 503 (with Retry-After) past the requests or
// body bytes in flight (Options). Routes are read from the request target
// as sent (routePath), so /v1%2FcountTokens is no route. A call whose
// client goes away gets its context's end (Native stops core's work) and
// is logged as 499.
//
// The npm package's edge handler (tokenfit/edge) serves the same routes
// with the same statuses from js/src/http-table.js, which
// host/internal/mkhttp generates from this package.
package httpapi

//go:generate go run ../internal/mkhttp ../../js/src/http-table.js
