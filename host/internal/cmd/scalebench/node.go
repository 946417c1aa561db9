package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"time"
)

// measure returns the measurements of the chain in dir: the node's start
// time and RSS, then the child's.
func measure(ctx context.Context, self, bin, dir string, o options, n int) (*result, error) {
	start, rss, err := nodeStart(ctx, bin, dir)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, "measure", dir, "-seed", o.seed, "-dids", strconv.Itoa(n), "-requests", strconv.Itoa(o.requests))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("measuring %s: %v", dir, err)
	}
	r := &result{}
	if err := json.Unmarshal(out, r); err != nil {
		return nil, fmt.Errorf("measuring %s: %v", dir, err)
	}
	r.NodeStartSeconds, r.NodeRSSBytes = start.Seconds(), rss
	return r, nil
}

// nodeStart starts `didlight node` on the chain in dir and returns how
// long it took to say it is ready, and its RSS then.
func nodeStart(ctx context.Context, bin, dir string) (time.Duration, int64, error) {
	cmd := exec.CommandContext(ctx, bin, "node", "--datadir", dir, "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, 0, err
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, 0, err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "ready") {
			took := time.Since(begin)
			rss, err := rssOf(cmd.Process.Pid)
			go func() {
				for lines.Scan() {
				}
			}()
			return took, rss, err
		}
	}
	return 0, 0, fmt.Errorf("the node on %s exited before it was ready", dir)
}

// rssOf returns the resident set of process pid, from /proc/<pid>/status
// (VmRSS, in kB; see proc(5)).
func rssOf(pid int) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	return parseRSS(string(b))
}

func parseRSS(status string) (int64, error) {
	for line := range strings.SplitSeq(status, "\n") {
		if v, ok := strings.CutPrefix(line, "VmRSS:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			return kb << 10, err
		}
	}
	return 0, fmt.Errorf("no VmRSS in /proc status")
}
