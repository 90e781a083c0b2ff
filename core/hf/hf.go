// Package hf gives core's JSON API the tokenizer.json loader in a program
// that imports it:
//
//	import _ "github.com/tokenfit/tokenfit/core/hf"
//
// The loadTokenizer operation (and core.API.LoadTokenizerBytes) then loads
// a Hugging Face tokenizer.json, or its compact table, under a name that
// requests count with. A WebAssembly module that does not import it links
// none of the loader, and the operation answers unknown_operation: the
// module pages start with is built so, 80 KB of gzip smaller (RATIONALE.md,
// "Why does init() start without the tokenizer.json loader?"). A native
// program has the loader without it (core/native.go).
package hf

import "github.com/tokenfit/tokenfit/core"

func init() { core.RegisterTokenizerLoader() }
