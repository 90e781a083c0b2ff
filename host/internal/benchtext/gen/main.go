// Command gen writes benchtext's mixed text and message to files, for the
// benchmarks outside Go (js/scripts/bench-wasm.mjs):
//
//	go run ./host/internal/benchtext/gen -size 1048576 -dir build/bench
package main

import (
	"flag"
	"log"
	"os"
	"path/filepath"

	"github.com/tokenfit/tokenfit/host/internal/benchtext"
)

func main() {
	size := flag.Int("size", 1<<20, "bytes of mixed text")
	dir := flag.String("dir", "build/bench", "output directory")
	flag.Parse()
	if err := os.MkdirAll(*dir, 0o755); err != nil {
		log.Fatal(err)
	}
	for name, text := range map[string]string{"mixed.txt": benchtext.Mixed(*size), "message.txt": benchtext.Message()} {
		if err := os.WriteFile(filepath.Join(*dir, name), []byte(text), 0o644); err != nil {
			log.Fatal(err)
		}
	}
}
