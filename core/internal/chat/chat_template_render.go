package chat

import (
	"strings"
	"unicode/utf8"
)

// The built-in chat templates, each a Go rendering of one chat_template
// (the request's messages, tools where the template takes them, and
// add_generation_prompt=True). Content that is absent or null reads as "";
// DeepSeek's template alone tells null from "" (see renderDeepSeekV3).

// renderLlama3 renders Meta-Llama-3's template: every message is a header
// with its role and its content trimmed, the first preceded by the BOS
// token. Tools, tool calls and names are not in the template.
func renderLlama3(t *templateRender, req *ChatRequest) {
	for i := range req.Messages {
		m := &req.Messages[i]
		t.owner = i
		if i == 0 {
			t.special("<|begin_of_text|>")
		}
		t.llamaHeader(m.Role)
		t.text("\n\n" + pyStrip(t.content(m)))
		t.special("<|eot_id|>")
	}
	t.owner = ownPriming
	t.llamaHeader("assistant")
	t.text("\n\n")
}

// llamaHeader is a Llama 3 message header: the role between the header
// marker tokens.
func (t *templateRender) llamaHeader(role string) {
	t.special("<|start_header_id|>")
	t.text(role)
	t.special("<|end_header_id|>")
}

// llama31Date is the "Today Date" Llama 3.1's template writes when the
// request gives none (chat_template_kwargs.date_string): the template's
// own default, whatever the day.
const llama31Date = "26 Jul 2024"

// llama32Date stands for the "Today Date" Llama 3.2's template writes when
// the request gives none: the server's date, strftime_now("%d %b %Y").
// Every such date counts the same in Llama 3's tokenizer (two digits, a
// month's abbreviation that is one token, four digits split 3 + 1;
// TestChatTemplate_Dates), so a fixed one of that form counts as
// today's, and the count does not depend on a clock the host may not
// give the module.
const llama32Date = "01 Jan 2025"

// renderLlama32 renders Llama 3.2's template, which is Llama 3.1's with
// today's date for its default (llama32Date) and without 3.1's built-in
// tools, which tokenfit does not render for 3.1 either.
func renderLlama32(t *templateRender, req *ChatRequest) {
	renderLlama3Tools(t, req, llama32Date)
}

// renderLlama31 renders the template of Llama 3.1 and 3.3: a system header
// with the knowledge cutoff and the day's date, the first system message's
// content trimmed, then, when the request has tools, a user turn listing
// them (tojson, indent 4) with the first remaining message's content,
// whatever its role. An assistant message with tool calls renders its one
// call as JSON (its arguments parsed, as servers pass them to the
// template: json.dumps of the object); a tool message's content is printed
// with tojson, so a string comes quoted (the template tests "is iterable",
// which a string is). Names, tool_choice and tool call ids are not in the
// template. What the template refuses (tools with no message after the
// system one, several calls in one message) is counted and flagged.
func renderLlama31(t *templateRender, req *ChatRequest) {
	renderLlama3Tools(t, req, llama31Date)
}

// renderLlama3Tools renders the template of Llama 3.1 to 3.3 with the date
// it writes when the request gives none.
func renderLlama3Tools(t *templateRender, req *ChatRequest, date string) {
	msgs := req.Messages
	if k := req.ChatTemplateKwargs; k != nil && k.DateString != nil {
		date = *k.DateString
	}
	t.owner = ownPriming
	if len(msgs) > 0 {
		t.owner = 0
	}
	t.special("<|begin_of_text|>")
	start := 0
	system := ""
	if len(msgs) > 0 && msgs[0].Role == "system" {
		system = pyStrip(t.content(&msgs[0]))
		start = 1
	}
	t.llamaHeader("system")
	head := "\n\n"
	if req.Tools != nil {
		head += "Environment: ipython\n"
	}
	t.text(head + "Cutting Knowledge Date: December 2023\nToday Date: " + date + "\n\n")
	if start == 1 {
		t.text(system)
	}
	t.special("<|eot_id|>")
	if req.Tools != nil {
		t.owner = ownTools
		first := ""
		if start < len(msgs) {
			first = pyStrip(t.content(&msgs[start]))
		} else {
			t.inexact("the Llama 3.1 template refuses tools without a message after the system one: the server will reject this request")
		}
		t.llamaHeader("user")
		var b strings.Builder
		b.WriteString("\n\nGiven the following functions, please respond with a JSON for a function call with its proper arguments that best answers the given prompt.\n\n" +
			`Respond in the format {"name": function name, "parameters": dictionary of argument name and its value}.Do not use variables.` + "\n\n")
		tools, ok := t.toolsIndented(req.Tools)
		if !ok {
			return
		}
		for _, tool := range tools {
			b.WriteString(string(appendIndented(nil, []byte(tool), 0)))
			b.WriteString("\n\n")
		}
		t.text(b.String())
		if start < len(msgs) {
			t.owner = start
			t.text(first)
			start++
		}
		t.special("<|eot_id|>")
	}
	for i := start; i < len(msgs); i++ {
		m := &msgs[i]
		t.owner = i
		switch {
		case m.Role != "tool" && m.Role != "ipython" && m.ToolCalls == nil:
			t.llamaHeader(m.Role)
			t.text("\n\n" + pyStrip(t.content(m)))
			t.special("<|eot_id|>")
		case m.ToolCalls != nil:
			if len(m.ToolCalls) != 1 {
				t.inexact("the Llama 3.1 template refuses a message with other than one tool call: the server will reject this request")
				if len(m.ToolCalls) == 0 {
					continue
				}
			}
			call := &m.ToolCalls[0].Function
			t.llamaHeader("assistant")
			t.text("\n\n{\"name\": \"" + call.Name + "\", \"parameters\": " + t.argumentsJSON(call.Arguments) + "}")
			t.special("<|eot_id|>")
		default:
			t.llamaHeader("ipython")
			t.text("\n\n" + string(appendPyString(nil, t.content(m))))
			t.special("<|eot_id|>")
		}
	}
	t.owner = ownPriming
	t.llamaHeader("assistant")
	t.text("\n\n")
}

