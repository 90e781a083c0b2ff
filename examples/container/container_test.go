// Package container holds the Dockerfile of a container running `tokenfit
// serve`, and its test. Docker itself cannot run here (no image can be
// pulled), so the test does what the Dockerfile says without it: the build
// stage's RUN steps in a copy of the build context, then the final image's
// entrypoint on the binary they built.
package container

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"
)

// dockerfile is the part of the Dockerfile the test follows.
type dockerfile struct {
	goImage    string   // the build stage's golang tag's Go version
	runs       []string // the build stage's RUN commands, in order
	binary     string   // what the final stage copies from the build stage
	entrypoint []string
}

func parse(t *testing.T) dockerfile {
	t.Helper()
	f, err := os.Open("Dockerfile")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var d dockerfile
	from := regexp.MustCompile(`^FROM golang:(\d+\.\d+)\S* AS build$`)
	copyFrom := regexp.MustCompile(`^COPY --from=build /src/(\S+) \S+$`)
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		switch {
		case from.MatchString(line):
			d.goImage = from.FindStringSubmatch(line)[1]
		case strings.HasPrefix(line, "RUN "):
			d.runs = append(d.runs, strings.TrimPrefix(line, "RUN "))
		case copyFrom.MatchString(line):
			d.binary = copyFrom.FindStringSubmatch(line)[1]
		case strings.HasPrefix(line, "ENTRYPOINT "):
			if err := json.Unmarshal([]byte(strings.TrimPrefix(line, "ENTRYPOINT ")), &d.entrypoint); err != nil {
				t.Fatalf("ENTRYPOINT: %v", err)
			}
		}
	}
	if d.goImage == "" || len(d.runs) == 0 || d.binary == "" || len(d.entrypoint) < 2 {
		t.Fatalf("Dockerfile: not the shape this test follows: %+v", d)
	}
	return d
}

// TestContainer_BuildAndServe: the image's Go is the go.mod's, its build
// steps build the binary from a copy of the build context (what
// Dockerfile.dockerignore leaves), and its entrypoint serves /healthz.
func TestContainer_BuildAndServe(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the module and the CLI")
	}
	d := parse(t)
	mod, err := os.ReadFile("../../go.mod")
	if err != nil {
		t.Fatal(err)
	}
	if m := regexp.MustCompile(`(?m)^go (\d+\.\d+)`).FindSubmatch(mod); m == nil || string(m[1]) != d.goImage {
		t.Errorf("the image's Go is %s, go.mod's %s", d.goImage, m)
	}

	src := filepath.Join(t.TempDir(), "src")
	copyContext(t, "../..", src, ignored(t))
	for _, run := range d.runs {
		t0 := time.Now()
		cmd := exec.Command("sh", "-c", run)
		cmd.Dir = src
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("RUN %s: %v\n%s", run, err, out)
		}
		t.Logf("RUN %s: %.1f s", run, time.Since(t0).Seconds())
	}
	bin := filepath.Join(src, d.binary)
	if _, err := os.Stat(bin); err != nil {
		t.Fatalf("COPY --from=build /src/%s: %v", d.binary, err)
	}

	// The entrypoint, on a free loopback port instead of 0.0.0.0:8787.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	ln.Close()
	args := append([]string(nil), d.entrypoint[1:]...)
	for i, a := range args {
		if a == "0.0.0.0:8787" {
			args[i] = addr
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	server := exec.CommandContext(ctx, bin, args...)
	server.Stderr = io.Discard
	if err := server.Start(); err != nil {
		t.Fatal(err)
	}
	defer func() {
		cancel()
		server.Wait()
	}()
	var body string
	for deadline := time.Now().Add(30 * time.Second); time.Now().Before(deadline); time.Sleep(100 * time.Millisecond) {
		res, err := http.Get("http://" + addr + "/healthz")
		if err != nil {
			continue
		}
		b, _ := io.ReadAll(res.Body)
		res.Body.Close()
		body = fmt.Sprintf("%d %s", res.StatusCode, b)
		break
	}
	if !strings.HasPrefix(body, `200 {"status":"ok"`) {
		t.Fatalf("GET /healthz: %q", body)
	}
}

// ignored reads Dockerfile.dockerignore: paths, and **/name for a name at
// any depth.
func ignored(t *testing.T) func(rel string) bool {
	t.Helper()
	b, err := os.ReadFile("Dockerfile.dockerignore")
	if err != nil {
		t.Fatal(err)
	}
	var paths, names []string
	for _, line := range strings.Split(string(b), "\n") {
		line = strings.TrimSpace(line)
		switch {
		case line == "" || strings.HasPrefix(line, "#"):
		case strings.HasPrefix(line, "**/"):
			names = append(names, strings.TrimPrefix(line, "**/"))
		default:
			paths = append(paths, line)
		}
	}
	return func(rel string) bool {
		for _, p := range paths {
			if rel == p {
				return true
			}
		}
		for _, n := range names {
			if filepath.Base(rel) == n {
				return true
			}
		}
		return false
	}
}

// copyContext copies the build context from to dst, as COPY . . would.
func copyContext(t *testing.T, from, dst string, skip func(string) bool) {
	t.Helper()
	err := filepath.WalkDir(from, func(path string, e fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(from, path)
		if rel != "." && skip(filepath.ToSlash(rel)) {
			if e.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		target := filepath.Join(dst, rel)
		switch {
		case e.IsDir():
			return os.MkdirAll(target, 0o755)
		case e.Type().IsRegular():
			b, err := os.ReadFile(path)
			if err != nil {
				return err
			}
			info, err := e.Info()
			if err != nil {
				return err
			}
			return os.WriteFile(target, b, info.Mode().Perm())
		}
		return nil // a symlink or a socket: not part of a build context here
	})
	if err != nil {
		t.Fatal(err)
	}
}
