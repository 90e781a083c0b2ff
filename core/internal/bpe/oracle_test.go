package bpe

import (
	"errors"
	"os"
	"path/filepath"

	"github.com/tokenfit/tokenfit/internal/oracle"
)

// errUnavailable reports that Node or the js/ dependencies are missing.
var errUnavailable = errors.New("oracle: node or js/node_modules/tiktoken missing (run: cd js && npm ci)")

// startTiktoken runs the official tiktoken (npm `tiktoken`) in Node through
// js/scripts/oracle.mjs, so that tests can compare the engine's answers with
// the reference. Call Close when done.
func startTiktoken() (*oracle.Process, error) {
	root, err := oracle.RepoRoot()
	if err != nil {
		return nil, err
	}
	if _, err := os.Stat(filepath.Join(root, "js", "node_modules", "tiktoken")); err != nil {
		return nil, errUnavailable
	}
	return oracle.Start("encoding", filepath.Join(root, "js", "scripts", "oracle.mjs"))
}