// renderQwen3 renders Qwen3's template (ChatML): tools are listed as JSON
// in the system message, tool results go in user turns, and assistant
// turns after the last user query keep their reasoning in <think>.
// Tool calls' arguments are printed as vLLM passes them, parsed and
// printed again with tojson (argumentsJSON; the template prints a string
// as it is, which llama.cpp passes, so the two servers differ when the
// arguments are not in json.dumps's form). Messages of other roles
// (developer, function) are not rendered.
func renderQwen3(t *templateRender, req *ChatRequest) {
	msgs := req.Messages
	content := make([]string, len(msgs))
	for i := range msgs {
		content[i] = t.content(&msgs[i])
	}
	firstSystem := len(msgs) > 0 && msgs[0].Role == "system"
	if len(req.Tools) > 0 {
		t.owner = ownTools
		t.special("<|im_start|>")
		t.text("system\n")
		if firstSystem {
			t.owner = 0
			t.text(content[0] + "\n\n")
			t.owner = ownTools
		}
		var b strings.Builder
		b.WriteString("# Tools\n\nYou may call one or more functions to assist with the user query.\n\nYou are provided with function signatures within <tools></tools> XML tags:\n<tools>")
		for i := range req.Tools {
			b.WriteString("\n")
			b.WriteString(t.toolJSON(&req.Tools[i]))
		}
		b.WriteString("\n</tools>\n\nFor each function call, return a json object with function name and arguments within <tool_call></tool_call> XML tags:\n")
		t.text(b.String())
		t.special("<tool_call>")
		t.text("\n{\"name\": <function-name>, \"arguments\": <args-json-object>}\n")
		t.special("</tool_call>")
		t.special("<|im_end|>")
		t.text("\n")
	} else if firstSystem {
		t.owner = 0
		t.special("<|im_start|>")
		t.text("system\n" + content[0])
		t.special("<|im_end|>")
		t.text("\n")
	}
	// The last user query: the last user message that is not only a tool
	// response.
	lastQuery := len(msgs) - 1
	for i := len(msgs) - 1; i >= 0; i-- {
		c := content[i]
		if msgs[i].Role == "user" && !(strings.HasPrefix(c, "<tool_response>") && strings.HasSuffix(c, "</tool_response>")) {
			lastQuery = i
			break
		}
	}
	for i := range msgs {
		m := &msgs[i]
		t.owner = i
		switch {
		case m.Role == "user" || m.Role == "system" && i > 0:
			t.special("<|im_start|>")
			t.text(m.Role + "\n" + content[i])
			t.special("<|im_end|>")
			t.text("\n")
		case m.Role == "assistant":
			c, reasoning := content[i], ""
			if k := strings.LastIndex(c, "</think>"); k >= 0 {
				// split('</think>')[-1] and [0], then split('<think>')[-1]
				r := strings.TrimRight(c[:strings.Index(c, "</think>")], "\n")
				if j := strings.LastIndex(r, "<think>"); j >= 0 {
					r = r[j+len("<think>"):]
				}
				c, reasoning = strings.TrimLeft(c[k+len("</think>"):], "\n"), strings.TrimLeft(r, "\n")
			}
			t.special("<|im_start|>")
			if i > lastQuery && (i == len(msgs)-1 || reasoning != "") {
				t.text("assistant\n")
				t.special("<think>")
				t.text("\n" + strings.Trim(reasoning, "\n") + "\n")
				t.special("</think>")
				t.text("\n\n" + strings.TrimLeft(c, "\n"))
			} else {
				t.text("assistant\n" + c)
			}
			for j := range m.ToolCalls {
				if j > 0 || c != "" {
					t.text("\n")
				}
				call := &m.ToolCalls[j].Function
				t.special("<tool_call>")
				t.text("\n{\"name\": \"" + call.Name + "\", \"arguments\": " + t.argumentsJSON(call.Arguments) + "}\n")
				t.special("</tool_call>")
			}
			t.special("<|im_end|>")
			t.text("\n")
		case m.Role == "tool":
			if i == 0 || msgs[i-1].Role != "tool" {
				t.special("<|im_start|>")
				t.text("user")
			}
			t.text("\n")
			t.special("<tool_response>")
			t.text("\n" + content[i] + "\n")
			t.special("</tool_response>")
			if i == len(msgs)-1 || msgs[i+1].Role != "tool" {
				t.special("<|im_end|>")
				t.text("\n")
			}
		}
	}
	t.owner = ownPriming
	t.special("<|im_start|>")
	t.text("assistant\n")
}

