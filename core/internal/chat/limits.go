package chat

import "github.com/tokenfit/tokenfit/core/internal/limit"

// RenderGrowth bounds what a chat template renders, all of which is then
// counted: at most RenderGrowth times the request's text (chatSize) plus
// GrowthSlack, a marker token counting one byte. The tools Llama 3.1 and
// 3.2 print indented are measured before they are printed. Real tool
// schemas indent to 1.3–2.3 times their size (core.RenderGrowth; core's
// limits.go states every budget).
const RenderGrowth = 8

// renderBudget is the largest rendering of a chat request of n bytes.
func renderBudget(n int) int { return RenderGrowth*n + limit.GrowthSlack }

// chatSize is what a chat request carries, the base of its rendering
// budget: the bytes of its texts, names, arguments and tool schemas, and 16
// for each message, part, call and tool (the least JSON each takes).
// O(messages + parts + tools).
func chatSize(req *ChatRequest) int {
	n := 0
	for i := range req.Messages {
		m := &req.Messages[i]
		n += 16 + len(m.Role) + len(m.Content.Text) + len(m.Name) + len(m.ToolCallID)
		for _, p := range m.Content.Parts {
			n += 16 + len(p.Type) + len(p.Text)
			if p.ImageURL != nil {
				n += len(p.ImageURL.URL)
			}
		}
		for _, c := range m.ToolCalls {
			n += 16 + len(c.ID) + len(c.Function.Name) + len(c.Function.Arguments)
		}
		if c := m.FunctionCall; c != nil {
			n += 16 + len(c.Name) + len(c.Arguments)
		}
	}
	def := func(f *FunctionDef) int { return 16 + len(f.Name) + len(f.Description) + len(f.Parameters) }
	for i := range req.Tools {
		n += def(&req.Tools[i].Function)
	}
	for i := range req.Functions {
		n += def(&req.Functions[i])
	}
	return n
}

// indentedSize is the length of the JSON compact (as appendPyJSON prints
// it: separators ", " and ": ") printed by appendIndented at depth 0, found
// without printing it: each element of a non-empty container goes on a
// line of its own, indented four spaces a level, and the container's close
// on one at its own level. O(len(compact)).
func indentedSize(compact string) int {
	n, depth, inString := 0, 0, false
	for i := 0; i < len(compact); i++ {
		c := compact[i]
		if inString {
			n++
			switch c {
			case '\\':
				n++
				i++
			case '"':
				inString = false
			}
			continue
		}
		switch c {
		case '"':
			inString = true
			n++
		case '{', '[':
			if i+1 < len(compact) && (compact[i+1] == '}' || compact[i+1] == ']') {
				n += 2 // {} and [] stay as they are
				i++
				continue
			}
			depth++
			n += 2 + 4*depth // the bracket, then a line at the new depth
		case '}', ']':
			depth--
			n += 2 + 4*depth // a line at the container's depth, then the bracket
		case ',':
			n += 2 + 4*depth // ", " becomes "," and a new line
			i++              // the space
		default:
			n++
		}
	}
	return n
}
