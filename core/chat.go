package core

import (
	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/stop"
)

// The request side (chat counting, chat rules and templates, the
// providers' request shapes) is package core/internal/chat, below core.
// These are its names for Go callers: the same types and values (aliases,
// whose fields and methods go doc core/internal/chat shows) and thin
// wrappers of its functions. API.Do's countChat is the JSON way in.

// Chat requests (core/internal/chat, chat.go and chat_output.go).
type (
	ChatRequest        = chat.ChatRequest
	ChatMessage        = chat.ChatMessage
	ChatContent        = chat.ChatContent
	ContentPart        = chat.ContentPart
	ImageURL           = chat.ImageURL
	ToolCall           = chat.ToolCall
	FunctionCall       = chat.FunctionCall
	ChatTool           = chat.ChatTool
	FunctionDef        = chat.FunctionDef
	ToolChoice         = chat.ToolChoice
	FunctionCallChoice = chat.FunctionCallChoice
	ChatTemplateKwargs = chat.ChatTemplateKwargs
	ResponseFormat     = chat.ResponseFormat
	JSONSchemaFormat   = chat.JSONSchemaFormat
	RawJSON            = chat.RawJSON
	ChatCount          = chat.ChatCount
	History            = chat.History
	Tools              = chat.Tools
)

// Request shapes (core/internal/chat, shape.go).
type Shape = chat.Shape

const (
	ShapeOpenAI    = chat.ShapeOpenAI
	ShapeResponses = chat.ShapeResponses
	ShapeAnthropic = chat.ShapeAnthropic
	ShapeGemini    = chat.ShapeGemini
	ShapeAISDK     = chat.ShapeAISDK
)

// Chat rules (core/internal/chat, chat_rules*.go, chat_anthropic.go,
// chat_gemini.go).
type (
	ChatRules        = chat.ChatRules
	MessageRules     = chat.MessageRules
	ToolRules        = chat.ToolRules
	ToolCallRules    = chat.ToolCallRules
	ImageRules       = chat.ImageRules
	ImageKind        = chat.ImageKind
	ParamStyle       = chat.ParamStyle
	OpenAIAPI        = chat.OpenAIAPI
	AnthropicRules   = chat.AnthropicRules
	AnthropicFraming = chat.AnthropicFraming
	GeminiRules      = chat.GeminiRules
	GeminiBound      = chat.GeminiBound
)

const (
	ImagesNone     = chat.ImagesNone
	ImagesTiles    = chat.ImagesTiles
	ImagesPatches  = chat.ImagesPatches
	ParamsFlat     = chat.ParamsFlat
	ParamsIndented = chat.ParamsIndented
	ParamsHarmony  = chat.ParamsHarmony
	APIChat        = chat.APIChat
	APIResponses   = chat.APIResponses
	ToolPromptAsOf = chat.ToolPromptAsOf
)

// CountChat counts the prompt tokens of a chat request with a model's
// tokenizer and chat rules (see ChatRulesFor). A request that is not
// well-formed (an unknown role, a tool without a name, an invalid
// parameters schema…) gives an error wrapping ErrInvalidRequest, usually a
// *FieldError naming the field. Cost: O(n) in the size of the request, plus
// one read of each data URL image's header.
func CountChat(tok Tokenizer, req ChatRequest, rules ChatRules) (ChatCount, error) {
	setCall(&rules, tok, nil)
	return chat.CountChat(tok, req, rules)
}

// setCall readies rules for counting with tok in a call that s stops: only
// core knows an OpenAI encoding, which reads a special token's text as
// text.
func setCall(rules *ChatRules, tok Tokenizer, s stop.Chan) {
	_, openAI := tok.(*Encoding)
	chat.ForCall(rules, s, openAI)
}

// ChatRulesFor returns the rules of a model: by its exact id, else by the
// longest matching prefix (gpt-4o-2024-08-06 gets gpt-4o's rules), else the
// default rules (Family "default", never exact). Cost: O(size of the table).
func ChatRulesFor(model string) ChatRules { return chat.ChatRulesFor(model) }

// RulesFor returns a model's rules on an OpenAI API: ChatRulesFor's for
// Chat Completions (or an empty api), the Responses rules for the
// Responses API. Cost: O(size of the table).
func RulesFor(model string, api OpenAIAPI) ChatRules { return chat.RulesFor(model, api) }

// AnthropicRulesFor returns the rules of a Claude model id, and whether its
// tool-use prompt is published; an id the table does not know gets the
// newest generation's rules. Cost: O(size of the table).
func AnthropicRulesFor(id string) (AnthropicRules, bool) { return chat.AnthropicRulesFor(id) }

// ChatTemplates lists the built-in chat templates a registry row's
// chatTemplate may name.
func ChatTemplates() []string { return chat.ChatTemplates() }