// renderDeepSeekV3 renders DeepSeek V3's template: the system messages
// joined after the BOS token, then user, assistant and tool turns. An
// assistant message with tool calls and no content (null or "") renders
// its calls; one with content renders only the content. The template's
// quirks are kept: only the first call of the conversation opens the
// calls block, later calls close it after themselves, and after a tool
// result there is no generation prompt. A call's arguments are printed
// as the request's string: the template joins them to text with +, which
// takes only a string, so llama.cpp passes the string, and vLLM, which
// parses them into an object, fails to render a request with tool calls
// (its own tool_chat_template_deepseekv3.jinja is another template).
func renderDeepSeekV3(t *templateRender, req *ChatRequest) {
	msgs := req.Messages
	t.owner = 0
	t.special("<｜begin▁of▁sentence｜>")
	firstSystem := true
	for i := range msgs {
		if msgs[i].Role != "system" {
			continue
		}
		t.owner = i
		if !firstSystem {
			t.text("\n\n")
		}
		t.text(t.content(&msgs[i]))
		firstSystem = false
	}
	isFirst, isTool, outputFirst := false, false, true
	for i := range msgs {
		m := &msgs[i]
		t.owner = i
		switch m.Role {
		case "user":
			isTool = false
			t.special("<｜User｜>")
			t.text(t.content(m))
		case "assistant":
			if m.Content.Parts == nil && m.Content.Text == "" && len(m.ToolCalls) > 0 {
				isTool = false
				for j := range m.ToolCalls {
					call := &m.ToolCalls[j]
					if !isFirst {
						t.special("<｜Assistant｜>")
						t.special("<｜tool▁calls▁begin｜>")
					} else {
						t.text("\n")
					}
					t.special("<｜tool▁call▁begin｜>")
					t.text(callType(call))
					t.special("<｜tool▁sep｜>")
					t.text(call.Function.Name + "\n```json\n" + call.Function.Arguments + "\n```")
					t.special("<｜tool▁call▁end｜>")
					if isFirst {
						t.special("<｜tool▁calls▁end｜>")
						t.special("<｜end▁of▁sentence｜>")
					}
					isFirst = true
				}
				continue
			}
			if isTool {
				t.special("<｜tool▁outputs▁end｜>")
				isTool = false
			} else {
				t.special("<｜Assistant｜>")
			}
			t.text(t.content(m))
			t.special("<｜end▁of▁sentence｜>")
		case "tool":
			isTool = true
			if outputFirst {
				t.special("<｜tool▁outputs▁begin｜>")
				outputFirst = false
			} else {
				t.text("\n")
			}
			t.special("<｜tool▁output▁begin｜>")
			t.text(t.content(m))
			t.special("<｜tool▁output▁end｜>")
		}
	}
	t.owner = ownPriming
	if isTool {
		t.special("<｜tool▁outputs▁end｜>")
	} else {
		t.special("<｜Assistant｜>")
	}
}

// callType is a tool call's type as the template prints it.
func callType(c *ToolCall) string {
	if c.Type == "" {
		return "function"
	}
	return c.Type
}

