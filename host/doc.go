// Package host runs tokenfit's WebAssembly module (the GOOS=wasip1 reactor
// built from wasm/wasip1) in wazero, for Go programs that want the module's
// isolation, or that check the module against the native core.
//
// A Host compiles the module once (through a wazero compilation cache, on
// disk in the user's cache directory unless the Config says otherwise: see
// DefaultCompilationCacheDir) and keeps a pool of instances:
// every call takes an instance of its own, so goroutines never share one,
// and the pool never holds more than Config.WithMaxInstances instances.
// Instances get their vocabulary tables from core's embedded tables, since
// the module carries none.
//
// The methods mirror core: Call and Do are core.API's JSON calls, Count is
// core.Encoding's Count through the module's fast path (no JSON), and
// CountTokens, Encode, Decode, WithinLimit, Truncate and CalculateBudget
// return core's answer types. CallAs decodes any other operation's answer.
// LoadTokenizer loads a Hugging Face tokenizer.json's bytes into every
// instance (the module's load_tokenizer export, no base64), after which
// every operation takes its name as an encoding.
// CountReader and WithinLimitReader take the text from an io.Reader and
// write it to the module as it is read (natively, a core.StreamCounter
// does that), so a text of any length costs a megabyte or so of memory.
// Every method takes a context first and returns when it ends (see
// Config.WithCloseOnContextDone for stopping the work itself); Close
// releases everything.
//
//	h, err := host.New(ctx, host.NewConfig().WithModule(wasm))
//	if err != nil { … }
//	defer h.Close(ctx)
//	n, err := h.Count(ctx, "o200k_base", "Hello world") // 2
//
// The module comes with the package: host/embed keeps it in the
// repository, so `go get` and host.NewConfig() are enough. It is the build
// of the last release (the version Version reports): at a commit between
// releases, operations and answer fields added since reach it at the next
// release. WithModule runs another build (make wasm writes
// build/wasm/tokenfit.wasm from the tree).
package host
