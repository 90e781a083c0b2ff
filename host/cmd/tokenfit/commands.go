package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/tokenfit/tokenfit/core"
)

// target holds --encoding, --model and --tokenizer (see tokenizer.go).
type target struct {
	encoding, model, tokenizer string
	hf                         *core.HFTokenizer
}

func targetFlags(fs *flag.FlagSet) *target {
	t := &target{}
	fs.StringVar(&t.encoding, "encoding", "", "encoding: o200k_base, cl100k_base, p50k_base, r50k_base, or a heuristic (chars4, bytes4); default o200k_base")
	fs.StringVar(&t.model, "model", "", "model, such as gpt-4o (an unknown one counts with cl100k_base)")
	fs.StringVar(&t.tokenizer, "tokenizer", "", "a Hugging Face tokenizer.json to count with (an open-weight model's)")
	return t
}

func (t *target) check() error {
	if t.encoding != "" && t.model != "" {
		return usagef("give --encoding or --model, not both")
	}
	return nil
}

// fields returns the target as request fields.
func (t *target) fields() map[string]any {
	m := map[string]any{}
	if t.encoding != "" {
		m["encoding"] = t.encoding
	}
	if t.model != "" {
		m["model"] = t.model
	}
	return m
}

// fast reports the encoding to count with on the fast path, or "" when the
// target needs countTokens (a model, a heuristic).
func (t *target) fast() string {
	switch {
	case t.model != "":
		return ""
	case t.encoding == "":
		return core.DefaultEncoding
	case exact(t.encoding):
		return t.encoding
	}
	return ""
}

// encodings are the tables a wasm runtime must load for the target: only
// the one on the fast path, else all (a model may need any).
func (t *target) encodings() []string {
	if e := t.fast(); e != "" {
		return []string{e}
	}
	return nil
}

// do runs op with the request and returns the answer, or the error answer
// as an error.
func (c *cli) do(op string, req any, encodings []string) ([]byte, error) {
	rt, err := c.backend(encodings)
	if err != nil {
		return nil, err
	}
	body, ok := req.([]byte)
	if !ok {
		if body, err = json.Marshal(req); err != nil {
			return nil, err
		}
	}
	out, err := rt.call(c.ctx, op, body)
	if err != nil {
		return nil, err
	}
	if bytes.HasPrefix(out, []byte(`{"error":`)) {
		var e core.ErrorAnswer
		if json.Unmarshal(out, &e) == nil {
			return nil, answerError{e.Error}
		}
	}
	return out, nil
}

// answerError is an error answer, printed as its message.
type answerError struct{ body core.ErrorBody }

// Error returns the answer's message.
func (e answerError) Error() string { return e.body.Message }

// input reads the files named (concatenated), or stdin when there is none.
func (c *cli) input(files []string) ([]byte, error) {
	if len(files) == 0 {
		return readAll(c.stdin, "stdin", maxInput)
	}
	var all []byte
	for _, f := range files {
		b, err := readFile(f, maxInput)
		if err != nil {
			return nil, err
		}
		if len(all)+len(b) > maxInput {
			return nil, fmt.Errorf("the files together: more than %s, the most tokenfit reads", bytesString(maxInput))
		}
		all = append(all, b...)
	}
	return all, nil
}

// oneInput reads at most one file, or stdin.
func (c *cli) oneInput(args []string) ([]byte, error) {
	if len(args) > 1 {
		return nil, usagef("give at most one FILE, not %d", len(args))
	}
	return c.input(args)
}