// gemmaImageTokens is how many <image_soft_token> Gemma 3's processor puts
// in the prompt for one image (its image_seq_length; SigLIP's 896×896
// pixels pooled to 16×16, whatever the image's size).
const gemmaImageTokens = 256

// gemmaImage renders an image part of a Gemma 3 message. The template
// writes <start_of_image> for it (servers pass OpenAI's image_url parts
// to the template as images), and Gemma 3's processor replaces that with
// a blank line, <start_of_image>, 256 <image_soft_token>, <end_of_image>
// and a blank line: 258 tokens an image, plus the blank lines, which join
// the text around them. That is with pan-and-scan off (the processors'
// default); a server that turns it on adds crops, each another such image.
func (t *templateRender) gemmaImage() {
	t.text("\n\n")
	t.special("<start_of_image>")
	t.specials("<image_soft_token>", gemmaImageTokens)
	t.special("<end_of_image>")
	t.text("\n\n")
	t.images += gemmaImageTokens + 2
	t.inexact("images: counted as Gemma 3's processor expands each (258 tokens and blank lines around them, pan-and-scan off), which no offline reference confirms")
}

// renderGemma3 renders Gemma 3's template: a first system message becomes
// the start of the first user turn, "assistant" is "model", contents are
// trimmed, and images are expanded as its processor does (gemmaImage). The template refuses roles that do not alternate user,
// assistant, user, …: such a request is counted as if it had not, and
// flagged.
func renderGemma3(t *templateRender, req *ChatRequest) {
	msgs := req.Messages
	t.owner = 0
	t.special("<bos>")
	prefix, start := "", 0
	if len(msgs) > 0 && msgs[0].Role == "system" {
		if p := msgs[0].Content.Parts; p != nil {
			if len(p) > 0 {
				prefix = p[0].Text
			}
		} else {
			prefix = msgs[0].Content.Text
		}
		prefix += "\n\n"
		start = 1
	}
	for i := start; i < len(msgs); i++ {
		m := &msgs[i]
		if (m.Role == "user") != ((i-start)%2 == 0) {
			t.inexact("the Gemma template refuses this conversation (roles must alternate user/assistant after an optional system message): the server will reject it")
		}
		role := m.Role
		if role == "assistant" {
			role = "model"
		}
		t.owner = i
		t.special("<start_of_turn>")
		t.text(role + "\n")
		if i == start && prefix != "" {
			t.owner = 0
			t.text(prefix)
			t.owner = i
		}
		if m.Content.Parts == nil {
			t.text(pyStrip(m.Content.Text))
		}
		for _, p := range m.Content.Parts {
			switch p.Type {
			case "text":
				t.text(pyStrip(p.Text))
			case "image_url":
				t.gemmaImage()
			}
		}
		t.special("<end_of_turn>")
		t.text("\n")
	}
	t.owner = ownPriming
	t.special("<start_of_turn>")
	t.text("model\n")
}

// renderMistralV01 renders Mistral 7B Instruct v0.1's template: the BOS
// token, each user message as "[INST] content [/INST]" and each assistant
// message as its content, the EOS token and a space; no generation prompt.
// The template refuses other roles and roles that do not alternate user,
// assistant, user, …: such a request is counted and flagged, with a
// system message's content put before the first user message's (as
// Mistral's later templates place it) and other roles' messages not
// rendered.
func renderMistralV01(t *templateRender, req *ChatRequest) {
	msgs := req.Messages
	t.owner = ownPriming
	if len(msgs) > 0 {
		t.owner = 0
	}
	t.special("<s>")
	system, turn := -1, 0
	for i := range msgs {
		m := &msgs[i]
		t.owner = i
		switch m.Role {
		case "user", "assistant":
			if (m.Role == "user") != (turn%2 == 0) {
				t.inexact("the Mistral template refuses this conversation (roles must alternate user/assistant): the server will reject it")
			}
			turn++
		case "system":
			t.inexact("the Mistral 7B v0.1 template refuses system messages: the server will reject this request (counted before the next user message)")
			if system < 0 {
				system = i
			}
			continue
		default:
			t.inexact("the Mistral 7B v0.1 template refuses roles other than user and assistant: the server will reject this request (not counted)")
			continue
		}
		if m.Role == "assistant" {
			t.text(t.content(m))
			t.special("</s>")
			t.text(" ")
			continue
		}
		t.text("[INST] ")
		if system >= 0 {
			t.owner = system
			t.text(t.content(&msgs[system]) + "\n\n")
			t.owner, system = i, -1
		}
		t.text(t.content(m) + " [/INST]")
	}
}

