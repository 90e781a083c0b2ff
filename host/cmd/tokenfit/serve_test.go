package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host/httpapi"
)

// server is a tokenfit serve on a loopback port, as serveCmd runs it.
type server struct {
	url, addr string
	stop      func() error // cancels the context, as SIGTERM does; serve's error
}

func startServe(t *testing.T, runtime string, o serveOptions) *server {
	t.Helper()
	return startServeLog(t, runtime, o, io.Discard)
}

// startServeLog is startServe with its log written to w.
func startServeLog(t *testing.T, runtime string, o serveOptions, w io.Writer) *server {
	t.Helper()
	c := &cli{ctx: context.Background(), runtime: runtime}
	call, closeCall, err := c.caller(false)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- o.serve(ctx, ln, call, slog.New(slog.NewJSONHandler(w, nil))) }()
	var once sync.Once
	var serr error
	stop := func() error {
		once.Do(func() { cancel(); serr = <-done; closeCall() })
		return serr
	}
	t.Cleanup(func() { stop() })
	return &server{url: "http://" + ln.Addr().String(), addr: ln.Addr().String(), stop: stop}
}

// testOptions are serve's defaults, with timeouts and a body limit small
// enough for the hostile cases to reach them quickly.
func testOptions() serveOptions {
	return serveOptions{maxBody: 1 << 20, readHeader: 300 * time.Millisecond, read: 500 * time.Millisecond,
		write: 10 * time.Second, idle: 10 * time.Second, drain: 5 * time.Second, maxInFlight: httpapi.DefaultMaxInFlight}
}

// post sends a JSON body and returns the status and body.
func post(t *testing.T, client *http.Client, url, body string) (int, []byte) {
	t.Helper()
	resp, err := client.Post(url, "application/json", strings.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, b
}

// errorCode returns the code of an {"error": …} answer, "" for another.
func errorCode(b []byte) string {
	var a core.ErrorAnswer
	if json.Unmarshal(b, &a) != nil {
		return ""
	}
	return a.Error.Code
}

// TestServe_Hostile sends what a hostile or broken client would: each case
// gets its defined status, and the server answers normally afterwards.
func TestServe_Hostile(t *testing.T) {
	for _, rt := range runtimes(t) {
		t.Run(rt, func(t *testing.T) {
			s := startServe(t, rt, testOptions())
			client := &http.Client{Timeout: 10 * time.Second}
			for _, tc := range hostileHTTP(t) {
				body := tc.Body
				if tc.TextBytes > 0 {
					body = `{"text": "` + strings.Repeat("a", tc.TextBytes) + `"}`
				}
				req, err := http.NewRequest(tc.Method, s.url+tc.Path, strings.NewReader(body))
				if err != nil {
					t.Fatal(err)
				}
				if tc.ContentType != "" {
					req.Header.Set("Content-Type", tc.ContentType)
				}
				resp, err := client.Do(req)
				if err != nil {
					t.Fatalf("%s: %v", tc.Name, err)
				}
				b, _ := io.ReadAll(resp.Body)
				resp.Body.Close()
				if resp.StatusCode != tc.Status || errorCode(b) != tc.Code || resp.Header.Get("Allow") != tc.Allow {
					t.Errorf("%s: %d %s (Allow %q), want %d %s (Allow %q)", tc.Name, resp.StatusCode, b, resp.Header.Get("Allow"), tc.Status, tc.Code, tc.Allow)
				}
				if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
					t.Errorf("%s: Content-Type %q", tc.Name, ct)
				}
			}
			t.Run("100 MB declared", func(t *testing.T) { hugeBody(t, s, true) })
			t.Run("100 MB chunked", func(t *testing.T) { hugeBody(t, s, false) })
			t.Run("slow body", func(t *testing.T) { slowBody(t, s) })
			t.Run("slow headers", func(t *testing.T) { slowHeaders(t, s) })
			// Still serving.
			if st, b := post(t, client, s.url+"/v1/countTokens", `{"text": "Hello world"}`); st != 200 || !bytes.Contains(b, []byte(`"tokens":2`)) {
				t.Fatalf("after the hostile cases: %d %s", st, b)
			}
		})
	}
}

// hostileCase is one request of testdata/http/hostile.json, which the npm
// package's edge handler is held to as well (js/test/edge.test.mjs): the
// request (a body of {"text": TextBytes × "a"} when TextBytes is set,
// against a 1 MiB limit) and the status, error code and Allow header due.
type hostileCase struct {
	Name, Method, Path, ContentType, Body string
	TextBytes                             int
	Status                                int
	Code, Allow                           string
}

func hostileHTTP(t *testing.T) []hostileCase { return httpVectors[hostileCase](t, "hostile.json") }

