package host_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/internal/hostile"
)

// The hostile cases of testdata/hostile through the wazero host and through
// the raw wasip1 ABI: every answer is the expected one and byte for byte
// what core answers natively to the same sequence of calls, and the same
// instance answers the probe right after each case.

// runner answers the cases on one instance.
type runner interface {
	call(op string, body []byte) ([]byte, error)
	count(encoding string, text []byte) ([]byte, error)
}

// native is core in this process, in step with the runner under test.
type native struct{ api *core.API }

func (n native) call(op string, body []byte) ([]byte, error) { return n.api.Call(op, body), nil }

func (native) count(encoding string, text []byte) ([]byte, error) {
	e, err := core.GetEncoding(encoding)
	if err != nil {
		return core.ErrorJSON(err), nil
	}
	return hostile.CountAnswer(e.Count(string(text))), nil
}

// runHostile runs every case on one runner from start and on core natively
// in step, and reports how many it ran. At full size (TOKENFIT_HUGE=1) each
// huge case gets a fresh runner and a fresh native API: one such request
// grows an instance by hundreds of megabytes for good, and the cases test
// that it is answered, not how much a module can hold across them.
func runHostile(t *testing.T, start func(t *testing.T) (runner, func()), name string) int {
	t.Helper()
	f, err := hostile.Load()
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range core.EncodingNames() {
		if _, err := core.GetEncoding(e); err != nil { // "encodings" reports what is loaded
			t.Fatal(err)
		}
	}
	setup := func(r runner) native {
		nat := native{core.NewAPI()}
		for _, s := range f.Setup {
			if out, err := r.call(s.Op, s.Request); err != nil || hostile.IsErrorAnswer(out) {
				t.Fatalf("%s: setup %s: %s, %v", name, s.Op, out, err)
			}
			nat.call(s.Op, s.Request)
		}
		return nat
	}
	r, done := start(t)
	defer done()
	nat := setup(r)
	scale := f.Scale
	if hostile.Full() {
		scale = 1
	}
	answer := func(x runner, c hostile.Case, body []byte) ([]byte, error) {
		if c.Op == "count" {
			return x.count(c.Encoding, body)
		}
		return x.call(c.Op, body)
	}
	for _, c := range f.Cases {
		// One function per case, so that a huge case's fresh runner is
		// released when the case is done: a host with a bounded pool has
		// no instance to spare for the next one.
		func() {
			r, nat := r, nat
			if c.Huge && hostile.Full() {
				fr, done := start(t)
				defer done()
				r, nat = fr, setup(fr)
			}
			body := c.Bytes(scale)
			got, err := answer(r, c, body)
			if err != nil {
				t.Fatalf("%s: %s: %v", name, c.Name, err)
			}
			want, _ := answer(nat, c, body)
			if err := c.Check(got); err != nil {
				t.Errorf("%s: %s: %v", name, c.Name, err)
			} else if string(got) != string(want) {
				t.Errorf("%s: %s:\n got    %.300s\n native %.300s", name, c.Name, got, want)
			}
			if c.SameAs != nil {
				same, err := r.call(c.Op, []byte(*c.SameAs))
				nat.call(c.Op, []byte(*c.SameAs))
				if err != nil || string(same) != string(got) {
					t.Errorf("%s: %s: answers %.300s\nbut without the member %.300s (%v)", name, c.Name, got, same, err)
				}
			}
			probe(t, r, f.Probe, name+": after "+c.Name)
		}()
	}
	return len(f.Cases)
}

// probe asks the probe on both paths and holds the answers to it.
func probe(t *testing.T, r runner, p *hostile.Probe, when string) {
	t.Helper()
	out, err := r.call(p.Op, p.Request)
	if err == nil {
		err = p.CheckProbe(out)
	}
	if err != nil {
		t.Fatalf("%s: probe: %v", when, err)
	}
	out, err = r.count(p.Count.Encoding, []byte(p.Count.Text))
	if err == nil && string(out) != string(hostile.CountAnswer(p.Count.Tokens)) {
		err = fmt.Errorf("count = %s, want %d", out, p.Count.Tokens)
	}
	if err != nil {
		t.Fatalf("%s: probe: %v", when, err)
	}
}