// renderMistralNemo renders Mistral NeMo's template (Tekken's control
// tokens): the BOS token; user turns in [INST] … [/INST], the last user
// message preceded by the tools ([AVAILABLE_TOOLS], each tool's string
// fields printed raw and the others with tojson) and, when it is the last
// message, given the system message before its content (which a request
// that ends otherwise loses); assistant turns with the EOS token; tool
// calls as [TOOL_CALLS] with the call's function as JSON and its id; tool
// results as [TOOL_RESULTS] with the content raw. No generation prompt.
// What the template refuses (roles out of alternation, other roles, call
// ids that are not 9 characters) is counted and flagged.
func renderMistralNemo(t *templateRender, req *ChatRequest) {
	msgs := req.Messages
	start, system := 0, -1
	if len(msgs) > 0 && msgs[0].Role == "system" {
		start, system = 1, 0
	}
	lastUser := -1
	turn := 0
	for i := start; i < len(msgs); i++ {
		m := &msgs[i]
		if m.Role == "user" {
			lastUser = i
		}
		if m.Role == "tool" || m.ToolCalls != nil {
			continue
		}
		if (m.Role == "user") != (turn%2 == 0) {
			t.inexact("the Mistral NeMo template refuses this conversation (roles must alternate user/assistant, tool calls and results aside): the server will reject it")
		}
		turn++
	}
	t.owner = ownPriming
	if len(msgs) > 0 {
		t.owner = 0
	}
	t.special("<s>")
	for i := start; i < len(msgs); i++ {
		m := &msgs[i]
		t.owner = i
		switch {
		case m.Role == "user":
			// The template compares messages (==): a user message equal
			// to the last one gets the tools too.
			if req.Tools != nil && lastUser >= 0 && m.Content.Parts == nil && m.Content.Text == msgs[lastUser].Content.Text && m.Name == msgs[lastUser].Name {
				t.owner = ownTools
				t.special("[AVAILABLE_TOOLS]")
				t.text(t.nemoTools(req.Tools))
				t.special("[/AVAILABLE_TOOLS]")
				t.owner = i
			}
			t.special("[INST]")
			if i == len(msgs)-1 && system >= 0 {
				t.owner = system
				t.text(t.content(&msgs[system]) + "\n\n")
				t.owner = i
			}
			t.text(t.content(m))
			t.special("[/INST]")
		case m.ToolCalls != nil:
			t.special("[TOOL_CALLS]")
			var b strings.Builder
			b.WriteString("[")
			for j := range m.ToolCalls {
				c := &m.ToolCalls[j]
				if j > 0 {
					b.WriteString(", ")
				}
				b.WriteString(`{"name": ` + string(appendPyString(nil, c.Function.Name)) + `, "arguments": ` + t.argumentsJSON(c.Function.Arguments))
				b.WriteString(`, "id": "` + t.nemoID(c.ID) + `"}`)
			}
			b.WriteString("]")
			t.text(b.String())
			t.special("</s>")
		case m.Role == "assistant":
			t.text(t.content(m))
			t.special("</s>")
		case m.Role == "tool":
			t.special("[TOOL_RESULTS]")
			t.text(`{"content": ` + t.content(m) + `, "call_id": "` + t.nemoID(m.ToolCallID) + `"}`)
			t.special("[/TOOL_RESULTS]")
		default:
			t.inexact("the Mistral NeMo template refuses roles other than user, assistant and tool after the first system message: the server will reject this request (not counted)")
		}
	}
}

// nemoID is a tool call id, which the NeMo template requires to be 9
// characters long.
func (t *templateRender) nemoID(id string) string {
	if utf8.RuneCountInString(id) != 9 {
		t.inexact("the Mistral NeMo template refuses tool call ids that are not 9 characters long: the server will reject this request")
	}
	return id
}

// nemoTools is the NeMo template's tool list: each tool's function with
// its string fields printed raw between quotes and the others with
// tojson, in the request's order (name, description, parameters, strict).
func (t *templateRender) nemoTools(tools []ChatTool) string {
	b := []byte("[")
	if len(tools) == 0 {
		return "[" // the template closes the list at its last tool
	}
	for i := range tools {
		f := &tools[i].Function
		if i > 0 {
			b = append(b, ", "...)
		}
		b = append(b, `{"type": "function", "function": {"name": "`+f.Name+`"`...)
		if f.Description != "" {
			b = append(b, `, "description": "`+f.Description+`"`...)
		}
		b = t.appendToolTail(b, f)
	}
	return string(append(b, ']'))
}
