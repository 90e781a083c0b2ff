package chat

import (
	"bytes"
	"slices"
	"strings"

	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// gptOssDate stands for the "Current date" gpt-oss's template writes, the
// server's date (strftime_now("%Y-%m-%d")). Every such date counts the
// same in o200k (a year split 3 + 1, two two-digit numbers, two hyphens;
// TestChatTemplate_Dates), so a fixed one counts as today's, as
// llama32Date does for Llama 3.2.
const gptOssDate = "2025-01-01"

// renderGptOss renders gpt-oss's template (harmony): a system message with
// the model identity, knowledge cutoff, date and reasoning effort; a first
// system or developer message as the developer message's instructions,
// with the tools as a TypeScript namespace; user turns; assistant turns on
// the final channel; a tool call on the commentary channel (the message's
// content before it as analysis, unless a later assistant message answers
// without calls); tool results as JSON strings from the last call's
// function. Later system and developer messages are not rendered, and
// neither is reasoning (tokenfit's requests carry no "thinking"). What
// the template refuses, or renders only in part (several calls in one
// message: only the first), is counted and flagged.
func renderGptOss(t *templateRender, req *ChatRequest) {
	msgs := req.Messages
	effort, identity := "medium", "You are ChatGPT, a large language model trained by OpenAI."
	if k := req.ChatTemplateKwargs; k != nil {
		if k.ReasoningEffort != nil {
			effort = *k.ReasoningEffort
		}
		if k.ModelIdentity != nil {
			identity = *k.ModelIdentity
		}
	}
	tools := len(req.Tools) > 0
	t.owner = ownPriming
	if len(msgs) > 0 {
		t.owner = 0
	}
	t.special("<|start|>")
	t.text("system")
	t.special("<|message|>")
	t.text(identity + "\nKnowledge cutoff: 2024-06\nCurrent date: " + gptOssDate + "\n\nReasoning: " + effort +
		"\n\n# Valid channels: analysis, commentary, final. Channel must be included for every message.")
	if tools {
		t.owner = ownTools
		t.text("\nCalls to these tools must go to the commentary channel: 'functions'.")
	}
	t.special("<|end|>")
	start, developer := 0, ""
	if len(msgs) > 0 && (msgs[0].Role == "developer" || msgs[0].Role == "system") {
		developer, start = t.content(&msgs[0]), 1
	}
	if developer != "" || tools {
		t.owner = ownTools
		if developer != "" {
			t.owner = 0
		}
		t.special("<|start|>")
		t.text("developer")
		t.special("<|message|>")
		if developer != "" {
			t.text("# Instructions\n\n" + developer + "\n\n")
		}
		if tools {
			t.owner = ownTools
			t.text("# Tools\n\n" + t.gptOssTools(req.Tools))
		}
		t.special("<|end|>")
	}
	lastCall, hasCall := "", false
	for i := start; i < len(msgs); i++ {
		m := &msgs[i]
		t.owner = i
		switch m.Role {
		case "assistant":
			content := t.content(m)
			if strings.Contains(content, "<|channel|>analysis<|message|>") || strings.Contains(content, "<|channel|>final<|message|>") {
				t.inexact("the gpt-oss template refuses an assistant message whose content holds <|channel|> tags: the server will reject this request")
			}
			if len(m.ToolCalls) == 0 {
				t.special("<|start|>")
				t.text("assistant")
				t.special("<|channel|>")
				t.text("final")
				t.special("<|message|>")
				t.text(content)
				t.special("<|end|>")
				hasCall = false
				continue
			}
			if len(m.ToolCalls) > 1 {
				t.inexact("the gpt-oss template renders only the first tool call of a message (the others cost nothing)")
			}
			later := slices.ContainsFunc(msgs[i+1:], func(n ChatMessage) bool { return n.Role == "assistant" && len(n.ToolCalls) == 0 })
			if content != "" && !later {
				t.special("<|start|>")
				t.text("assistant")
				t.special("<|channel|>")
				t.text("analysis")
				t.special("<|message|>")
				t.text(content)
				t.special("<|end|>")
			}
			call := &m.ToolCalls[0].Function
			t.special("<|start|>")
			t.text("assistant to=functions." + call.Name)
			t.special("<|channel|>")
			t.text("commentary json")
			t.special("<|message|>")
			t.text(t.argumentsJSON(call.Arguments))
			t.special("<|call|>")
			lastCall, hasCall = call.Name, true
		case "tool":
			if !hasCall {
				t.inexact("the gpt-oss template refuses a tool message that does not follow an assistant tool call: the server will reject this request")
			}
			t.special("<|start|>")
			t.text("functions." + lastCall + " to=assistant")
			t.special("<|channel|>")
			t.text("commentary")
			t.special("<|message|>")
			t.text(string(appendPyString(nil, t.content(m))))
			t.special("<|end|>")
		case "user":
			t.special("<|start|>")
			t.text("user")
			t.special("<|message|>")
			t.text(t.content(m))
			t.special("<|end|>")
		}
	}
	t.owner = ownPriming
	t.special("<|start|>")
	t.text("assistant")
}

// gptOssTools is the template's render_tool_namespace("functions", tools):
// each tool's description as a comment and its parameters as a
// TypeScript object type.
func (t *templateRender) gptOssTools(tools []ChatTool) string {
	b := []byte("## functions\n\nnamespace functions {\n\n")
	for i := range tools {
		f := &tools[i].Function
		if f.Description == "" {
			t.inexact("a tool without a description: the gpt-oss template prints it with + and fails on an absent one")
		}
		b = append(b, "// "+f.Description+"\ntype "+f.Name+" = "...)
		params := schemaFields(f.Parameters)
		var props []byte
		if params.truthy("properties") && jsonio.Kind(params["properties"]) == "an object" {
			props = params["properties"]
		}
		required := map[string]bool{}
		_ = jsonio.Array(params["required"], func(v []byte) error {
			if s, err := jsonio.Unquote(v); err == nil {
				required[s] = true
			}
			return nil
		})
		if props == nil {
			b = append(b, "() => any;\n\n"...)
			continue
		}
		b = append(b, "(_: {\n"...)
		_ = jsonio.Members(props, func(name string, spec []byte) error {
			s := schemaFields(spec)
			if d, ok := s.str("description"); ok && d != "" {
				b = append(b, "// "+d+"\n"...)
			}
			b = append(b, name...)
			if !required[name] {
				b = append(b, '?')
			}
			b = append(b, ": "...)
			b = append(b, t.gptOssType(s)...)
			if def, ok := s["default"]; ok {
				switch {
				case s.truthy("enum"):
					d, isStr := s.str("default")
					if !isStr {
						t.inexact("a tool parameter's default that is not a string, beside an enum: the gpt-oss template fails on it")
					}
					b = append(b, ", // default: "+d...)
				case s.truthy("oneOf"):
					d, _ := s.str("default")
					t.inexact("a tool parameter's default beside oneOf: not rendered exactly")
					b = append(b, "// default: "+d...)
				default:
					b = append(b, ", // default: "...)
					b = t.appendPyJSON(b, def)
				}
			}
			b = append(b, ",\n"...)
			return nil
		})
		b = append(b, "}) => any;\n\n"...)
	}
	return string(append(b, "} // namespace functions"...))
}

// gptOssType is the template's render_typescript_type for a parameter's
// schema: the scalar types, string enums, arrays of scalars and nullable
// ones exactly; nested objects, oneOf and arrays of other items are
// rendered as the template's simplest case and flagged.
func (t *templateRender) gptOssType(s schema) string {
	nullable := ""
	if s.truthy("nullable") {
		nullable = " | null"
	}
	typ, _ := s.str("type")
	switch {
	case typ == "array":
		if !s.truthy("items") {
			return "any[]" + nullable
		}
		it, _ := schemaFields(s["items"]).str("type")
		switch it {
		case "string", "boolean":
			return it + "[]" + nullable
		case "number", "integer":
			return "number[]" + nullable
		}
		t.inexact("a tool parameter that is an array of objects or arrays: not rendered exactly for gpt-oss")
		return "any[]" + nullable
	case jsonio.Kind(s["type"]) == "an array":
		var types []string
		_ = jsonio.Array(s["type"], func(v []byte) error {
			x, err := jsonio.Unquote(v)
			if err != nil {
				t.inexact("a tool parameter's type list with a non-string: not rendered exactly for gpt-oss")
			}
			types = append(types, x)
			return nil
		})
		if len(types) == 0 {
			return "any"
		}
		return strings.Join(types, " | ")
	case s.truthy("oneOf"):
		t.inexact("a tool parameter with oneOf: not rendered exactly for gpt-oss")
		return "any"
	case typ == "string":
		if !s.truthy("enum") {
			return "string" + nullable
		}
		var values []string
		_ = jsonio.Array(s["enum"], func(v []byte) error {
			x, err := jsonio.Unquote(v)
			if err != nil {
				t.inexact("a tool parameter's enum with a non-string: Python prints it as str() does")
				x = string(bytes.TrimSpace(v))
			}
			values = append(values, x)
			return nil
		})
		return `"` + strings.Join(values, `" | "`) + `"`
	case typ == "number", typ == "integer":
		return "number"
	case typ == "boolean":
		return "boolean"
	case typ == "object":
		if s.truthy("properties") {
			t.inexact("a tool parameter that is an object with properties: not rendered exactly for gpt-oss")
			return "{\n}"
		}
		return "object"
	}
	return "any"
}

// schema is a JSON object's fields, raw.
type schema map[string][]byte

func schemaFields(raw []byte) schema {
	s := schema{}
	if jsonio.Kind(bytes.TrimSpace(raw)) == "an object" {
		_ = jsonio.Object(bytes.TrimSpace(raw), func(key string, val []byte) error {
			s[key] = bytes.TrimSpace(val)
			return nil
		})
	}
	return s
}

// str is a string field's value.
func (s schema) str(key string) (string, bool) {
	v, ok := s[key]
	if !ok || jsonio.Kind(v) != "a string" {
		return "", false
	}
	x, err := jsonio.Unquote(v)
	return x, err == nil
}

// truthy is whether the field is present and true as Jinja tests it: not
// null, false, 0, "", [] or {}.
func (s schema) truthy(key string) bool {
	v, ok := s[key]
	if !ok {
		return false
	}
	switch string(v) {
	case "null", "false", "0", `""`, "[]", "{}":
		return false
	}
	switch jsonio.Kind(v) {
	case "an array":
		n := 0
		_ = jsonio.Array(v, func([]byte) error { n++; return nil })
		return n > 0
	case "an object":
		n := 0
		_ = jsonio.Object(v, func(string, []byte) error { n++; return nil })
		return n > 0
	}
	return true
}