func countCmd(fs *flag.FlagSet) func(*cli, []string) error {
	t := targetFlags(fs)
	jsonl := fs.Bool("jsonl", false, `read {"text": …} lines, write {"tokens": N} lines`)
	return func(c *cli, files []string) error {
		if err := t.check(); err != nil {
			return err
		}
		hf, err := t.loadTokenizer(c)
		if err != nil {
			return err
		}
		rt, err := c.backend(t.encodings())
		if err != nil {
			return err
		}
		count := func(text string) (int, error) {
			if hf != nil {
				return hf.Count(text), nil
			}
			if e := t.fast(); e != "" {
				return rt.count(c.ctx, e, text)
			}
			req := t.fields()
			req["text"] = text
			out, err := c.do("countTokens", req, nil)
			if err != nil {
				return 0, err
			}
			var a core.CountAnswer
			return a.Tokens, json.Unmarshal(out, &a)
		}
		if *jsonl {
			return c.countLines(files, count)
		}
		stream, err := c.streamEncoding(t, hf)
		if err != nil {
			return err
		}
		// One input: stdin, or a file. Files are counted one by one: each is
		// a text of its own.
		one := func(r io.Reader, name string) (int, error) {
			if stream != "" {
				n, err := rt.countReader(c.ctx, stream, r)
				if err != nil {
					return 0, inputError{name, err}
				}
				return n, nil
			}
			b, err := readAll(r, name, maxInput)
			if err != nil {
				return 0, err
			}
			return count(string(b))
		}
		total := 0
		if len(files) == 0 {
			if total, err = one(c.stdin, "stdin"); err != nil {
				return err
			}
		}
		for _, name := range files {
			f, err := os.Open(name)
			if err != nil {
				return err
			}
			n, err := one(f, name)
			f.Close()
			if err != nil {
				return err
			}
			total += n
		}
		_, err = fmt.Fprintln(c.stdout, total)
		return err
	}
}

// streamEncoding returns the encoding that counts the text as it is read,
// on either runtime: an exact built-in one, named, the default, or a
// model's (as countTokens answers for it); "" when the count needs the
// whole text (a heuristic, an estimate, a tokenizer.json).
func (c *cli) streamEncoding(t *target, hf *core.HFTokenizer) (string, error) {
	switch {
	case hf != nil:
		return "", nil
	case t.fast() != "":
		return t.fast(), nil
	case t.model == "":
		return "", nil // a heuristic
	}
	out, err := c.do("countTokens", core.CountRequest{Target: core.Target{Model: t.model}}, nil)
	if err != nil {
		return "", err
	}
	var a core.CountAnswer
	if err := json.Unmarshal(out, &a); err != nil {
		return "", err
	}
	if a.Exact && exact(a.Encoding) {
		return a.Encoding, nil
	}
	return "", nil
}

// inputError is an error in reading or counting one input, named.
type inputError struct {
	name string
	err  error
}

// Error returns the input's name and the error.
func (e inputError) Error() string {
	return e.name + ": " + strings.TrimPrefix(e.err.Error(), "tokenfit: ")
}

func (e inputError) Unwrap() error { return e.err }

