package host

import (
	"bytes"
	"context"
	"fmt"

	"github.com/tokenfit/tokenfit/core"
)

// The model catalog (core.CatalogJSON: the models of models.dev beyond the
// built-in rows, built into this binary) goes into an instance the first
// time a call needs it, as core natively reads it on its first use: an
// operation that lists every model, or an answer that fell back (a model
// the built-in rows do not know) — that call is then answered again. So an
// instance that never names such a model never pays for the catalog (about
// 1.3 MB of JSON), and the answers are core's natively. The loadCatalog
// operation itself is not the caller's: a catalog loaded into one pooled
// instance would make instances answer differently (registerModels adds
// models to every instance).

const opLoadCatalog = "loadCatalog"

// callCatalog is call, loading the catalog where the call needs it.
func (in *instance) callCatalog(ctx context.Context, op string, request []byte) ([]byte, error) {
	if op == opLoadCatalog {
		return core.ErrorJSON(fmt.Errorf("%w: loadCatalog: the host loads core's model catalog (core.CatalogJSON) into its instances itself; add other models with registerModels", core.ErrUnknownOperation)), nil
	}
	if !in.catalog && op == "models" {
		if err := in.loadCatalog(ctx); err != nil {
			return nil, err
		}
	}
	out, err := in.call(ctx, op, request)
	if err != nil || in.catalog || !bytes.Contains(out, []byte(`"fallback":true`)) {
		return out, err
	}
	if err := in.loadCatalog(ctx); err != nil {
		return nil, err
	}
	return in.call(ctx, op, request)
}

func (in *instance) loadCatalog(ctx context.Context) error {
	data := core.CatalogJSON()
	if data == nil {
		in.catalog = true // this build has none: nothing to load, ever
		return nil
	}
	out, err := in.call(ctx, opLoadCatalog, data)
	if err != nil {
		return err
	}
	if isErrorAnswer(out) {
		return fmt.Errorf("%w: loading the model catalog: %.300s", ErrModule, out)
	}
	in.catalog = true
	return nil
}
