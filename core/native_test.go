//go:build !wasm

package core_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core"
)

// TestNative_HasEverything: a native program that imports core alone
// counts every built-in encoding, knows the catalog's models and loads a
// tokenizer.json through the JSON API (native.go), with no other import.
func TestNative_HasEverything(t *testing.T) {
	for _, name := range core.EncodingNames() {
		if _, err := core.GetEncoding(name); err != nil {
			t.Errorf("GetEncoding(%s): %v", name, err)
		}
	}
	api := core.NewAPI()
	if out := string(api.Call("countTokens", []byte(`{"text": "Hello world", "model": "gpt-4o"}`))); !strings.Contains(out, `"tokens":2`) {
		t.Errorf("countTokens: %s", out)
	}
	if out := string(api.Call("countChat", []byte(`{"model": "xai/grok-4", "messages": [{"role": "user", "content": "hi"}]}`))); !strings.Contains(out, `"total"`) || strings.Contains(out, `"fallback":true`) {
		t.Errorf("countChat for a catalog model: %s", out)
	}
	if _, err := api.Do("loadTokenizer", []byte(`{"name": "x", "data": "AA=="}`)); !errors.Is(err, core.ErrInvalidTable) {
		t.Errorf("loadTokenizer of one zero byte: %v, want invalid_table (the loader reached)", err)
	}
}
