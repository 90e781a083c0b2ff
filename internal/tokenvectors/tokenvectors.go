// Package tokenvectors reads testdata/vectors/tokens.json, the token counts
// (and ids) of the official tiktoken that every host's tests check, with
// each case's text resolved: given inline, read from a file under testdata,
// or repeated from a unit. It knows nothing of core, so that any test
// package can use it. Regenerate the vectors with `make vectors`.
package tokenvectors

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
)

// Case is one text and tiktoken's answers for it, by encoding.
type Case struct {
	Name string `json:"name"`
	// Text is the text, whichever way the file gives it.
	Text string `json:"text"`
	// File, when set, is the path under testdata the text was read from.
	File   string `json:"file"`
	Repeat *struct {
		Unit  string `json:"unit"`
		Times int    `json:"times"`
	} `json:"repeat"`
	Counts map[string]int   `json:"counts"`
	IDs    map[string][]int `json:"ids"`
}

// Load reads the cases from testdata, the path of the repository's
// testdata directory.
func Load(testdata string) ([]Case, error) {
	b, err := os.ReadFile(filepath.Join(testdata, "vectors", "tokens.json"))
	if err != nil {
		return nil, err
	}
	var f struct{ Cases []Case }
	if err := json.Unmarshal(b, &f); err != nil {
		return nil, err
	}
	for i, c := range f.Cases {
		switch {
		case c.File != "":
			b, err := os.ReadFile(filepath.Join(testdata, c.File))
			if err != nil {
				return nil, err
			}
			f.Cases[i].Text = string(b)
		case c.Repeat != nil:
			f.Cases[i].Text = strings.Repeat(c.Repeat.Unit, c.Repeat.Times)
		}
	}
	return f.Cases, nil
}
