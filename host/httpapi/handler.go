package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// DefaultMaxBodyBytes is the largest request body served when Options
// leaves it unset: 8 MiB, about two million tokens of English.
const DefaultMaxBodyBytes = 8 << 20

// DefaultMaxInFlight is how many requests a handler serves at once when
// Options leaves it unset; the body bytes it holds at once default to
// DefaultInFlightBodies bodies of the largest size.
const (
	DefaultMaxInFlight    = 64
	DefaultInFlightBodies = 4
)

// RetryAfterSeconds is the Retry-After of a 503 past the limits in flight.
const RetryAfterSeconds = 1

// Caller runs one operation of core's JSON API: its JSON answer, or an error
// whose code (core.Code, or a *host.Error's Code) picks the status.
// (*core.API).Do, wrapped by Native, and (*host.Host).Do are Callers.
type Caller func(ctx context.Context, op string, request []byte) ([]byte, error)

// Native returns the Caller of an API in this process. A call stops (with
// core.ErrStopped) soon after its context ends: core checks between the
// steps of its longest loops (core.API.DoUntil).
func Native(api *core.API) Caller {
	return func(ctx context.Context, op string, request []byte) ([]byte, error) {
		return api.DoUntil(ctx.Done(), op, request)
	}
}

// Options configure a handler. The zero value is the defaults.
type Options struct {
	// MaxBodyBytes is the largest request body; a larger one is refused
	// with 413 without being read. Defaults to DefaultMaxBodyBytes.
	MaxBodyBytes int64
	// MaxInFlight is how many operations the handler runs at once, and
	// MaxInFlightBytes how many request body bytes it holds at once
	// (taken as they arrive); a request past either is refused with 503
	// and Retry-After. /healthz counts in neither. Default
	// DefaultMaxInFlight and DefaultInFlightBodies × MaxBodyBytes;
	// MaxInFlightBytes is at least MaxBodyBytes.
	MaxInFlight      int
	MaxInFlightBytes int64
	// Log receives one record per request (method, path, status, code,
	// bytes in and out, milliseconds, remote address), and an internal
	// error's details. Defaults to none.
	Log *slog.Logger
}

// New returns the handler of the routes in the package comment, answering
// with call.
func New(call Caller, opts Options) http.Handler {
	if opts.MaxBodyBytes <= 0 {
		opts.MaxBodyBytes = DefaultMaxBodyBytes
	}
	if opts.MaxInFlight <= 0 {
		opts.MaxInFlight = DefaultMaxInFlight
	}
	if opts.MaxInFlightBytes <= 0 {
		opts.MaxInFlightBytes = DefaultInFlightBodies * opts.MaxBodyBytes
	}
	opts.MaxInFlightBytes = max(opts.MaxInFlightBytes, opts.MaxBodyBytes)
	h := &handler{call: call, opts: opts, busy: inflight{maxRequests: int64(opts.MaxInFlight), maxBytes: opts.MaxInFlightBytes}}
	h.version(context.Background())
	return h
}

type handler struct {
	call Caller
	opts Options
	busy inflight
	// ver is the version /healthz reports, asked of the Caller once (when
	// the handler is made, and again only until it has answered), so that
	// a health check never waits for an instance busy with a request.
	ver atomic.Pointer[string]
}

// result is what a request came to, for the log.
type result struct {
	status  int
	code    string // the error code, "" for an answer
	detail  string // an internal error's message, kept from the client
	in, out int
}

func (h *handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	start := time.Now()
	res := h.serve(w, r)
	if h.opts.Log == nil {
		return
	}
	level := slog.LevelInfo
	attrs := []slog.Attr{
		slog.String("method", r.Method), slog.String("path", r.RequestURI),
		slog.Int("status", res.status), slog.Int("in", res.in), slog.Int("out", res.out),
		slog.Float64("ms", float64(time.Since(start).Microseconds())/1000), slog.String("remote", r.RemoteAddr),
	}
	if res.code != "" {
		attrs = append(attrs, slog.String("code", res.code))
	}
	if res.status == StatusClientGone {
		level = slog.LevelWarn
	}
	if res.detail != "" {
		level = slog.LevelError
		attrs = append(attrs, slog.String("detail", res.detail))
	}
	h.opts.Log.LogAttrs(r.Context(), level, "request", attrs...)
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) result {
	path := routePath(r)
	switch {
	case path == "/healthz":
		if r.Method != http.MethodGet {
			return methodNotAllowed(w, r, path, http.MethodGet)
		}
		return h.health(w, r)
	case strings.HasPrefix(path, "/v1/"):
		op := path[len("/v1/"):]
		if !served(op) {
			msg := "tokenfit: unknown operation " + strconv.Quote(op) + " (served: " + strings.Join(operations, ", ") + ")"
			if why, ok := unserved[op]; ok {
				msg = "tokenfit: " + op + " is not served over HTTP: " + why
			}
			return fail(w, core.CodeUnknownOperation, msg, "")
		}
		if r.Method != http.MethodPost {
			return methodNotAllowed(w, r, path, http.MethodPost)
		}
		return h.operation(w, r, op)
	}
	return fail(w, CodeNotFound, "tokenfit: no route "+strconv.Quote(path)+": POST /v1/{operation} or GET /healthz", "")
}

func (h *handler) health(w http.ResponseWriter, r *http.Request) result {
	v, err := h.version(r.Context())
	if err != nil {
		return h.failErr(w, err)
	}
	b, _ := json.Marshal(struct {
		Status  string `json:"status"`
		Version string `json:"version"`
	}{"ok", v})
	return answer(w, b)
}

