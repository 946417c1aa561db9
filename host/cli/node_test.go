package cli

import (
	"bufio"
	"bytes"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/eidtest"
)

// childEnv marks a run of this test binary as the didlight command itself,
// so that tests run `didlight node` as a real child process.
const childEnv = "GO_TEST_DIDLIGHT_CHILD"

func TestMain(m *testing.M) {
	if os.Getenv(childEnv) == "1" {
		os.Exit(Run(os.Args[1:], os.Stdout, os.Stderr))
	}
	os.Exit(eidtest.Main(m))
}

// child is a running `didlight node`.
type child struct {
	t         *testing.T
	cmd       *exec.Cmd
	rest, rpc string // the URLs it printed
	banner    string
	stderr    *syncBuffer
	lines     chan string // stdout, line by line
}

// startNodeProcess starts `didlight node args...` and waits until it prints
// that it is ready.
func startNodeProcess(t *testing.T, args ...string) *child {
	t.Helper()
	c := spawnNode(t, args...)
	c.waitReady()
	return c
}

// spawnNode starts `didlight node args...`, its stdout's lines going to
// c.lines.
func spawnNode(t *testing.T, args ...string) *child {
	t.Helper()
	cmd := exec.Command(os.Args[0], append([]string{"node", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0"}, args...)...)
	cmd.Env = append(os.Environ(), childEnv+"=1")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	c := &child{t: t, cmd: cmd, stderr: &syncBuffer{}, lines: make(chan string)}
	cmd.Stderr = c.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill(); cmd.Wait() })
	go func() {
		defer close(c.lines)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			c.lines <- sc.Text()
		}
	}()
	return c
}

// waitReady reads the node's banner until it says it is ready, and takes
// its URLs from it.
func (c *child) waitReady() {
	c.t.Helper()
	var banner strings.Builder
	timeout := time.After(60 * time.Second)
	for {
		select {
		case line, ok := <-c.lines:
			if !ok {
				c.t.Fatalf("didlight node exited before it was ready:\n%s\nstderr:\n%s", banner.String(), c.stderr)
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
					c.t.Fatalf("the banner lacks the URLs:\n%s", c.banner)
				}
				go func() {
					for range c.lines {
					}
				}()
				return
			}
		case <-timeout:
			c.t.Fatalf("didlight node not ready after 60s:\n%s\nstderr:\n%s", banner.String(), c.stderr)
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

// A devnet control given while --demo seeds the chain never stops the
// node: it keeps serving, says why the demo stopped if the control took
// the chain's blocks back (a revert, a reset), finishes the demo if not,
// prints its banner, and exits 0 on SIGTERM. The controls are sent once
// the seeding has made a block, as a test suite would as soon as the node
// answers (the node logs where it listens before it seeds); a block every
// 20 ms makes the seeding last a second or so, so that they land during it.
func TestDemoUnderControls(t *testing.T) {
	for _, tc := range []struct {
		name     string
		controls []string // method and params, one call each
		stopped  bool     // the seeding stops
	}{
		{"snapshot and revert", []string{"dev_snapshot []", `dev_revert ["0x1"]`}, true},
		{"evm_snapshot and evm_revert", []string{"evm_snapshot []", `evm_revert ["0x1"]`}, true},
		{"reset", []string{"dev_reset []"}, true},
		{"mine and move the clock", []string{"dev_mine [2]", "dev_increaseTime [2592000]", "evm_increaseTime [60]"}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := spawnNode(t, "--mem", "--demo", "--genesis-time", "2025-03-01T00:00:00Z", "--block-time", "20ms")
			c.rest, c.rpc = c.listening()
			for height := uint32(0); height < 2; c.get("/block/height", &height) {
				time.Sleep(5 * time.Millisecond)
			}
			for _, call := range tc.controls {
				method, params, _ := strings.Cut(call, " ")
				var v json.RawMessage
				c.call(method, params, &v)
			}
			c.waitReady()
			var q struct{ Total int }
			c.call("query", `{"query":"{}","limit":256}`, &q)
			log := c.stderr.String()
			switch stopped := strings.Contains(log, "demo seeding stopped"); {
			case stopped != tc.stopped:
				t.Errorf("the log says the seeding stopped: %v, want %v:\n%s", stopped, tc.stopped, log)
			case !tc.stopped && (q.Total < 24 || !strings.Contains(log, "demo seeded")):
				t.Errorf("%d DIDs after the seeding, want the demo's; log:\n%s", q.Total, log)
			}
			c.stop()
			if strings.Contains(c.stderr.String(), "level=ERROR") {
				t.Errorf("errors logged:\n%s", c.stderr)
			}
		})
	}
}

// --no-mining with --demo: the demo's blocks are mined as it is seeded,
// then none until a control asks.
func TestNoMiningDemo(t *testing.T) {
	c := startNodeProcess(t, "--mem", "--demo", "--no-mining")
	if !strings.Contains(c.banner, "mined only when asked") {
		t.Errorf("the banner does not say blocks are mined only when asked:\n%s", c.banner)
	}
	var q struct{ Total int }
	c.call("query", `{"query":"{}","limit":256}`, &q)
	var height, after uint32
	c.get("/block/height", &height)
	var tip struct{ Height uint32 }
	c.call("dev_mine", "[2]", &tip)
	c.get("/block/height", &after)
	if q.Total < 24 || tip.Height != height+2 || after != height+2 {
		t.Errorf("%d DIDs seeded at height %d; dev_mine [2] answered %d, the chain at %d; want the demo, then two blocks", q.Total, height, tip.Height, after)
	}
	c.stop()
}

// listening waits for the line the node logs once it listens, and returns
// the URLs it names.
func (c *child) listening() (rest, rpc string) {
	c.t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		for line := range strings.Lines(c.stderr.String()) {
			if !strings.Contains(line, "msg=listening") {
				continue
			}
			for _, f := range strings.Fields(line) {
				if v, ok := strings.CutPrefix(f, "rest="); ok {
					rest = v
				} else if v, ok := strings.CutPrefix(f, "rpc="); ok {
					rpc = v
				}
			}
			return rest, rpc
		}
		time.Sleep(10 * time.Millisecond)
	}
	c.t.Fatalf("the node logged no listening line:\n%s", c.stderr)
	return "", ""
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
