package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

// childEnv marks a run of this test binary as the didlight command itself,
// so that tests run `didlight node` as a real child process.
const childEnv = "GO_TEST_DIDLIGHT_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// child is a running `didlight node`.
type child struct {
	t         *testing.T
	cmd       *exec.Cmd
	rest, rpc string // the URLs it printed
	banner    string
	stderr    *syncBuffer
}

// startNodeProcess starts `didlight node args...` and waits until it prints
// that it is ready.
func startNodeProcess(t *testing.T, args ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"node", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{t: t, cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	lines := make(chan string)
	go func() {
		defer close(lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	var banner strings.Builder
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-lines:
			if !ok {
				t.Fatalf("didlight node exited before it was ready:\n%s\nstderr:\n%s", banner.String(), c.stderr)
			}
			banner.WriteString(line + "\n")
			if f := strings.Fields(line); len(f) == 3 && f[0]+" "+f[1] == "REST API" {
				c.rest = f[2]
			} else if len(f) == 2 && f[0] == "JSON-RPC" {
				c.rpc = f[1]
			}
			if strings.HasPrefix(line, "ready") {
				c.banner = banner.String()
				if c.rest == "" || c.rpc == "" {
					t.Fatalf("the banner lacks the URLs:\n%s", c.banner)
				}
				go io.Copy(io.Discard, stdout)
				return c
			}
		case <-timeout:
			t.Fatalf("didlight node not ready after 60s:\n%s\nstderr:\n%s", banner.String(), c.stderr)
		}
	}
}

// stop sends SIGTERM and checks that the node exits cleanly (status 0)
// within the shutdown grace period.
func (c *child) stop() {
	c.t.Helper()
	if err := c.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		c.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- c.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			c.t.Fatalf("didlight node after SIGTERM: %v\nstderr:\n%s", err, c.stderr)
		}
	case <-time.After(15 * time.Second):
		c.t.Fatalf("didlight node still running 15s after SIGTERM\nstderr:\n%s", c.stderr)
	}
}

// get reads a REST path (after /api/v1); the envelope must say Success.
func (c *child) get(path string, v any) {
	c.t.Helper()
	resp, err := http.Get(c.rest + path)
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var e struct {
		Error  int
		Result json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&e); err != nil || e.Error != 0 {
		c.t.Fatalf("GET %s: %+v (%v)", path, e, err)
	}
	if err := json.Unmarshal(e.Result, v); err != nil {
		c.t.Fatal(err)
	}
}

// call sends a JSON-RPC call that must succeed.
func (c *child) call(method, params string, v any) {
	c.t.Helper()
	resp, err := http.Post(c.rpc, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"`+method+`","params":`+params+`}`))
	if err != nil {
		c.t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct {
		Result json.RawMessage
		Error  json.RawMessage
	}
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil || r.Result == nil {
		c.t.Fatalf("%s %s: %s (%v)", method, params, r.Error, err)
	}
	if err := json.Unmarshal(r.Result, v); err != nil {
		c.t.Fatal(err)
	}
}

// `didlight node --mem` runs as a process: it prints its URLs and dev
// account, serves both listeners, and exits 0 on SIGTERM.
func TestNodeProcess(t *testing.T) {
	c := startNodeProcess(t, "--mem")
	for _, want := range []string{"in memory", "dev account  E", "private key", `seed         "didlight"`, "1 arbiter"} {
		if !strings.Contains(c.banner, want) {
			t.Errorf("banner lacks %q:\n%s", want, c.banner)
		}
	}
	var height uint32
	c.get("/block/height", &height)
	var res struct{ Status int }
	c.call("resolvedid", `{"did":"did:elastos:iXcRhYB38gMt1phi5JXJMjeXL2TL8cg58y"}`, &res)
	if height != 0 || res.Status != 3 {
		t.Errorf("fresh node: height %d, resolve status %d", height, res.Status)
	}
	c.stop()
	if log := c.stderr.String(); strings.Contains(log, "level=ERROR") || !strings.Contains(log, "msg=stopped") {
		t.Errorf("log after SIGTERM, want a clean stop:\n%s", log)
	}
}

// --demo on a data directory is idempotent: a second run publishes nothing
// and finds the same DIDs.
func TestDemoIdempotent(t *testing.T) {
	dir := t.TempDir()
	var heights [2]uint32
	var totals [2]int
	for i := range 2 {
		c := startNodeProcess(t, "--datadir", dir, "--demo")
		c.get("/block/height", &heights[i])
		var q struct{ Total int }
		c.call("query", `{"query":"{}","limit":256}`, &q)
		totals[i] = q.Total
		c.stop()
	}
	if heights[0] == 0 || totals[0] < 24 || heights[1] != heights[0] || totals[1] != totals[0] {
		t.Errorf("demo runs: heights %v, DIDs %v; want a few dozen DIDs, the same both times", heights, totals)
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and readers at once.
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
