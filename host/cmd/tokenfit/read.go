package main

import (
	"fmt"
	"io"
	"os"
)

// Limits on what tokenfit reads, so that a mistaken redirection (from
// /dev/zero, a disk image) fails at once with a message rather than after
// gigabytes.
const (
	// maxInput bounds one input, stdin or a file: the module's largest
	// buffer (wasm/ABI.md), and the same natively so that both runtimes
	// answer alike.
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