// version is the version of what answers, asked of the Caller until it
// has answered once.
func (h *handler) version(ctx context.Context) (string, error) {
	if v := h.ver.Load(); v != nil {
		return *v, nil
	}
	out, err := h.call(ctx, "version", nil)
	if err != nil {
		return "", err
	}
	var v core.VersionAnswer
	if err := json.Unmarshal(out, &v); err != nil {
		return "", fmt.Errorf("%w: version answer: %v", core.ErrInternal, err)
	}
	h.ver.Store(&v.Version)
	return v.Version, nil
}

func (h *handler) operation(w http.ResponseWriter, r *http.Request, op string) result {
	ct := r.Header.Get("Content-Type")
	if mt, _, err := mime.ParseMediaType(ct); err != nil || mt != "application/json" {
		return fail(w, CodeUnsupportedMediaType, "tokenfit: the body must be JSON, sent as Content-Type: application/json (not "+strconv.Quote(ct)+")", "")
	}
	limit := h.opts.MaxBodyBytes
	if r.ContentLength > limit {
		// Refused before a byte of the body is read; the connection closes
		// rather than drain it.
		w.Header().Set("Connection", "close")
		return tooLarge(w, limit)
	}
	if !h.busy.enter() {
		return busy(w, "tokenfit: the server is running as many requests as it takes ("+strconv.Itoa(h.opts.MaxInFlight)+"): try again shortly")
	}
	defer h.busy.leave()
	in := &body{r: http.MaxBytesReader(w, r.Body, limit), f: &h.busy}
	defer func() { h.busy.give(in.held) }()
	buf := make([]byte, 0, min(max(r.ContentLength, 0), limit)+1)
	body, err := readAll(buf, in)
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return tooLarge(w, limit)
	case errors.Is(err, errBusy):
		return busy(w, "tokenfit: the server holds as many request bytes as it takes ("+strconv.FormatInt(h.opts.MaxInFlightBytes, 10)+"): try again shortly")
	case errors.As(err, &ne) && ne.Timeout():
		w.Header().Set("Connection", "close")
		return fail(w, CodeRequestTimeout, "tokenfit: the body did not arrive in time", "")
	case err != nil && r.Context().Err() != nil:
		return result{status: StatusClientGone, code: CodeClientGone, in: len(body)}
	case err != nil:
		return fail(w, core.CodeInvalidRequest, "tokenfit: invalid request: reading the body: "+err.Error(), "")
	}
	out, err := h.call(r.Context(), op, body)
	if err != nil && r.Context().Err() != nil {
		// The client went away: the call stopped (or was left to end
		// unanswered); nothing to write, a line for the log.
		return result{status: StatusClientGone, code: CodeClientGone, in: len(body)}
	}
	if err != nil {
		res := h.failErr(w, err)
		res.in = len(body)
		return res
	}
	res := answer(w, out)
	res.in = len(body)
	return res
}

// failErr answers an error from the Caller: core's error answer, or the
// module's (a *host.Error), with the status of its code.
func (h *handler) failErr(w http.ResponseWriter, err error) result {
	var body core.ErrorBody
	var he *host.Error
	if errors.As(err, &he) {
		body = core.ErrorBody{Code: he.Code, Message: he.Message, Field: he.Field}
	} else {
		var a core.ErrorAnswer
		_ = json.Unmarshal(core.ErrorJSON(err), &a)
		body = a.Error
	}
	if Status(body.Code) >= 500 {
		return internal(w, err.Error())
	}
	return fail(w, body.Code, body.Message, body.Field)
}

func methodNotAllowed(w http.ResponseWriter, r *http.Request, path, allow string) result {
	w.Header().Set("Allow", allow)
	return fail(w, CodeMethodNotAllowed, "tokenfit: "+path+" takes "+allow+", not "+r.Method, "")
}

// busy answers 503 with Retry-After; the connection closes, since the
// body may be unread.
func busy(w http.ResponseWriter, message string) result {
	w.Header().Set("Retry-After", strconv.Itoa(RetryAfterSeconds))
	w.Header().Set("Connection", "close")
	return fail(w, CodeOverloaded, message, "")
}

// readAll is io.ReadAll into buf, which is sized for the declared body.
func readAll(buf []byte, r io.Reader) ([]byte, error) {
	for {
		n, err := r.Read(buf[len(buf):cap(buf)])
		buf = buf[:len(buf)+n]
		if err == io.EOF {
			return buf, nil
		}
		if err != nil {
			return buf, err
		}
		if len(buf) == cap(buf) {
			buf = append(buf, 0)[:len(buf)]
		}
	}
}

func tooLarge(w http.ResponseWriter, limit int64) result {
	return fail(w, CodePayloadTooLarge, "tokenfit: the body is larger than this server takes ("+strconv.FormatInt(limit, 10)+" bytes)", "")
}

// internal answers a 500 without the details, which go to the log.
func internal(w http.ResponseWriter, detail string) result {
	res := fail(w, core.CodeInternal, "tokenfit: internal error (the server's log has the details)", "")
	res.detail = detail
	return res
}

func fail(w http.ResponseWriter, code, message, field string) result {
	b, _ := json.Marshal(core.ErrorAnswer{Error: core.ErrorBody{Code: code, Message: message, Field: field}})
	res := write(w, Status(code), b)
	res.code = code
	return res
}

func answer(w http.ResponseWriter, b []byte) result { return write(w, http.StatusOK, b) }

func write(w http.ResponseWriter, status int, b []byte) result {
	hd := w.Header()
	hd.Set("Content-Type", "application/json")
	hd.Set("Content-Length", strconv.Itoa(len(b)))
	hd.Set("X-Content-Type-Options", "nosniff")
	hd.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	n, _ := w.Write(b)
	return result{status: status, out: n}
}
