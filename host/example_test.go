package host_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host"
	"github.com/tokenfit/tokenfit/host/internal/modbuild"
)

// exampleConfig is the Config of the examples: the module built from this
// tree, the encoding they count. A program passes host.NewConfig() alone,
// which runs the module package embed keeps.
func exampleConfig() host.Config {
	wasm, err := fullModule.load()
	if err != nil {
		panic(err)
	}
	cfg := host.NewConfig().WithModule(wasm).WithEncodings("o200k_base")
	if dir, err := modbuild.DefaultDir(); err == nil {
		// The tests' compilation cache (see config).
		cfg = cfg.WithCompilationCacheDir(filepath.Join(filepath.Dir(dir), "wazero"))
	}
	return cfg
}

func ExampleNew() {
	ctx := context.Background()
	h, err := host.New(ctx, exampleConfig().WithMaxInstances(2))
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close(ctx)
	ans, err := h.CountTokens(ctx, core.CountRequest{Target: core.Target{Model: "gpt-4o"}, Text: "Hello world"})
	fmt.Println(ans.Tokens, ans.Encoding, err)
	// Output: 2 o200k_base <nil>
}

func ExampleHost_Count() {
	ctx := context.Background()
	h, err := host.New(ctx, exampleConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close(ctx)
	n, err := h.Count(ctx, "o200k_base", "Hello world")
	fmt.Println(n, err)
	// Output: 2 <nil>
}

func ExampleHost_Call() {
	ctx := context.Background()
	h, err := host.New(ctx, exampleConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close(ctx)
	out, _ := h.Call(ctx, "countTokens", []byte(`{"model": "gpt-4o", "text": "Hello world"}`))
	var a core.CountAnswer
	json.Unmarshal(out, &a)
	fmt.Println(a.Tokens, a.Encoding)
	// Do turns an error answer into an error that wraps core's sentinel.
	_, err = h.Do(ctx, "countTokens", []byte(`{"encoding": "o300k", "text": "x"}`))
	fmt.Println(errors.Is(err, core.ErrUnknownEncoding))
	// Output:
	// 2 o200k_base
	// true
}

func ExampleHost_Instance() {
	ctx := context.Background()
	h, err := host.New(ctx, exampleConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	defer h.Close(ctx)
	// A live counter stays in one instance: check one out.
	in, err := h.Instance(ctx)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer in.Release()
	var live struct{ ID, Tokens int }
	out, _ := in.Call(ctx, "liveNew", []byte(`{"encoding": "o200k_base", "text": "Hello"}`))
	json.Unmarshal(out, &live)
	fmt.Println(live.Tokens)
	out, _ = in.Call(ctx, "liveEdit", fmt.Appendf(nil, `{"id": %d, "at": 5, "insert": " world"}`, live.ID))
	json.Unmarshal(out, &live)
	fmt.Println(live.Tokens)
	// Output:
	// 1
	// 2
}