// instanceRunner is one checked-out host.Instance.
type instanceRunner struct {
	ctx context.Context
	in  *host.Instance
}

func (r instanceRunner) call(op string, body []byte) ([]byte, error) {
	return r.in.Call(r.ctx, op, body)
}

func (r instanceRunner) count(encoding string, text []byte) ([]byte, error) {
	n, err := r.in.Count(r.ctx, encoding, string(text))
	var he *host.Error
	if errors.As(err, &he) {
		return errorAnswer(he), nil
	}
	if err != nil {
		return nil, err
	}
	return hostile.CountAnswer(n), nil
}

// errorAnswer is the error answer a host.Error came from.
func errorAnswer(he *host.Error) []byte {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.Encode(core.ErrorAnswer{Error: core.ErrorBody{Code: he.Code, Message: he.Message, Field: he.Field}})
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n"))
}

// TestHostile_Host runs the cases through one checked-out instance of a
// Host, on the JSON path (Instance.Call) and the fast path
// (Instance.Count).
func TestHostile_Host(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	h := newHost(t, config(t).WithMaxInstances(2))
	n := runHostile(t, func(t *testing.T) (runner, func()) {
		in, err := h.Instance(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return instanceRunner{ctx, in}, in.Release
	}, "host")
	t.Logf("%d cases", n)
}

// rawRunner is the module driven through its exports alone (wasm/ABI.md).
type rawRunner struct {
	m       *rawModule
	handles map[string]uint64
}

func (r *rawRunner) call(op string, body []byte) ([]byte, error) {
	opPtr, opLen := r.m.bytes([]byte(op))
	reqPtr, reqLen := r.m.bytes(body)
	out := r.m.take(r.m.call("call", opPtr, opLen, reqPtr, reqLen))
	r.m.call("free", opPtr)
	r.m.call("free", reqPtr)
	if out == "" {
		return nil, errors.New("call returned no buffer")
	}
	return []byte(out), nil
}

func (r *rawRunner) count(encoding string, text []byte) ([]byte, error) {
	h, ok := r.handles[encoding]
	if !ok {
		p, n := r.m.bytes([]byte(encoding))
		st := int32(r.m.call("encoding_handle", p, n))
		r.m.call("free", p)
		if st <= 0 {
			return []byte(r.m.take(r.m.call("last_error"))), nil
		}
		h = uint64(st)
	}
	p, n := r.m.bytes(text)
	st := int32(r.m.call("count", h, p, n))
	r.m.call("free", p)
	if st < 0 {
		return []byte(r.m.take(r.m.call("last_error"))), nil
	}
	return hostile.CountAnswer(int(st)), nil
}

// TestHostile_ABI runs the cases through the raw exports of one instance
// (alloc, call, count, free, last_error), loaded as a host loads it: every
// table and the model catalog.
func TestHostile_ABI(t *testing.T) {
	skipShort(t)
	n := runHostile(t, func(t *testing.T) (runner, func()) {
		m := newRawModule(t)
		r := &rawRunner{m: m, handles: map[string]uint64{}}
		for _, name := range core.EncodingNames() {
			p, n := m.bytes(core.EncodingTable(name))
			h := m.call("load_table", p, n)
			m.call("free", p)
			if int32(h) <= 0 {
				t.Fatalf("load_table %s = %d", name, int32(h))
			}
			r.handles[name] = h
		}
		// As a host does: natively the catalog is built in.
		if out, err := r.call("loadCatalog", core.CatalogJSON()); err != nil || bytes.Contains(out, []byte(`"error"`)) {
			t.Fatalf("loadCatalog: %s, %v", out, err)
		}
		return r, func() { m.mod.Close(m.ctx) }
	}, "abi")
	t.Logf("%d cases", n)
}
