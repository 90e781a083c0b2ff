package core

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/tokenfit/tokenfit/internal/workload"
)

// The billed counts chat counting is measured against (testdata/billed):
// requests whose input tokens a provider billed, from documentation,
// providers' notebooks, libraries' recordings of live traffic
// (testdata/billed/README.md), and the peer coder/ai-tokenizer's
// published accuracy workload, rebuilt by internal/workload.

// billedEntry is one request of testdata/billed/{anthropic,gemini,openai}.json.
type billedEntry struct {
	ID      string          `json:"id"`
	Model   string          `json:"model"`
	Request json.RawMessage `json:"request"`
	Billed  int             `json:"billed"`
	Source  string          `json:"source"`
	Kind    string          `json:"kind"`
	Notes   string          `json:"notes"`
}

// loadBilled reads one provider's file of billed requests.
func loadBilled(t testing.TB, provider string) []billedEntry {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "billed", provider+".json"))
	if err != nil {
		t.Fatal(err)
	}
	var es []billedEntry
	if err := json.Unmarshal(b, &es); err != nil {
		t.Fatalf("testdata/billed/%s.json: %v", provider, err)
	}
	return es
}

// body is the entry's request with its billed model as "model" (the
// recordings name the model in the URL for Gemini, or as an alias).
func (e billedEntry) body(t testing.TB) []byte {
	t.Helper()
	var req map[string]json.RawMessage
	if err := json.Unmarshal(e.Request, &req); err != nil {
		t.Fatalf("%s: %v", e.ID, err)
	}
	req["model"], _ = json.Marshal(e.Model)
	b, err := json.Marshal(req)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// peerRow is one row of testdata/billed/ai-tokenizer.json.
type peerRow struct {
	PeerModel     string         `json:"peerModel"`
	Size          string         `json:"size"`
	Billed        int            `json:"billed"`
	PeerPredicted int            `json:"peerPredicted"`
	ToolCalls     bool           `json:"toolCalls"`
	Seeds         []workloadSeed `json:"seeds"`
}

// workloadSeed is one conversation internal/workload rebuilds for a row:
// the peer's counter counts it to the row's prediction, as it did the
// conversation billed.
type workloadSeed struct {
	Seed     uint64 `json:"seed"`
	Messages int    `json:"messages"`
}

func loadPeerRows(t testing.TB) []peerRow {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "testdata", "billed", "ai-tokenizer.json"))
	if err != nil {
		t.Fatal(err)
	}
	var f struct{ Rows []peerRow }
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	return f.Rows
}

// peerModels are the models the peer's gateway names stand for, where the
// tokenfit id differs by more than the provider prefix.
var peerModels = map[string]string{
	"openai/gpt-5.1-instant":               "gpt-5.1-chat-latest",
	"openai/gpt-5.1-thinking":              "gpt-5.1",
	"anthropic/claude-3-haiku":             "claude-3-haiku-20240307",
	"anthropic/claude-3-opus":              "claude-3-opus-20240229",
	"anthropic/claude-3.5-haiku":           "claude-3-5-haiku-20241022",
	"anthropic/claude-3.5-sonnet":          "claude-3-5-sonnet-20241022",
	"anthropic/claude-3.5-sonnet-20240620": "claude-3-5-sonnet-20240620",
	"anthropic/claude-3.7-sonnet":          "claude-3-7-sonnet-20250219",
	"anthropic/claude-opus-4":              "claude-opus-4-0",
	"anthropic/claude-sonnet-4":            "claude-sonnet-4-0",
}

// model is the tokenfit model id of the row's gateway name
// ("anthropic/claude-sonnet-4.5" → "claude-sonnet-4-5").
func (r peerRow) model() string {
	if m, ok := peerModels[r.PeerModel]; ok {
		return m
	}
	provider, id, _ := strings.Cut(r.PeerModel, "/")
	if provider == "anthropic" {
		id = strings.ReplaceAll(id, ".", "-")
	}
	return id
}

// requests rebuilds the row's conversations, one per seed, as the AI SDK
// requests the peer sent.
func (r peerRow) requests() [][]byte {
	reqs := make([][]byte, len(r.Seeds))
	for i, s := range r.Seeds {
		reqs[i] = workload.Request(r.model(), workload.Conversation(s.Seed, r.ToolCalls, s.Messages))
	}
	return reqs
}

// count is countChat's answer for the row: each rebuilt conversation differs
// from the one billed in its random choices (by 0.1–0.3 % of a count at
// ~5k and ~50k tokens), so Total is the mean of their totals, rounded, and
// UpperBound the least of their bounds; the rest is the first one's answer.
// totals are each conversation's.
func (r peerRow) count(t testing.TB, a *API) (c ChatAnswer, totals []int) {
	t.Helper()
	var first ChatAnswer
	sum := 0
	for i, req := range r.requests() {
		var c ChatAnswer
		if out := a.Call("countChat", req); json.Unmarshal(out, &c) != nil || c.Encoding == "" {
			t.Fatalf("%s %s: countChat: %.300s", r.PeerModel, r.Size, out)
		}
		sum += c.Total
		totals = append(totals, c.Total)
		if i == 0 {
			first = c
		}
		first.UpperBound = min(first.UpperBound, c.UpperBound)
	}
	first.Total = int(math.Round(float64(sum) / float64(len(r.Seeds))))
	return first, totals
}

// accuracy is the peer's measure: 1 − |counted − billed| / billed.
func accuracy(counted, billed int) float64 {
	d := counted - billed
	if d < 0 {
		d = -d
	}
	return 1 - float64(d)/float64(billed)
}

// TestBilled_Files: every file of billed counts reads, and every entry
// names its model, its source and a positive count (peer rows: a seed).
func TestBilled_Files(t *testing.T) {
	for _, p := range []string{"anthropic", "gemini", "openai"} {
		for _, e := range loadBilled(t, p) {
			if e.ID == "" || e.Model == "" || e.Source == "" || e.Billed < 0 || len(e.Request) == 0 {
				t.Errorf("%s.json: incomplete entry %q", p, e.ID)
			}
		}
	}
	rows := loadPeerRows(t)
	if len(rows) < 100 {
		t.Fatalf("%d peer rows", len(rows))
	}
	for _, r := range rows {
		if len(r.Seeds) < 6 || r.Billed <= 0 {
			t.Errorf("peer row %s %s: %+v", r.PeerModel, r.Size, r)
		}
		for _, s := range r.Seeds {
			if s.Seed == 0 || s.Messages < 2 {
				t.Errorf("peer row %s %s: seed %+v", r.PeerModel, r.Size, s)
			}
		}
	}
}
