package hf_test

import (
	"errors"
	"testing"

	"github.com/tokenfit/tokenfit/core"
	_ "github.com/tokenfit/tokenfit/core/hf"
)

// TestImport_RegistersLoader: with the package imported, loadTokenizer
// reaches the loader (a byte that is no tokenizer.json is invalid_table),
// where without it the operation is unknown_operation (host's TestNoHF,
// on the module built without it).
func TestImport_RegistersLoader(t *testing.T) {
	_, err := core.NewAPI().Do("loadTokenizer", []byte(`{"name": "x", "data": "AA=="}`))
	if !errors.Is(err, core.ErrInvalidTable) {
		t.Errorf("loadTokenizer of one zero byte: %v, want invalid_table", err)
	}
}
