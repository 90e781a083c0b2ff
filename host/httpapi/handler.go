package httpapi

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"mime"
	"net"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// DefaultMaxBodyBytes is the largest request body served when Options
// leaves it unset: 8 MiB, about two million tokens of English.
const DefaultMaxBodyBytes = 8 << 20

// Caller runs one operation of core's JSON API: its JSON answer, or an error
// whose code (core.Code, or a *host.Error's Code) picks the status.
// (*core.API).Do, wrapped by Native, and (*host.Host).Do are Callers.
type Caller func(ctx context.Context, op string, request []byte) ([]byte, error)

// Native returns the Caller of an API in this process.
func Native(api *core.API) Caller {
	return func(_ context.Context, op string, request []byte) ([]byte, error) { return api.Do(op, request) }
}

// Options configure a handler. The zero value is the defaults.
type Options struct {
	// MaxBodyBytes is the largest request body; a larger one is refused
	// with 413 without being read. Defaults to DefaultMaxBodyBytes.
	MaxBodyBytes int64
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
	return &handler{call: call, opts: opts}
}

type handler struct {
	call Caller
	opts Options
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
		slog.String("method", r.Method), slog.String("path", r.URL.Path),
		slog.Int("status", res.status), slog.Int("in", res.in), slog.Int("out", res.out),
		slog.Float64("ms", float64(time.Since(start).Microseconds())/1000), slog.String("remote", r.RemoteAddr),
	}
	if res.code != "" {
		attrs = append(attrs, slog.String("code", res.code))
	}
	if res.detail != "" {
		level = slog.LevelError
		attrs = append(attrs, slog.String("detail", res.detail))
	}
	h.opts.Log.LogAttrs(r.Context(), level, "request", attrs...)
}

func (h *handler) serve(w http.ResponseWriter, r *http.Request) result {
	path := r.URL.Path
	switch {
	case path == "/healthz":
		if r.Method != http.MethodGet {
			return methodNotAllowed(w, r, http.MethodGet)
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
			return methodNotAllowed(w, r, http.MethodPost)
		}
		return h.operation(w, r, op)
	}
	return fail(w, CodeNotFound, "tokenfit: no route "+strconv.Quote(path)+": POST /v1/{operation} or GET /healthz", "")
}

func (h *handler) health(w http.ResponseWriter, r *http.Request) result {
	out, err := h.call(r.Context(), "version", nil)
	if err != nil {
		return h.failErr(w, err)
	}
	var v core.VersionAnswer
	if err := json.Unmarshal(out, &v); err != nil {
		return internal(w, "version answer: "+err.Error())
	}
	b, _ := json.Marshal(struct {
		Status  string `json:"status"`
		Version string `json:"version"`
	}{"ok", v.Version})
	return answer(w, b)
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
	body, err := io.ReadAll(http.MaxBytesReader(w, r.Body, limit))
	var mbe *http.MaxBytesError
	var ne net.Error
	switch {
	case errors.As(err, &mbe):
		return tooLarge(w, limit)
	case errors.As(err, &ne) && ne.Timeout():
		w.Header().Set("Connection", "close")
		return fail(w, CodeRequestTimeout, "tokenfit: the body did not arrive in time", "")
	case err != nil:
		return fail(w, core.CodeInvalidRequest, "tokenfit: invalid request: reading the body: "+err.Error(), "")
	}
	out, err := h.call(r.Context(), op, body)
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

func methodNotAllowed(w http.ResponseWriter, r *http.Request, allow string) result {
	w.Header().Set("Allow", allow)
	return fail(w, CodeMethodNotAllowed, "tokenfit: "+r.URL.Path+" takes "+allow+", not "+r.Method, "")
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
