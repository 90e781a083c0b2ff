package host_test

import (
	"context"
	"slices"
	"strings"
	"testing"

	"github.com/tetratelabs/wazero"

	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/internal/exportlist"
)

// TestABI_Exports holds three lists to one another: the built module's
// exports, wasm/exports.txt, and the export table of wasm/ABI.md (and the
// functions the host requires to the same list).
func TestABI_Exports(t *testing.T) {
	skipShort(t)
	ctx := context.Background()
	rt := wazero.NewRuntimeWithConfig(ctx, wazero.NewRuntimeConfig().WithCompilationCache(testCache()))
	defer rt.Close(ctx)
	m, err := rt.CompileModule(ctx, module(t))
	if err != nil {
		t.Fatal(err)
	}
	built := exportlist.Of(m)
	listed, err := exportlist.ReadFile("../wasm/exports.txt")
	if err != nil {
		t.Fatal(err)
	}
	documented, err := exportlist.ReadABITable("../wasm/ABI.md", "## The wasip1 reactor")
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(built, listed) {
		t.Errorf("the module's exports differ from wasm/exports.txt\nmodule: %q\nlisted: %q", built, listed)
	}
	if !slices.Equal(documented, listed) {
		t.Errorf("wasm/ABI.md's export table differs from wasm/exports.txt\nABI.md: %q\nlisted: %q", documented, listed)
	}
	var functions []string
	for _, e := range listed {
		if !strings.HasSuffix(e, " memory") {
			functions = append(functions, e)
		}
	}
	if required := host.ExportsForTest(); !slices.Equal(required, functions) {
		t.Errorf("the host requires other exports than wasm/exports.txt lists\nhost:   %q\nlisted: %q", required, functions)
	}
}
