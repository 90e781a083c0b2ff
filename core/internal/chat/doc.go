// Package chat is tokenfit's request side: a chat request's types, how
// each provider bills one (chat rules, Claude's and Gemini's counts, the
// open-weight models' chat templates, tools, images, structured output),
// the providers' request shapes read into OpenAI's (Anthropic Messages,
// Gemini generateContent, the Responses API, the Vercel AI SDK) and a
// history's pruning items.
//
// It sits below package core: it imports core/engine (Tokenizer,
// FieldError and the sentinel errors), core/internal/stop and
// core/internal/limit, never core. Core imports it and is still the one
// JSON entry point (core.API) and the one Go API: core names this
// package's types and constants again (core.ChatRequest is
// chat.ChatRequest) and wraps its functions (core.CountChat), so users
// never import it. What only core and its tests call (Read, Shaped,
// HistoryItems, ForCall, Render, …) is exported for them alone, which is
// why the package is internal (RATIONALE.md, "Why is the request side a package of its
// own?").
//
// Its JSON codec is internal/cmd/genjson's, written by the same run as
// core's (json_encode_gen.go, json_decode_gen.go: the exact-rule decoders
// and the encoders its hand-written methods call); core decodes this
// package's types by their UnmarshalJSON and writes them inline.
package chat
