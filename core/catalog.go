package core

import (
	"strings"
	"sync"

	"github.com/tokenfit/tokenfit/core/internal/format"
	"github.com/tokenfit/tokenfit/core/internal/tables"
)

// catalog is the catalog's rows, under a registry's own: parsed once, at
// its first use (natively, the embedded catalog is read only when a name is
// not a built-in row's, or every model is listed), and shared by every
// registry made from the one it was loaded into.
type catalog struct {
	text   []byte
	once   sync.Once
	parsed *catalogRows
}

type catalogRows struct {
	models []Model
	index  map[string]int
}

// rows parses the catalog on first use; nil for none (WithCatalog checks a
// loaded one first; TestModelsGenerated holds the embedded one to its
// generator, and TestCatalog_Reads reads it).
func (c *catalog) rows() *catalogRows {
	if c == nil {
		return nil
	}
	c.once.Do(func() { c.parsed, _ = parseCatalog(c.text) })
	return c.parsed
}

// parseCatalog reads a catalog.
func parseCatalog(data []byte) (*catalogRows, error) {
	f, err := readRegistry(data)
	if err != nil {
		return nil, err
	}
	for i, m := range f.Models {
		f.Models[i] = withGeminiTokenizer(m) // as the registry's own rows (Registry.With)
	}
	c := &catalogRows{models: f.Models, index: make(map[string]int, 2*len(f.Models))}
	for i := len(f.Models) - 1; i >= 0; i-- { // the first row naming a name wins
		for _, name := range append([]string{f.Models[i].ID}, f.Models[i].Aliases...) {
			c.index[strings.ToLower(name)] = i
		}
	}
	return c, nil
}

// WithCatalog returns a registry with a catalog's rows (core/registry/
// catalog.json: the shape of registerModels requests) under its own: a name
// one of the registry's rows answers to keeps answering with it. It replaces
// a catalog loaded before. Cost: O(len(data)).
func (r *Registry) WithCatalog(data []byte) (*Registry, error) {
	rows, err := parseCatalog(data)
	if err != nil {
		return nil, err
	}
	if len(rows.models) == 0 {
		return nil, fieldErr("models", "required: a catalog holds models (core/registry/catalog.json's shape)")
	}
	for i, m := range rows.models {
		if err := r.check(m, format.Sprintf("models[%d]", i)); err != nil {
			return nil, err
		}
	}
	n := *r
	n.catalog = &catalog{parsed: rows}
	n.catalog.once.Do(func() {})
	return &n, nil
}

// CatalogJSON returns the catalog compiled into this program
// (core/registry/catalog.json), or nil unless it imports package
// core/registry (the WebAssembly modules do not: their hosts load it with
// the loadCatalog operation).
func CatalogJSON() []byte { return tables.Catalog() }

// CatalogInfo says where a registry's rows come from (each source's name,
// version, date and newest entry), whether the catalog is loaded (until a
// host loads it into a WebAssembly module, the built-in rows answer alone:
// API.md, "Models"), and how many models the registry holds.
type CatalogInfo struct {
	//genjson:ts { name: string; version?: string; file?: string; date: string; newest?: { id: string; date: string } }[]
	Sources RawJSON `json:"sources"`
	Loaded  bool    `json:"loaded"`
	Models  int     `json:"models"`
}

// Catalog describes the registry's sources and catalog. Cost: O(models).
func (r *Registry) Catalog() CatalogInfo {
	return CatalogInfo{Sources: r.sources, Loaded: r.catalog.rows() != nil, Models: len(r.Models())}
}
