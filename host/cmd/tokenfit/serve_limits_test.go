package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/tokenfit/tokenfit/core"
	"github.com/tokenfit/tokenfit/host/httpapi"
)

// routeCase is one request of testdata/http/routes.json, which the edge
// handler is held to as well (js/test/edge.test.mjs): a method and a
// request target sent as they are (a POST with {"text": "Hello world"}),
// and the status, error code and Allow header due.
type routeCase struct {
	Name, Method, Target string
	Status               int
	Code, Allow          string
}

// rawRequest sends one request as written, target included, on a new
// connection and returns the response and its body.
func rawRequest(t *testing.T, addr, method, target string, headers map[string]string, body string) (*http.Response, []byte) {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close()
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s HTTP/1.1\r\nHost: x\r\nConnection: close\r\n", method, target)
	for k, v := range headers {
		fmt.Fprintf(&b, "%s: %s\r\n", k, v)
	}
	if body != "" {
		fmt.Fprintf(&b, "Content-Length: %d\r\n", len(body))
	}
	b.WriteString("\r\n" + body)
	conn.SetDeadline(time.Now().Add(20 * time.Second))
	if _, err := io.WriteString(conn, b.String()); err != nil {
		t.Fatal(err)
	}
	resp, err := http.ReadResponse(bufio.NewReader(conn), &http.Request{Method: method})
	if err != nil {
		t.Fatalf("%s %s: %v", method, target, err)
	}
	out, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp, out
}

// TestServe_Routes: every request target of testdata/http/routes.json gets
// its status, sent raw: the server routes on the path as sent, read as a
// URL parser reads it (so /v1%2FcountTokens is no route, as in the edge
// handler; it answered 200).
func TestServe_Routes(t *testing.T) {
	for _, rt := range runtimes(t) {
		t.Run(rt, func(t *testing.T) {
			s := startServe(t, rt, testOptions())
			for _, c := range httpVectors[routeCase](t, "routes.json") {
				var headers map[string]string
				body := ""
				if c.Method == "POST" {
					headers, body = map[string]string{"Content-Type": "application/json"}, `{"text": "Hello world"}`
				}
				resp, b := rawRequest(t, s.addr, c.Method, c.Target, headers, body)
				code := errorCode(b)
				if resp.StatusCode != c.Status || code != c.Code || resp.Header.Get("Allow") != c.Allow {
					t.Errorf("%s (%s %s): %d %s (Allow %q), want %d %q (Allow %q)", c.Name, c.Method, c.Target, resp.StatusCode, b, resp.Header.Get("Allow"), c.Status, c.Code, c.Allow)
				}
			}
		})
	}
}

// TestServe_Flags: flags that mean nothing are refused with a message
// naming them (--max-body -5 served 8 MiB; negative timeouts were taken).
func TestServe_Flags(t *testing.T) {
	for _, args := range [][]string{
		{"--max-body", "-5"}, {"--max-body", "0"}, {"--read-timeout", "-1s"}, {"--read-header-timeout", "0s"},
		{"--write-timeout", "-3s"}, {"--idle-timeout", "-1ms"}, {"--drain", "-1s"}, {"--max-inflight", "0"},
		{"--max-inflight-bytes", "100", "--max-body", "1000"}, {"--max-inflight-bytes", "-1"},
	} {
		var stdout, stderr bytes.Buffer
		code := run(append([]string{"serve", "--addr", "127.0.0.1:0"}, args...), strings.NewReader(""), &stdout, &stderr)
		flag := strings.TrimPrefix(args[0], "--")
		if code == 0 || !strings.Contains(stderr.String(), flag) || strings.Contains(stderr.String(), "serving") {
			t.Errorf("serve %v: exit %d, stderr %q: want a usage error naming --%s", args, code, stderr.String(), flag)
		}
	}
}

// holdBody starts a POST whose body declares n bytes and sends sent of
// them, then waits: a request the server holds. Closing the connection
// ends it.
func holdBody(t *testing.T, addr string, n, sent int) net.Conn {
	t.Helper()
	conn, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	fmt.Fprintf(conn, "POST /v1/countTokens HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n{\"text\": \"%s", n, strings.Repeat("a", sent-10))
	return conn
}

