package core

import (
	"encoding/json"
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
	PeerModel     string `json:"peerModel"`
	Size          string `json:"size"`
	Billed        int    `json:"billed"`
	PeerPredicted int    `json:"peerPredicted"`
	Seed          uint64 `json:"seed"`
	Messages      int    `json:"messages"`
	ToolCalls     bool   `json:"toolCalls"`
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
	"openai/gpt-5.1-instant":  "gpt-5.1-chat-latest",
	"openai/gpt-5.1-thinking": "gpt-5.1",
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

// request rebuilds the row's conversation as the AI SDK request the peer
// sent.
func (r peerRow) request() []byte {
	return workload.Request(r.model(), workload.Conversation(r.Seed, r.ToolCalls, r.Messages))
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
		if r.Seed == 0 || r.Messages < 2 || r.Billed <= 0 {
			t.Errorf("peer row %s %s: %+v", r.PeerModel, r.Size, r)
		}
	}
}
