package main

import (
	"fmt"
	"io"
	"os"

	"github.com/tokenfit/tokenfit/core"
)

// Limits on what tokenfit reads, so that a mistaken redirection (from
// /dev/zero, a disk image) fails at once with a message rather than after
// gigabytes.
const (
	// maxInput bounds one input, stdin or a file: the module's largest
	// buffer (wasm/ABI.md), and the same natively so that both runtimes
	// answer alike. A count with an exact encoding reads its input as a
	// stream instead (backend.countReader).
	maxInput = 1 << 30
	// maxConfig bounds the config file, a few lines of JSON.
	maxConfig = 1 << 20
)

// readAll reads r, named name in messages, refusing more than limit bytes.
func readAll(r io.Reader, name string, limit int64) ([]byte, error) {
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fmt.Errorf("%s: more than %s, the most tokenfit reads from it", name, bytesString(limit))
	}
	return b, nil
}

// countStream counts r with e as it is read, holding a megabyte or so plus
// the longest stretch with no place to split (engine.StreamCounter); a
// stretch of more than maxInput bytes is refused.
func countStream(r io.Reader, e *core.Encoding) (int, error) {
	s := e.NewStreamCounter()
	buf := make([]byte, 256<<10)
	for {
		n, err := r.Read(buf)
		s.Write(buf[:n])
		if s.Held() > maxInput {
			return 0, fmt.Errorf("more than %s with no place to split it between tokens (one run of whitespace, of letters or of symbols), the most tokenfit holds at once", bytesString(maxInput))
		}
		if err == io.EOF {
			return s.Count(), nil
		}
		if err != nil {
			return 0, err
		}
	}
}

// readFile reads the file at path, refusing more than limit bytes.
func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readAll(f, path, limit)
}

// bytesString writes a limit for a message: "1 GiB (1073741824 bytes)".
func bytesString(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB (%d bytes)", n>>30, n)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB (%d bytes)", n>>20, n)
	}
	return fmt.Sprintf("%d bytes", n)
}