// TestServe_InFlight: past the requests or the body bytes in flight a
// request gets 503 with Retry-After at once (there was no limit: 50
// half-sent 8 MiB bodies held 440 MB), /healthz answers all the while, and
// the server serves again once they end.
func TestServe_InFlight(t *testing.T) {
	o := testOptions()
	o.read, o.maxInFlight, o.maxInFlightBytes = 20*time.Second, 2, 3<<20
	s := startServe(t, "native", o)
	client := &http.Client{Timeout: 10 * time.Second}
	busy := func(what string) {
		t.Helper()
		// The held requests are read concurrently: wait until the server
		// refuses, which it must do within a few seconds.
		deadline := time.Now().Add(10 * time.Second)
		for {
			resp, b := rawRequest(t, s.addr, "POST", "/v1/countTokens", map[string]string{"Content-Type": "application/json"}, `{"text": "Hello world"}`)
			if resp.StatusCode == 503 {
				if errorCode(b) != httpapi.CodeOverloaded || resp.Header.Get("Retry-After") == "" {
					t.Fatalf("%s: 503 %s, Retry-After %q", what, b, resp.Header.Get("Retry-After"))
				}
				break
			}
			if time.Now().After(deadline) {
				t.Fatalf("%s: %d %s, want 503 overloaded", what, resp.StatusCode, b)
			}
			time.Sleep(50 * time.Millisecond)
		}
		if st, b := get(t, client, s.url+"/healthz"); st != 200 {
			t.Fatalf("%s: /healthz %d %s", what, st, b)
		}
	}
	// Two requests held: the third is one too many.
	a, b := holdBody(t, s.addr, 1000, 100), holdBody(t, s.addr, 1000, 100)
	busy("two requests in flight")
	a.Close()
	b.Close()
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(20 * time.Millisecond) {
		st, body := post(t, client, s.url+"/v1/countTokens", `{"text": "Hello world"}`)
		if st == 200 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after they ended: %d %s", st, body)
		}
	}
	// Bytes: of two bodies of 2 MiB with room for 3, one is refused as it
	// arrives, whichever comes second; a small request still fits beside
	// the other.
	o.maxInFlight, o.maxBody = 64, 3<<20
	s = startServe(t, "native", o)
	conns := []net.Conn{holdBody(t, s.addr, 3<<20, 2<<20), holdBody(t, s.addr, 3<<20, 2<<20)}
	refused := make(chan *http.Response, 2)
	for _, c := range conns {
		go func() {
			c.SetReadDeadline(time.Now().Add(10 * time.Second))
			if resp, err := http.ReadResponse(bufio.NewReader(c), nil); err == nil {
				refused <- resp
			}
		}()
	}
	select {
	case resp := <-refused:
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode != 503 || errorCode(b) != httpapi.CodeOverloaded || resp.Header.Get("Retry-After") == "" {
			t.Fatalf("two 2 MiB bodies with room for 3 MiB: %d %s (Retry-After %q)", resp.StatusCode, b, resp.Header.Get("Retry-After"))
		}
	case <-time.After(10 * time.Second):
		t.Fatal("two 2 MiB bodies with room for 3 MiB: both held")
	}
	if st, body := post(t, client, s.url+"/v1/countTokens", `{"text": "Hello world"}`); st != 200 {
		t.Fatalf("a small request beside them: %d %s", st, body)
	}
}

func get(t *testing.T, client *http.Client, url string) (int, []byte) {
	t.Helper()
	resp, err := client.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, b
}

// syncBuffer is a log the server writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestServe_ClientGone: a client that goes away while its request is
// counted stops the work (core.API.DoUntil), which is logged as 499; the
// native server ignored the request's context and worked on to the end.
func TestServe_ClientGone(t *testing.T) {
	var log syncBuffer
	o := testOptions()
	o.read, o.maxBody = 20*time.Second, 16<<20
	s := startServeLog(t, "native", o, &log)
	// A request that takes seconds: 12 MiB in chunks of 6 tokens
	// overlapping by 3 (a 164 MB answer, within the budget), each chunk
	// counted again.
	body := `{"maxTokens": 6, "overlap": 3, "text": "` + strings.Repeat("a ", 6<<20) + `"}`
	conn, err := net.Dial("tcp", s.addr)
	if err != nil {
		t.Fatal(err)
	}
	// Gone as soon as the request is sent: the server reads the whole body
	// before it sees the end of the connection, then starts the work.
	fmt.Fprintf(conn, "POST /v1/chunk HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: %d\r\n\r\n%s", len(body), body)
	conn.Close()
	deadline := time.Now().Add(30 * time.Second)
	for !strings.Contains(log.String(), `"path":"/v1/chunk"`) {
		if time.Now().After(deadline) {
			t.Fatalf("no record of the request in the log: %s", log.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	var rec struct {
		Status int
		Code   string
		Ms     float64
	}
	for _, line := range strings.Split(log.String(), "\n") {
		if strings.Contains(line, `"path":"/v1/chunk"`) {
			if err := json.Unmarshal([]byte(line), &rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	if rec.Status != httpapi.StatusClientGone || rec.Code != httpapi.CodeClientGone {
		t.Fatalf("the request was logged %+v, want %d %s", rec, httpapi.StatusClientGone, httpapi.CodeClientGone)
	}
	t.Logf("stopped %.0f ms after it began", rec.Ms)
}

// TestHandler_HealthNeverWaits: /healthz answers while every call waits
// (the pool's instances all busy): it asked the Caller, and waited 32.8 s
// behind two slow requests on --runtime wasm.
func TestHandler_HealthNeverWaits(t *testing.T) {
	gate := make(chan struct{})
	first := true
	var mu sync.Mutex
	call := func(ctx context.Context, op string, req []byte) ([]byte, error) {
		mu.Lock()
		wait := !first
		first = false
		mu.Unlock()
		if wait {
			select {
			case <-gate:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
		}
		return core.NewAPI().Do(op, req)
	}
	h := httpapi.New(call, httpapi.Options{Log: slog.New(slog.NewJSONHandler(io.Discard, nil))})
	srvr := &http.Server{Handler: h}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	go srvr.Serve(ln)
	defer srvr.Close()
	defer close(gate)
	go http.Post("http://"+ln.Addr().String()+"/v1/countTokens", "application/json", strings.NewReader(`{"text": "a"}`))
	client := &http.Client{Timeout: 5 * time.Second}
	resp, err := client.Get("http://" + ln.Addr().String() + "/healthz")
	if errors.Is(err, context.DeadlineExceeded) || err != nil {
		t.Fatalf("/healthz while the Caller is busy: %v", err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !bytes.Contains(b, []byte(`"version":"`+core.Version+`"`)) {
		t.Fatalf("%d %s", resp.StatusCode, b)
	}
}
