package main

import (
	"context"
	"errors"
	"flag"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/host/httpapi"
)

// serveOptions are serve's flags.
type serveOptions struct {
	addr                                 string
	maxBody, maxInFlightBytes            int64
	maxInFlight                          int
	readHeader, read, write, idle, drain time.Duration
	stopWasm                             bool
}

// serveCmd serves the JSON API over HTTP (package httpapi) until SIGTERM or
// SIGINT, then lets the requests under way finish (up to --drain).
func serveCmd(fs *flag.FlagSet) func(*cli, []string) error {
	o := &serveOptions{}
	fs.StringVar(&o.addr, "addr", "127.0.0.1:8787", "the address to listen on, HOST:PORT (port 0: any free one)")
	fs.Int64Var(&o.maxBody, "max-body", httpapi.DefaultMaxBodyBytes, "the largest request body in bytes (larger: 413, unread)")
	fs.IntVar(&o.maxInFlight, "max-inflight", httpapi.DefaultMaxInFlight, "how many requests are served at once (more: 503 with Retry-After)")
	fs.Int64Var(&o.maxInFlightBytes, "max-inflight-bytes", 0, "how many request body bytes are held at once (more: 503 with Retry-After; default 4 × --max-body)")
	fs.DurationVar(&o.readHeader, "read-header-timeout", 5*time.Second, "the time a client has to send its request's headers")
	fs.DurationVar(&o.read, "read-timeout", 30*time.Second, "the time a client has to send a whole request (slower: 408)")
	fs.DurationVar(&o.write, "write-timeout", 60*time.Second, "the time from a request's headers to the end of its answer")
	fs.DurationVar(&o.idle, "idle-timeout", 120*time.Second, "how long a kept-alive connection may wait for its next request")
	fs.BoolVar(&o.stopWasm, "stop-abandoned", false, "--runtime wasm: stop a call whose client went away (3-20x slower calls; native calls always stop)")
	fs.DurationVar(&o.drain, "drain", 10*time.Second, "how long requests under way may take to finish after SIGTERM")
	return func(c *cli, args []string) error {
		if len(args) > 0 {
			return usagef("serve takes no operands")
		}
		if err := o.validate(); err != nil {
			return err
		}
		call, closeCall, err := c.caller(o.stopWasm)
		if err != nil {
			return err
		}
		defer closeCall()
		ln, err := net.Listen("tcp", o.addr)
		if err != nil {
			return err
		}
		ctx, stop := signal.NotifyContext(c.ctx, syscall.SIGTERM, os.Interrupt)
		defer stop()
		log := slog.New(slog.NewJSONHandler(c.stderr, nil))
		log.Info("serving", "addr", "http://"+ln.Addr().String(), "runtime", c.runtime)
		err = o.serve(ctx, ln, call, log)
		log.Info("stopped", "error", errString(err))
		return err
	}
}

// validate refuses flags that mean nothing: a body limit or a count that is
// not positive, bytes in flight below one body, a timeout that is not
// positive (a drain may be 0: stop at once).
func (o *serveOptions) validate() error {
	switch {
	case o.maxBody <= 0:
		return usagef("--max-body must be a positive number of bytes, not %d", o.maxBody)
	case o.maxInFlight <= 0:
		return usagef("--max-inflight must be a positive number of requests, not %d", o.maxInFlight)
	case o.maxInFlightBytes < 0 || o.maxInFlightBytes > 0 && o.maxInFlightBytes < o.maxBody:
		return usagef("--max-inflight-bytes must be at least --max-body (%d), not %d", o.maxBody, o.maxInFlightBytes)
	case o.drain < 0:
		return usagef("--drain must not be negative, not %v", o.drain)
	}
	for _, t := range []struct {
		name string
		d    time.Duration
	}{{"read-header-timeout", o.readHeader}, {"read-timeout", o.read}, {"write-timeout", o.write}, {"idle-timeout", o.idle}} {
		if t.d <= 0 {
			return usagef("--%s must be a positive duration such as 30s, not %v", t.name, t.d)
		}
	}
	return nil
}

// serve answers on ln until ctx is done, then shuts down gracefully.
func (o *serveOptions) serve(ctx context.Context, ln net.Listener, call httpapi.Caller, log *slog.Logger) error {
	srv := &http.Server{
		Handler: httpapi.New(call, httpapi.Options{MaxBodyBytes: o.maxBody, MaxInFlight: o.maxInFlight,
			MaxInFlightBytes: o.maxInFlightBytes, Log: log}),
		ReadHeaderTimeout: o.readHeader,
		ReadTimeout:       o.read,
		WriteTimeout:      o.write,
		IdleTimeout:       o.idle,
		MaxHeaderBytes:    64 << 10,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ln) }()
	select {
	case err := <-done:
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), o.drain)
	defer cancel()
	err := srv.Shutdown(sctx)
	if serr := <-done; !errors.Is(serr, http.ErrServerClosed) {
		err = errors.Join(err, serr)
	}
	return err
}

// caller returns what answers the requests: core in this process (which
// stops a call whose client went away), or a pool of module instances in
// wazero (one per CPU, every encoding loaded), whose calls run to their end
// unless stopAbandoned (host.Config.WithCloseOnContextDone).
func (c *cli) caller(stopAbandoned bool) (httpapi.Caller, func(), error) {
	switch c.runtime {
	case "native":
		return httpapi.Native(core.NewAPI()), func() {}, nil
	case "wasm":
		b, err := c.moduleBytes()
		if err != nil {
			return nil, nil, err
		}
		cfg := host.NewConfig().WithModule(b).WithCloseOnContextDone(stopAbandoned)
		if dir, err := os.UserCacheDir(); err == nil {
			cfg = cfg.WithCompilationCacheDir(filepath.Join(dir, "tokenfit", "wazero"))
		}
		h, err := host.New(c.ctx, cfg)
		if err != nil {
			return nil, nil, err
		}
		return h.Do, func() { h.Close(c.ctx) }, nil
	}
	return nil, nil, usagef("--runtime must be native or wasm, not %q", c.runtime)
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}
