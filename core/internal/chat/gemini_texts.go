package chat

import (
	"github.com/tokenfit/tokenfit/core/engine"
	"github.com/tokenfit/tokenfit/core/internal/jsonio"
)

// The strings of a Gemini request that Google's own local tokenizer counts
// (python-genai, google/genai/local_tokenizer.py, _TextsAccumulator), read
// from a chat request's OpenAI translation as the generateContent request
// it stands for: each string is counted on its own (SentencePiece encodes
// the list item by item, with no BOS and nothing joining them), and the
// count is their sum. The strings are:
//
//   - a text part's text, wherever it is (contents, systemInstruction);
//   - a function call's name, then every key of its args and every string
//     value, at any depth (numbers, booleans and null add nothing);
//   - a function response's name, then its response walked the same way;
//   - a function declaration's name and description, then its parameters
//     walked as a schema: format, description, each enum value, each
//     required name, items, each property's key and then its schema, and an
//     example walked as a value (type, title, default and the other
//     keywords add nothing);
//   - the response schema, walked as a schema.
//
// Roles, part boundaries and the request's structure add nothing to this
// count; what Google bills for them is the framing (chat_gemini.go).

// geminiStrings counts the strings of one piece of a request.
type geminiStrings struct {
	tok engine.Tokenizer
	n   int
}

func (g *geminiStrings) add(s string) {
	if s != "" {
		g.n += g.tok.Count(s)
	}
}

// value walks a JSON value as the local tokenizer walks args and
// responses: an object's keys and values, an array's items, a string
// itself. Text that is not JSON counts as one string.
func (g *geminiStrings) value(raw []byte) { g.walkValue(raw, 0) }

// maxWalkDepth bounds the nesting the walks follow (as jsonio.Check
// does), so that no request makes them recurse without end.
const maxWalkDepth = jsonio.MaxDepth

func (g *geminiStrings) walkValue(raw []byte, depth int) {
	if depth > maxWalkDepth {
		return
	}
	switch jsonio.Kind(raw) {
	case "a string":
		s, err := jsonio.Unquote(raw)
		if err == nil {
			g.add(s)
		}
	case "an object":
		_ = jsonio.Object(raw, func(k string, v []byte) error {
			g.add(k)
			g.walkValue(v, depth+1)
			return nil
		})
	case "an array":
		_ = jsonio.Array(raw, func(v []byte) error {
			g.walkValue(v, depth+1)
			return nil
		})
	}
}

// text is a text that may hold JSON (a tool result, a call's arguments):
// walked as a value when it is an object or an array, else one string.
func (g *geminiStrings) text(s string) {
	b := []byte(s)
	if k := jsonio.Kind(b); (k == "an object" || k == "an array") && jsonio.Check(b) == nil {
		g.value(b)
		return
	}
	g.add(s)
}

// schema walks a JSON schema as the local tokenizer walks a Schema; const
// counts as a one-value enum, as the AI SDK's Google provider sends it.
func (g *geminiStrings) schema(raw []byte) { g.walkSchema(raw, 0) }

func (g *geminiStrings) walkSchema(raw []byte, depth int) {
	if jsonio.Kind(raw) != "an object" || depth > maxWalkDepth {
		return
	}
	_ = jsonio.Object(raw, func(k string, v []byte) error {
		switch k {
		case "format", "description":
			g.value(stringOnly(v))
		case "enum", "required":
			_ = jsonio.Array(v, func(item []byte) error {
				g.value(stringOnly(item))
				return nil
			})
		case "const":
			g.value(stringOnly(v))
		case "items":
			if jsonio.Kind(v) == "an array" {
				_ = jsonio.Array(v, func(item []byte) error {
					g.walkSchema(item, depth+1)
					return nil
				})
			} else {
				g.walkSchema(v, depth+1)
			}
		case "properties":
			_ = jsonio.Object(v, func(key string, s []byte) error {
				g.add(key)
				g.walkSchema(s, depth+1)
				return nil
			})
		case "example":
			g.walkValue(v, depth+1)
		}
		return nil
	})
}

// stringOnly is raw when it is a JSON string, else nothing.
func stringOnly(raw []byte) []byte {
	if jsonio.Kind(raw) == "a string" {
		return raw
	}
	return nil
}
