// The oracle runs the official tiktoken (npm `tiktoken`) in a Node
// process so that tests can compare tokenfit's answers with the reference.
// It is used by tests only; see js/scripts/oracle.mjs.
package bpe

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
)

// Oracle is a running reference process. Its methods are safe for
// concurrent use; requests are answered in order.
type Oracle struct {
	mu   sync.Mutex
	cmd  *exec.Cmd
	in   *bufio.Writer
	out  *bufio.Reader
	pipe io.WriteCloser
}

// ErrUnavailable reports that Node or the js/ dependencies are missing.
var ErrUnavailable = errors.New("oracle: node or js/node_modules/tiktoken missing (run: cd js && npm ci)")

// Start launches the oracle. Call Close when done.
func Start() (*Oracle, error) {
	root, err := repoRoot()
	if err != nil {
		return nil, err
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return nil, ErrUnavailable
	}
	if _, err := os.Stat(filepath.Join(root, "js", "node_modules", "tiktoken")); err != nil {
		return nil, ErrUnavailable
	}
	cmd := exec.Command(node, filepath.Join(root, "js", "scripts", "oracle.mjs"))
	cmd.Stderr = os.Stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	return &Oracle{cmd: cmd, pipe: stdin, in: bufio.NewWriterSize(stdin, 1<<20), out: bufio.NewReaderSize(stdout, 1<<20)}, nil
}

type request struct {
	Encoding string `json:"encoding"`
	Text     string `json:"text"`
}

type answer struct {
	IDs   []int  `json:"ids"`
	Error string `json:"error"`
}

// Encode returns the official token ids of each text.
func (o *Oracle) Encode(encoding string, texts []string) ([][]int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	errc := make(chan error, 1)
	go func() {
		enc := json.NewEncoder(o.in)
		for _, t := range texts {
			if err := enc.Encode(request{encoding, t}); err != nil {
				errc <- err
				return
			}
		}
		errc <- o.in.Flush()
	}()
	ids := make([][]int, len(texts))
	for i := range texts {
		line, err := o.out.ReadBytes('\n')
		if err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		var a answer
		if err := json.Unmarshal(line, &a); err != nil {
			return nil, fmt.Errorf("oracle: %w", err)
		}
		if a.Error != "" {
			return nil, fmt.Errorf("oracle: %s", a.Error)
		}
		ids[i] = a.IDs
	}
	return ids, <-errc
}

// Close stops the process.
func (o *Oracle) Close() error {
	o.pipe.Close()
	return o.cmd.Wait()
}

// repoRoot finds the directory holding go.mod, from the working directory up.
func repoRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", errors.New("oracle: go.mod not found")
		}
		dir = parent
	}
}
