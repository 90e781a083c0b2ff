package randtext

import (
	"fmt"
	"math/rand"
	"strings"
)

// ChatRequest is a random chat request (JSON, OpenAI's shape) with the parts
// whose rules are fitted: nested, anyOf and undescribed parameters, tool
// calls (parallel, with and without content), tool results, names, and a
// system message. It draws from math/rand's generator, as the chat tests
// that use it were seeded.

func ChatRequest(rng *rand.Rand) string {
	words := []string{"weather", "city", "unit", "Paris", "x", "deep", "name", "日本", "é", "42", " ", "{", "\n"}
	word := func() string {
		var b strings.Builder
		for range 1 + rng.Intn(3) {
			b.WriteString(words[rng.Intn(len(words))])
		}
		return b.String()
	}
	var schema func(depth int) string
	schema = func(depth int) string {
		desc := ""
		if rng.Intn(2) == 0 {
			desc = fmt.Sprintf(`, "description": %q`, word())
		}
		switch k := rng.Intn(6); {
		case k == 0 && depth < 3:
			var props []string
			for i := range 1 + rng.Intn(3) {
				props = append(props, fmt.Sprintf(`"p%d": %s`, i, schema(depth+1)))
			}
			return fmt.Sprintf(`{"type": "object", "properties": {%s}%s}`, strings.Join(props, ", "), desc)
		case k == 1 && depth < 3:
			return fmt.Sprintf(`{"type": "array", "items": %s%s}`, schema(depth+1), desc)
		case k == 2:
			return fmt.Sprintf(`{"type": "string", "enum": [%q, %q]%s}`, word(), word(), desc)
		case k == 3 && depth < 3:
			return fmt.Sprintf(`{"anyOf": [{"type": "string"}, {"type": "number"}]%s}`, desc)
		case k == 4:
			return fmt.Sprintf(`{"type": "number"%s}`, desc)
		}
		return fmt.Sprintf(`{"type": "string"%s}`, desc)
	}
	var tools []string
	for i := range rng.Intn(3) {
		var props []string
		for j := range 1 + rng.Intn(3) {
			props = append(props, fmt.Sprintf(`"a%d": %s`, j, schema(1)))
		}
		tools = append(tools, fmt.Sprintf(`{"type": "function", "function": {"name": "f%d", "description": %q, "parameters": {"type": "object", "properties": {%s}}}}`,
			i, word(), strings.Join(props, ", ")))
	}
	var msgs []string
	if rng.Intn(2) == 0 {
		msgs = append(msgs, fmt.Sprintf(`{"role": "system", "content": %q}`, word()))
	}
	msgs = append(msgs, fmt.Sprintf(`{"role": "user", "content": %q}`, word()))
	if len(tools) > 0 && rng.Intn(3) > 0 {
		var calls []string
		for i := range 1 + rng.Intn(3) {
			calls = append(calls, fmt.Sprintf(`{"id": "c%d", "type": "function", "function": {"name": "f0", "arguments": "{\"a0\": %d}"}}`, i, i))
		}
		content := "null"
		if rng.Intn(2) == 0 {
			content = fmt.Sprintf("%q", word())
		}
		msgs = append(msgs, fmt.Sprintf(`{"role": "assistant", "content": %s, "tool_calls": [%s]}`, content, strings.Join(calls, ", ")))
		for i := range calls {
			msgs = append(msgs, fmt.Sprintf(`{"role": "tool", "tool_call_id": "c%d", "content": %q}`, i, word()))
		}
	}
	if rng.Intn(3) == 0 {
		msgs = append(msgs, fmt.Sprintf(`{"role": "user", "name": "bob", "content": [{"type": "text", "text": %q}, {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}]}`, word()))
	}
	req := fmt.Sprintf(`{"messages": [%s]`, strings.Join(msgs, ", "))
	if len(tools) > 0 {
		req += fmt.Sprintf(`, "tools": [%s]`, strings.Join(tools, ", "))
	}
	return req + "}"
}