// httpVectors reads one of testdata/http's files of cases.
func httpVectors[C any](t *testing.T, name string) []C {
	b, err := os.ReadFile("../../../testdata/http/" + name)
	if err != nil {
		t.Fatal(err)
	}
	var cases []C
	if err := json.Unmarshal(b, &cases); err != nil {
		t.Fatal(err)
	}
	return cases
}

// hugeBody sends 100 MB at the server (with a Content-Length, or chunked)
// and expects 413 before it has sent even a tenth of it.
func hugeBody(t *testing.T, s *server, declared bool) {
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	const size = 100 << 20
	head := "POST /v1/countTokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
	if declared {
		head += fmt.Sprintf("Content-Length: %d\r\n\r\n", size)
	} else {
		head += "Transfer-Encoding: chunked\r\n\r\n"
	}
	if _, err := io.WriteString(conn, head); err != nil {
		t.Fatal(err)
	}
	var sent atomic.Int64
	go func() {
		chunk := bytes.Repeat([]byte("a"), 64<<10)
		frame := chunk
		if !declared {
			frame = append([]byte(fmt.Sprintf("%x\r\n", len(chunk))), append(chunk, "\r\n"...)...)
		}
		for sent.Load() < size {
			if _, err := conn.Write(frame); err != nil {
				return
			}
			sent.Add(int64(len(chunk)))
		}
	}()
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 413 || errorCode(b) != "payload_too_large" {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	if n := sent.Load(); n > size/10 {
		t.Fatalf("the server read %d bytes before refusing", n)
	}
}

// slowBody sends the headers and then part of the body, slower than
// --read-timeout allows: 408, and the connection closes.
func slowBody(t *testing.T, s *server) {
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /v1/countTokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{\"te")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 408 || errorCode(b) != "request_timeout" {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
}

// slowHeaders never finishes its headers: the server closes the connection
// after --read-header-timeout.
func slowHeaders(t *testing.T, s *server) {
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	io.WriteString(conn, "POST /v1/countTokens HTTP/1.1\r\nHost: x\r\n")
	conn.SetReadDeadline(time.Now().Add(10 * time.Second))
	b, err := io.ReadAll(conn)
	if err != nil {
		t.Fatalf("the connection stayed open: %v", err)
	}
	if len(b) > 0 && !bytes.HasPrefix(b, []byte("HTTP/1.1 408")) {
		t.Fatalf("answer %q", b)
	}
}

// TestServe_Shutdown: the request under way when the server is told to stop
// (SIGTERM) is answered, and serve then returns cleanly.
func TestServe_Shutdown(t *testing.T) {
	o := testOptions()
	o.read = 10 * time.Second
	s := startServe(t, "native", o)
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	body := `{"text": "Hello world"}`
	fmt.Fprintf(conn, "POST /v1/countTokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body[:5])
	time.Sleep(100 * time.Millisecond) // the request is being read
	stopped := make(chan error, 1)
	go func() { stopped <- s.stop() }()
	time.Sleep(100 * time.Millisecond)
	io.WriteString(conn, body[5:])
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 || string(b) != `{"tokens":2,"upperBound":2,"encoding":"o200k_base","exact":true}` {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
	if err := <-stopped; err != nil {
		t.Fatal(err)
	}
}

// loadRequests are the mixed requests of the load tests: every routed
// operation, answers and errors, each with the answer core gives in this
// process (the reference every HTTP answer is checked against).
func loadRequests(t testing.TB) []loadRequest {
	api := core.NewAPI()
	var reqs []loadRequest
	add := func(op, body string) {
		out, err := api.Do(op, []byte(body))
		r := loadRequest{op: op, body: body, status: 200, answer: out}
		if err != nil {
			r.status = httpapi.Status(core.Code(err))
			r.answer = core.ErrorJSON(err)
		}
		reqs = append(reqs, r)
	}
	texts := []string{"Hello world", "", "日本語のテキストです。", strings.Repeat("token ", 40), "emoji 👩‍👩‍👧 and\r\n  spaces\t"}
	for i, text := range texts {
		q, _ := json.Marshal(text)
		add("countTokens", `{"text": `+string(q)+`}`)
		add("countTokens", `{"text": `+string(q)+`, "model": "gpt-4"}`)
		add("encode", `{"text": `+string(q)+`, "encoding": "cl100k_base"}`)
		add("truncate", fmt.Sprintf(`{"text": %s, "maxTokens": %d}`, q, i+1))
		add("chunk", fmt.Sprintf(`{"text": %s, "maxTokens": %d}`, q, 3+i))
		add("withinLimit", fmt.Sprintf(`{"text": %s, "limit": %d}`, q, 2*i))
		add("countChat", `{"model": "gpt-4o", "messages": [{"role": "system", "content": "Be brief."}, {"role": "user", "content": `+string(q)+`}]}`)
	}
	add("decode", `{"ids": [9906, 1917], "encoding": "cl100k_base"}`)
	add("calculateBudget", `{"model": "gpt-4o", "systemPrompt": "You are helpful.", "messages": [{"role": "user", "content": "Hi"}], "maxOutputTokens": 1000}`)
	add("planInjection", `{"model": "gpt-4o", "tokenBudget": 50, "candidates": [{"id": "a", "text": "alpha beta", "priority": 1}, {"id": "b", "text": "`+strings.Repeat("gamma ", 100)+`", "priority": 2}]}`)
	add("calibrate", `{"model": "gpt-4o", "estimated": 100, "actual": 110}`)
	add("models", `{"model": "gpt-4o"}`)
	add("encodings", `{}`)
	add("version", ``)
	add("countTokens", `{"text": 1}`)
	add("countTokens", `{"text": "a", "encoding": "nope"}`)
	add("countChat", `{"messages": "no"}`)
	add("countTokens", `{"text": "a"`)
	for _, r := range reqs {
		if r.status == 500 {
			t.Fatalf("%s %s: internal error %s", r.op, r.body, r.answer)
		}
	}
	return reqs
}

type loadRequest struct {
	op, body string
	status   int
	answer   []byte
}

// TestServe_Load: 16 clients send 20,000 mixed requests between them over
// kept-alive connections, and every answer is core's, byte for byte.
func TestServe_Load(t *testing.T) {
	const clients, total = 16, 20000
	if testing.Short() {
		t.Skip("20,000 requests")
	}
	// testOptions' sub-second read timeouts exist for the slow-client
	// cases; on a loaded machine a kept-alive request can wait longer than
	// that for the scheduler, and the server then closes its connection
	// (an EOF here, seen at load average 25). The load is judged on its
	// answers, so it gets the CLI's default timeouts.
	o := testOptions()
	o.readHeader, o.read = 5*time.Second, 30*time.Second
	s := startServe(t, "native", o)
	reqs := loadRequests(t)
	errs := load(t, s.url, reqs, clients, total)
	if errs != 0 {
		t.Fatalf("%d of %d answers were wrong", errs, total)
	}
}

// load sends total requests from clients goroutines, cycling through reqs,
// and returns how many answers were not the reference's.
func load(t *testing.T, url string, reqs []loadRequest, clients, total int) int {
	transport := &http.Transport{MaxIdleConnsPerHost: clients}
	defer transport.CloseIdleConnections()
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}
	var next, errs atomic.Int64
	var wg sync.WaitGroup
	for range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for {
				i := int(next.Add(1)) - 1
				if i >= total {
					return
				}
				r := reqs[i%len(reqs)]
				resp, err := client.Post(url+"/v1/"+r.op, "application/json", strings.NewReader(r.body))
				if err != nil {
					if errs.Add(1) < 5 {
						t.Error(err)
					}
					continue
				}
				b, err := io.ReadAll(resp.Body)
				resp.Body.Close()
				if err != nil || resp.StatusCode != r.status || !bytes.Equal(b, r.answer) {
					if errs.Add(1) < 5 {
						t.Errorf("%s %s: %d %s, want %d %s (%v)", r.op, r.body, resp.StatusCode, b, r.status, r.answer, err)
					}
				}
			}
		}()
	}
	wg.Wait()
	return int(errs.Load())
}

// TestServe_README runs the README's examples against a server: the curl
// request gets the answer the README prints, and the Python client (when
// python3 is here) prints its count.
func TestServe_README(t *testing.T) {
	b, err := os.ReadFile("../../../README.md")
	if err != nil {
		t.Fatal(err)
	}
	readme := string(b)
	s := startServe(t, "native", testOptions())
	curl := regexp.MustCompile(`(?s)curl -s localhost:8787(/v1/\w+) -H 'Content-Type: application/json' \\\n\s*-d '([^']*)'\n# (\{[^\n]*\})\n`).FindStringSubmatch(readme)
	if curl == nil {
		t.Fatal("no curl example in README.md")
	}
	if st, got := post(t, http.DefaultClient, s.url+curl[1], curl[2]); st != 200 || string(got) != curl[3] {
		t.Errorf("curl example: %d %s, the README says %s", st, got, curl[3])
	}
	py := regexp.MustCompile("(?s)```python\n(.*?)```").FindStringSubmatch(readme)
	if py == nil {
		t.Fatal("no Python client in README.md")
	}
	if n := strings.Count(strings.TrimSpace(py[1]), "\n") + 1; n > 10 {
		t.Errorf("the Python client has %d lines", n)
	}
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Skip("no python3 for the README's client")
	}
	out, err := exec.Command(python, "-c", strings.ReplaceAll(py[1], "http://127.0.0.1:8787", s.url)).CombinedOutput()
	if err != nil || strings.TrimSpace(string(out)) != "2" {
		t.Fatalf("the README's Python client: %v: %s", err, out)
	}
}
