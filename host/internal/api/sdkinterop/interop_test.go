package sdkinterop

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/testenv"
)

// TestSDKInterop runs every *.test.mjs file of the suite, one after the
// other, with the official SDK against a fresh `didlight node --mem` built
// from this checkout.
func TestSDKInterop(t *testing.T) {
	nodeJS := lookPath(t, "node")
	installModules(t)
	files, err := filepath.Glob("*.test.mjs")
	if err != nil || len(files) == 0 {
		t.Fatalf("no *.test.mjs files here (%v)", err)
	}
	node := startNode(t, buildNode(t))

	ctx, cancel := context.WithTimeout(context.Background(), suiteTimeout(t))
	defer cancel()
	args := append([]string{"--test", "--test-concurrency=1", "--test-reporter=spec"}, files...)
	cmd := exec.CommandContext(ctx, nodeJS, args...)
	cmd.Env = append(childEnv(), "DIDLIGHT_RPC_URL="+node.rpc, "DIDLIGHT_REST_URL="+node.rest)
	out, err := cmd.CombinedOutput()
	t.Logf("node %s\n%s", strings.Join(args, " "), out)
	if err != nil {
		t.Errorf("the SDK suite failed (%v); its output is above", err)
	}
	checkSummary(t, out)
	node.stop()
}

// summaryRE finds the counts node --test's spec reporter ends with.
var summaryRE = regexp.MustCompile(`(?m)^ℹ (tests|pass|fail|cancelled|skipped|todo) (\d+)$`)

// checkSummary requires that tests ran and that none failed, was cancelled,
// skipped or left to do.
func checkSummary(t *testing.T, out []byte) {
	t.Helper()
	counts := map[string]int{}
	for _, m := range summaryRE.FindAllSubmatch(out, -1) {
		n, _ := strconv.Atoi(string(m[2]))
		counts[string(m[1])] = n
	}
	switch {
	case len(counts) != 6:
		t.Errorf("node --test printed no complete summary: %v", counts)
	case counts["tests"] == 0 || counts["pass"] != counts["tests"]:
		t.Errorf("%d of %d SDK tests passed: %v", counts["pass"], counts["tests"], counts)
	}
}

// suiteTimeout leaves the node time to stop before go test's own deadline.
func suiteTimeout(t *testing.T) time.Duration {
	d := 8 * time.Minute
	if dl, ok := t.Deadline(); ok {
		d = min(d, time.Until(dl)-30*time.Second)
	}
	return d
}

// lookPath finds a program the suite needs, or ends the test saying so, as
// [testenv.Check] does.
func lookPath(t *testing.T, name string) string {
	t.Helper()
	return testenv.MustLookPath(t, name, "the SDK suite runs in Node.js 20 or later, with npm")
}

// installModules installs the pinned SDK from package-lock.json (npm ci)
// unless node_modules is already there.
func installModules(t *testing.T) {
	t.Helper()
	if _, err := os.Stat("node_modules"); err == nil {
		return
	}
	cmd := exec.Command(lookPath(t, "npm"), "ci", "--ignore-scripts", "--no-audit", "--no-fund")
	cmd.Env = childEnv()
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("npm ci: %v\n%s", err, out)
	}
}

// childEnv is this process's environment for the programs the test runs:
// without DIDLIGHT_* settings, which would change the node's flags, and
// as in CI (no prompts, no colours).
func childEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "DIDLIGHT_") {
			env = append(env, kv)
		}
	}
	return append(env, "CI=true", "NO_COLOR=1")
}

// buildNode builds the didlight command into a temporary directory, under
// the race detector when this test runs under it.
func buildNode(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "didlight")
	args := []string{"build", "-o", bin}
	if raceEnabled {
		args = append(args, "-race")
	}
	cmd := exec.Command(lookPath(t, "go"), append(args, "github.com/didlight/didlight/cmd/didlight")...)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go build didlight: %v\n%s", err, out)
	}
	return bin
}

// node is a running `didlight node --mem`.
type node struct {
	t      *testing.T
	cmd    *exec.Cmd
	rpc    string // the JSON-RPC URL its banner names
	rest   string // the REST URL its banner names (ending in /api/v1)
	stderr *syncBuffer
}

// startNode starts bin as `didlight node --mem` on free loopback ports and
// waits until its banner says it is ready.
func startNode(t *testing.T, bin string) *node {
	t.Helper()
	cmd := exec.Command(bin, "node", "--mem", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	cmd.Env = childEnv()
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	n := &node{t: t, cmd: cmd, stderr: &syncBuffer{}}
	cmd.Stderr = n.stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		if cmd.ProcessState == nil {
			cmd.Process.Kill()
			cmd.Wait()
		}
	})
	banner := make(chan string)
	go func() {
		defer close(banner)
		sc := bufio.NewScanner(stdout)
		for sc.Scan() {
			banner <- sc.Text()
		}
	}()
	var seen strings.Builder
	timeout := time.After(time.Minute)
	for {
		select {
		case line, ok := <-banner:
			if !ok {
				t.Fatalf("didlight node exited before it was ready:\n%s\nstderr:\n%s", &seen, n.stderr)
			}
			seen.WriteString(line + "\n")
			if f := strings.Fields(line); len(f) == 2 && f[0] == "JSON-RPC" {
				n.rpc = f[1]
			} else if len(f) == 3 && f[0]+" "+f[1] == "REST API" {
				n.rest = f[2]
			}
			if strings.HasPrefix(line, "ready") {
				if n.rpc == "" || n.rest == "" {
					t.Fatalf("the banner names no JSON-RPC or REST URL:\n%s", &seen)
				}
				go io.Copy(io.Discard, stdout)
				return n
			}
		case <-timeout:
			t.Fatalf("didlight node not ready after a minute:\n%s\nstderr:\n%s", &seen, n.stderr)
		}
	}
}

// stop sends SIGTERM and requires a clean exit within the shutdown grace
// period, and a log with no error (a 500 the SDK would have hidden) and no
// data race.
func (n *node) stop() {
	n.t.Helper()
	if err := n.cmd.Process.Signal(syscall.SIGTERM); err != nil {
		n.t.Fatal(err)
	}
	done := make(chan error, 1)
	go func() { done <- n.cmd.Wait() }()
	select {
	case err := <-done:
		if err != nil {
			n.t.Errorf("didlight node after SIGTERM: %v\nstderr:\n%s", err, n.stderr)
		}
	case <-time.After(20 * time.Second):
		n.t.Fatalf("didlight node still running 20s after SIGTERM\nstderr:\n%s", n.stderr)
	}
	if log := n.stderr.String(); strings.Contains(log, "level=ERROR") || strings.Contains(log, "DATA RACE") {
		n.t.Errorf("the node logged an error or a race while serving the SDK:\n%s", log)
	}
}

// syncBuffer is a bytes.Buffer safe for the writer (the child's stderr)
// and the test reading it.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