// countLines counts {"text": …} lines.
func (c *cli) countLines(files []string, count func(string) (int, error)) error {
	readers := []io.Reader{c.stdin}
	names := []string{"stdin"}
	if len(files) > 0 {
		readers, names = nil, files
		for _, f := range files {
			fh, err := os.Open(f)
			if err != nil {
				return err
			}
			defer fh.Close()
			readers = append(readers, fh)
		}
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	for i, r := range readers {
		sc := bufio.NewScanner(flushFirst{r, w})
		sc.Buffer(make([]byte, 64<<10), maxInput)
		for line := 1; sc.Scan(); line++ {
			if len(bytes.TrimSpace(sc.Bytes())) == 0 {
				continue
			}
			var in struct {
				Text *string `json:"text"`
			}
			if err := json.Unmarshal(sc.Bytes(), &in); err != nil || in.Text == nil {
				if err == nil {
					err = fmt.Errorf(`no "text" string`)
				}
				return fmt.Errorf(`%s:%d: want {"text": "…"}: %v`, names[i], line, err)
			}
			n, err := count(*in.Text)
			if err != nil {
				return fmt.Errorf("%s:%d: %w", names[i], line, err)
			}
			fmt.Fprintf(w, "{\"tokens\":%d}\n", n)
		}
		if err := sc.Err(); err != nil {
			return fmt.Errorf("%s: %w", names[i], err)
		}
	}
	return w.Flush()
}

// flushFirst flushes w before each read of r: the answers to the lines
// read so far go out before tokenfit waits for more (a pipe that writes a
// line and waits for its answer), while a file is still written in large
// blocks.
type flushFirst struct {
	r io.Reader
	w *bufio.Writer
}

func (f flushFirst) Read(p []byte) (int, error) {
	if err := f.w.Flush(); err != nil {
		return 0, err
	}
	return f.r.Read(p)
}

func encodeCmd(fs *flag.FlagSet) func(*cli, []string) error {
	t := targetFlags(fs)
	return func(c *cli, args []string) error {
		if err := t.check(); err != nil {
			return err
		}
		text, err := c.oneInput(args)
		if err != nil {
			return err
		}
		if hf, err := t.loadTokenizer(c); hf != nil || err != nil {
			if err != nil {
				return err
			}
			return c.hfEncode(t, string(text))
		}
		req := t.fields()
		req["text"] = string(text)
		return c.print(c.do("encode", req, t.encodings()))
	}
}

func decodeCmd(fs *flag.FlagSet) func(*cli, []string) error {
	t := targetFlags(fs)
	whole := fs.Bool("json", false, "print the whole JSON answer")
	return func(c *cli, args []string) error {
		if err := t.check(); err != nil {
			return err
		}
		var ids []int
		if len(args) == 0 {
			b, err := readAll(c.stdin, "stdin", maxInput)
			if err != nil {
				return err
			}
			if err := json.Unmarshal(b, &ids); err != nil {
				args = strings.FieldsFunc(string(b), func(r rune) bool { return r == ',' || r == ' ' || r == '\n' || r == '\t' || r == '\r' })
			}
		}
		for _, a := range args {
			id, err := strconv.Atoi(a)
			if err != nil {
				return usagef("token ids are whole numbers, not %q", a)
			}
			ids = append(ids, id)
		}
		if hf, err := t.loadTokenizer(c); hf != nil || err != nil {
			if err != nil {
				return err
			}
			return c.hfDecode(t, ids, *whole)
		}
		req := t.fields()
		req["ids"] = ids
		out, err := c.do("decode", req, t.encodings())
		return c.printText(out, err, *whole)
	}
}

func truncateCmd(fs *flag.FlagSet) func(*cli, []string) error {
	t := targetFlags(fs)
	maxTokens := fs.Int("max-tokens", -1, "keep at most N tokens (required)")
	keep := fs.String("keep", "start", "which end to keep: start or end")
	whole := fs.Bool("json", false, "print the whole JSON answer")
	return func(c *cli, args []string) error {
		if err := t.check(); err != nil {
			return err
		}
		if *maxTokens < 0 {
			return usagef("--max-tokens N is required (N ≥ 0)")
		}
		text, err := c.oneInput(args)
		if err != nil {
			return err
		}
		if hf, err := t.loadTokenizer(c); hf != nil || err != nil {
			if err != nil {
				return err
			}
			return c.hfTruncate(t, string(text), *maxTokens, *keep, *whole)
		}
		req := t.fields()
		req["text"], req["maxTokens"], req["keep"] = string(text), *maxTokens, *keep
		out, err := c.do("truncate", req, t.encodings())
		return c.printText(out, err, *whole)
	}
}

func chunkCmd(fs *flag.FlagSet) func(*cli, []string) error {
	t := targetFlags(fs)
	maxTokens := fs.Int("max-tokens", 0, "at most N tokens a chunk (required)")
	overlap := fs.Int("overlap", 0, "each chunk after the first starts N tokens before the previous ended")
	jsonl := fs.Bool("jsonl", false, "write one chunk a line")
	return func(c *cli, args []string) error {
		if err := t.check(); err != nil {
			return err
		}
		if *maxTokens <= 0 {
			return usagef("--max-tokens N is required (N > 0)")
		}
		if t.tokenizer != "" {
			return usagef("chunk does not take --tokenizer yet (count, encode, decode and truncate do)")
		}
		text, err := c.oneInput(args)
		if err != nil {
			return err
		}
		req := t.fields()
		req["text"], req["maxTokens"], req["overlap"] = string(text), *maxTokens, *overlap
		out, err := c.do("chunk", req, t.encodings())
		if err != nil || !*jsonl {
			return c.print(out, err)
		}
		var a struct{ Chunks []json.RawMessage }
		if err := json.Unmarshal(out, &a); err != nil {
			return err
		}
		w := bufio.NewWriter(c.stdout)
		for _, ch := range a.Chunks {
			w.Write(ch)
			w.WriteByte('\n')
		}
		return w.Flush()
	}
}

// jsonCmd passes a JSON request (stdin or a file) to op.
func jsonCmd(op string) func(*flag.FlagSet) func(*cli, []string) error {
	return func(fs *flag.FlagSet) func(*cli, []string) error {
		tokenizer := fs.String("tokenizer", "", "load a tokenizer.json or table first, under its name, for the models whose rows name it (such as the npm package's gemini.tkh for Gemini)")
		return func(c *cli, args []string) error {
			req, err := c.oneInput(args)
			if err != nil {
				return err
			}
			if err := c.loadNamed(*tokenizer); err != nil {
				return err
			}
			return c.print(c.do(op, req, nil))
		}
	}
}

// callCmd runs any operation of core's JSON API by name, on a JSON request
// from a file or stdin, as the hosts' call does.
func callCmd(*flag.FlagSet) func(*cli, []string) error {
	return func(c *cli, args []string) error {
		if len(args) == 0 {
			return usagef("give the OPERATION (one of %s)", strings.Join(core.OperationNames(), ", "))
		}
		req, err := c.oneInput(args[1:])
		if err != nil {
			return err
		}
		return c.print(c.do(args[0], req, nil))
	}
}

func modelsCmd(fs *flag.FlagSet) func(*cli, []string) error {
	var req core.ModelsRequest
	fs.StringVar(&req.Provider, "provider", "", "only this provider's models (openai, anthropic, openrouter, …)")
	fs.StringVar(&req.Family, "family", "", "only models whose family or id starts with this (claude-sonnet, gpt-5)")
	fs.StringVar(&req.Kind, "kind", "", "only models of this kind: chat, embedding, image, speech, transcription, moderation, video, other")
	fs.IntVar(&req.MinWindow, "min-window", 0, "only models with a context window of at least this many tokens")
	whole := fs.Bool("json", false, "print the JSON answer")
	return func(c *cli, args []string) error {
		if len(args) > 1 {
			return usagef("give at most one MODEL")
		}
		if len(args) == 1 {
			req.Model = args[0]
		}
		out, err := c.do("models", req, nil)
		if err != nil || *whole {
			return c.print(out, err)
		}
		return c.printModels(out)
	}
}

// printModels writes a models answer as a table: a model a line, its
// window, output limit, prices (USD per million tokens: input, cached
// input, output) and how it counts; then the registry's sources.
func (c *cli) printModels(out []byte) error {
	var a struct {
		Model   *core.ModelInfo  `json:"model"`
		Models  []core.ModelInfo `json:"models"`
		Catalog *struct {
			Sources []struct{ Name, Version, Date string }
		} `json:"catalog"`
	}
	if err := json.Unmarshal(out, &a); err != nil {
		return err
	}
	if a.Model != nil {
		a.Models = []core.ModelInfo{*a.Model}
	}
	w := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	fmt.Fprintln(w, "MODEL\tPROVIDER\tWINDOW\tOUTPUT\tINPUT $/M\tCACHED $/M\tOUTPUT $/M\tCOUNTS WITH")
	usd := func(x float64) string { return strconv.FormatFloat(x, 'f', -1, 64) }
	for _, m := range a.Models {
		counts := m.Encoding
		if m.Estimator != "" {
			counts = "estimate:" + m.Estimator
		}
		if m.Kind != "" {
			counts += " (" + m.Kind + ")"
		}
		if m.Fallback {
			counts += " (fallback: " + m.ResolvedBy + ")"
		}
		in, cached, output := "-", "-", "-"
		if p := m.Price; p != nil {
			in, cached, output = usd(p.Input), usd(p.Input), usd(p.Output)
			if p.CachedInput > 0 {
				cached = usd(p.CachedInput)
			}
		}
		fmt.Fprintf(w, "%s\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", m.ID, m.Provider, m.ContextWindow, m.MaxOutput, in, cached, output, counts)
	}
	if err := w.Flush(); err != nil {
		return err
	}
	if a.Catalog != nil {
		var s []string
		for _, src := range a.Catalog.Sources {
			s = append(s, strings.TrimSpace(src.Name+" "+src.Version)+" ("+src.Date+")")
		}
		_, err := fmt.Fprintf(c.stdout, "%d models; from %s\n", len(a.Models), strings.Join(s, ", "))
		return err
	}
	return nil
}

func versionCmd(*flag.FlagSet) func(*cli, []string) error {
	return func(c *cli, args []string) error {
		return c.print(c.do("version", []byte(`{}`), []string{}))
	}
}

// printText writes the text of a decode or truncate answer as it is, or
// with whole the JSON answer.
func (c *cli) printText(out []byte, err error, whole bool) error {
	if err != nil || whole {
		return c.print(out, err)
	}
	var a struct {
		Text string `json:"text"`
	}
	if err := json.Unmarshal(out, &a); err != nil {
		return err
	}
	_, err = io.WriteString(c.stdout, a.Text)
	return err
}

// print writes a JSON answer and a newline.
func (c *cli) print(out []byte, err error) error {
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(c.stdout, "%s\n", out)
	return err
}
