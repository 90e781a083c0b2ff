package main

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
)

// backend is where the answers come from: core in this process, or the
// module in wazero. Both answer the same bytes.
type backend interface {
	// call runs one JSON operation; error answers come back as answers.
	call(ctx context.Context, op string, req []byte) ([]byte, error)
	// count counts text with an encoding core has tables for.
	count(ctx context.Context, encoding, text string) (int, error)
	// countReader counts the text r yields with such an encoding as it is
	// read, holding a megabyte or so of it at a time.
	countReader(ctx context.Context, encoding string, r io.Reader) (int, error)
	close(ctx context.Context)
}

// backend returns the runtime the flags chose, started for the encodings
// given (nil: all).
func (c *cli) backend(encodings []string) (backend, error) {
	if c.rt != nil {
		return c.rt, nil
	}
	switch c.runtime {
	case "native":
		c.rt = native{core.NewAPI()}
	case "wasm":
		rt, err := c.wasm(encodings)
		if err != nil {
			return nil, err
		}
		c.rt = rt
	default:
		return nil, usagef("--runtime must be native or wasm, not %q", c.runtime)
	}
	return c.rt, nil
}

type native struct{ api *core.API }

func (n native) call(_ context.Context, op string, req []byte) ([]byte, error) {
	return n.api.Call(op, req), nil
}

func (n native) count(_ context.Context, encoding, text string) (int, error) {
	e, err := core.GetEncoding(encoding)
	if err != nil {
		return 0, err
	}
	return e.Count(text), nil
}

func (n native) countReader(_ context.Context, encoding string, r io.Reader) (int, error) {
	e, err := core.GetEncoding(encoding)
	if err != nil {
		return 0, err
	}
	return countStream(r, e)
}

func (native) close(context.Context) {}

// wasm is the module in wazero: one instance checked out for the process,
// so that the live-counter operations reach it as they reach core. An
// instance that failed is exchanged for a fresh one before the next call.
type wasm struct {
	h  *host.Host
	in *host.Instance
}

func (w *wasm) call(ctx context.Context, op string, req []byte) ([]byte, error) {
	out, err := w.in.Call(ctx, op, req)
	return out, w.failed(ctx, err)
}

func (w *wasm) count(ctx context.Context, encoding, text string) (int, error) {
	n, err := w.in.Count(ctx, encoding, text)
	return n, w.failed(ctx, err)
}

func (w *wasm) countReader(ctx context.Context, encoding string, r io.Reader) (int, error) {
	n, err := w.in.CountReader(ctx, encoding, r)
	return n, w.failed(ctx, err)
}

// failed passes err on, after exchanging the instance when err says it
// failed.
func (w *wasm) failed(ctx context.Context, err error) error {
	if errors.Is(err, host.ErrModule) {
		w.in.Release()
		in, err2 := w.h.Instance(ctx)
		if err2 != nil {
			return errors.Join(err, err2)
		}
		w.in = in
	}
	return err
}

func (w *wasm) close(ctx context.Context) {
	w.in.Release()
	w.h.Close(ctx)
}

// wasm starts the module: one instance, the tables it needs, compiled code
// cached under the user cache directory.
func (c *cli) wasm(encodings []string) (backend, error) {
	b, err := c.moduleBytes()
	if err != nil {
		return nil, err
	}
	cfg := host.NewConfig().WithModule(b).WithMaxInstances(1)
	if encodings != nil {
		cfg = cfg.WithEncodings(encodings...)
	}
	if dir, err := os.UserCacheDir(); err == nil {
		cfg = cfg.WithCompilationCacheDir(filepath.Join(dir, "tokenfit", "wazero"))
	}
	h, err := host.New(c.ctx, cfg)
	if err != nil {
		return nil, err
	}
	in, err := h.Instance(c.ctx)
	if err != nil {
		h.Close(c.ctx)
		return nil, err
	}
	return &wasm{h, in}, nil
}

// moduleBytes finds the module: --wasm, $TOKENFIT_WASM, or the committed
// one (nil here: host uses it).
func (c *cli) moduleBytes() ([]byte, error) {
	path := c.wasmPath
	if path == "" {
		path = os.Getenv("TOKENFIT_WASM")
	}
	if path == "" {
		return nil, nil
	}
	return readFile(path, maxInput)
}

// exact reports whether name is an encoding with tables (the fast path);
// heuristics and models go through countTokens.
func exact(name string) bool { return slices.Contains(core.EncodingNames(), name) }
