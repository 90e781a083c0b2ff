package core

import (
	"encoding/json"
	"fmt"
	"os"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/core/internal/chat"
)

// TestBenchAccuracy prints how close countChat comes to what providers
// billed, on every billed count tokenfit has (testdata/billed): the peer
// coder/ai-tokenizer's workload, row by row beside the peer's own published
// accuracy, then a table per family of rules — worst and median accuracy
// and whether upperBound held — for each source. It runs only with
// TOKENFIT_BENCH=1 (make bench-accuracy, which writes it to
// build/bench/bench-accuracy.txt); Gemini rows count with Gemma 3 loaded
// when make hf-deps has installed it.
func TestBenchAccuracy(t *testing.T) {
	if os.Getenv("TOKENFIT_BENCH") == "" {
		t.Skip("set TOKENFIT_BENCH=1 (make bench-accuracy)")
	}
	a := NewAPI()
	if tok, err := gemma3(); err == nil {
		reg, err := a.Registry().WithTokenizer(tok)
		if err != nil {
			t.Fatal(err)
		}
		a = &API{reg: reg}
	} else {
		fmt.Printf("Gemma 3's tokenizer is not installed (make hf-deps): Gemini rows count with the estimate\n\n")
	}
	fams := map[string]*accFamily{}
	fam := func(name, source string) *accFamily {
		k := name + "\x00" + source
		if fams[k] == nil {
			fams[k] = &accFamily{name: name, source: source}
		}
		return fams[k]
	}

	fmt.Println("The peer's workload (coder/ai-tokenizer's accuracy.json, rebuilt by internal/workload): accuracy = 1 - |count - billed| / billed.")
	fmt.Println("Each row is rebuilt as several conversations the peer's counter counts as it counted the one billed; tokenfit's count is their mean,")
	fmt.Println("the range its accuracy on each, and upperBound must hold on every one.")
	fmt.Println()
	fmt.Println("| model | size | billed | tokenfit | range | upperBound >= billed | ai-tokenizer |")
	fmt.Println("|---|---|---:|---:|---|---|---:|")
	for _, r := range loadPeerRows(t) {
		provider, _, _ := strings.Cut(r.PeerModel, "/")
		if provider != "openai" && provider != "anthropic" && provider != "google" || strings.Contains(r.PeerModel, "gpt-oss") {
			continue // gpt-oss is open-weight: billed by other hosts, with their own templates
		}
		c, totals := r.count(t, a)
		acc := accuracy(c.Total, r.Billed)
		held := c.UpperBound >= r.Billed
		lo, hi := 1.0, 0.0
		for _, n := range totals {
			lo, hi = min(lo, accuracy(n, r.Billed)), max(hi, accuracy(n, r.Billed))
		}
		fmt.Printf("| %s | %s | %d | %.2f %% | %.2f–%.2f | %s | %.2f %% |\n", r.PeerModel, r.Size, r.Billed, 100*acc, 100*lo, 100*hi, yesNo(held), 100*accuracy(r.PeerPredicted, r.Billed))
		fam(rulesFamily(c), "the peer's workload").add(acc, held)
	}
	set := map[string]int{}
	for _, p := range []string{"anthropic", "gemini", "openai"} {
		for _, e := range loadBilled(t, p) {
			if hasAnyPrefix(e.ID, anthropicEarlier) || openaiExclusion(e.ID) != "" {
				set[p]++ // billed under an earlier prompt, or not a measure (the tests say why)
				continue
			}
			var c ChatAnswer
			if err := jsonUnmarshalAnswer(a.Call("countChat", e.body(t)), &c); err != nil {
				continue // a request tokenfit refuses: counted in neither table
			}
			if e.Billed <= 0 {
				continue
			}
			fam(rulesFamily(c), "recorded requests ("+p+".json)").add(accuracy(c.Total, e.Billed), c.UpperBound >= e.Billed)
		}
	}

	fmt.Println()
	fmt.Printf("Per family of rules (set aside, as the tests say why: %d Anthropic requests billed under an earlier tool prompt, %d OpenAI requests of the Responses API's first weeks, without usage or in pro mode):\n", set["anthropic"], set["openai"])
	fmt.Println()
	fmt.Println("| family | billed counts | n | worst | median | upperBound held |")
	fmt.Println("|---|---|---:|---:|---:|---|")
	list := make([]*accFamily, 0, len(fams))
	for _, f := range fams {
		list = append(list, f)
	}
	sort.Slice(list, func(i, j int) bool {
		if list[i].name != list[j].name {
			return list[i].name < list[j].name
		}
		return list[i].source > list[j].source
	})
	for _, f := range list {
		slices.Sort(f.acc)
		fmt.Printf("| %s | %s | %d | %.1f %% | %.1f %% | %d of %d |\n", f.name, f.source, len(f.acc), 100*f.acc[0], 100*f.acc[len(f.acc)/2], f.held, len(f.acc))
	}
}

type accFamily struct {
	name, source string
	acc          []float64
	held         int
}

func (f *accFamily) add(acc float64, held bool) {
	f.acc = append(f.acc, acc)
	if held {
		f.held++
	}
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "**no**"
}

// rulesFamily names the family of rules an answer was counted by, for the
// tables: Claude and Gemini by tokenizer, OpenAI by the families that
// share their framing (either API).
func rulesFamily(c ChatAnswer) string {
	switch {
	case c.Rules == "anthropic":
		switch c.Encoding {
		case "estimate:claude":
			return "Claude 3 to 4.6"
		case "estimate:claude-2026":
			return "Claude Opus 4.7"
		}
		return "Claude Opus 4.8 and 5"
	case chat.IsGeminiFamily(c.Rules):
		if strings.HasPrefix(c.Encoding, "estimate:") {
			return "Gemini, estimated"
		}
		return "Gemini, Gemma 3 loaded"
	}
	f := strings.TrimSuffix(c.Rules, "/responses")
	switch {
	case f == "o1" || f == "o1-mini" || f == "o3-mini":
		return "OpenAI o1, o3-mini"
	case f == "o3" || f == "o4-mini" || strings.HasPrefix(f, "gpt-5") && f != "gpt-5-chat":
		return "OpenAI gpt-5.x, o3, o4-mini"
	case f == "default":
		return "OpenAI, an unknown model"
	}
	return "OpenAI gpt-4o, gpt-4.1, gpt-5-chat, earlier"
}

func jsonUnmarshalAnswer(b []byte, c *ChatAnswer) error {
	if strings.HasPrefix(string(b), `{"error"`) {
		return fmt.Errorf("%s", b)
	}
	return json.Unmarshal(b, c)
}
