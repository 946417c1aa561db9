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
	start, mem, err := nodeStart(ctx, bin, dir)
	if err != nil {
		return nil, err
	}
	cmd := exec.CommandContext(ctx, self, "measure", dir, "-seed", o.seed, "-dids", strconv.Itoa(n), "-requests", strconv.Itoa(o.requests), "-follow="+strconv.FormatBool(o.follow))
	cmd.Stderr = os.Stderr
	out, err := cmd.Output()
	if err != nil {
		return nil, fmt.Errorf("measuring %s: %v", dir, err)
	}
	r := &result{}
	if err := json.Unmarshal(out, r); err != nil {
		return nil, fmt.Errorf("measuring %s: %v", dir, err)
	}
	r.NodeStartSeconds, r.NodeRSS = start.Seconds(), mem
	return r, nil
}

// nodeStart starts `didlight node` on the chain in dir and returns how
// long it took to say it is ready, and its RSS then.
func nodeStart(ctx context.Context, bin, dir string) (time.Duration, rss, error) {
	cmd := exec.CommandContext(ctx, bin, "node", "--datadir", dir, "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, rss{}, err
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, rss{}, err
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
	return 0, rss{}, fmt.Errorf("the node on %s exited before it was ready", dir)
}

// rss is a process's resident memory: in all, and the part that is not
// file-backed (its heap and stacks); the rest is mostly the store's file,
// mapped by bbolt, which the kernel may drop at will.
type rss struct {
	Bytes, AnonBytes int64
}

// rssOf returns the resident memory of process pid, from /proc/<pid>/status
// (VmRSS and RssAnon, in kB; see proc(5)).
func rssOf(pid int) (rss, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return rss{}, err
	}
	return parseRSS(string(b))
}

func parseRSS(status string) (rss, error) {
	var r rss
	found := 0
	for line := range strings.SplitSeq(status, "\n") {
		name, v, ok := strings.Cut(line, ":")
		var dst *int64
		switch {
		case !ok:
			continue
		case name == "VmRSS":
			dst = &r.Bytes
		case name == "RssAnon":
			dst = &r.AnonBytes
		default:
			continue
		}
		kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
		if err != nil {
			return r, fmt.Errorf("/proc status %s: %v", name, err)
		}
		*dst = kb << 10
		found++
	}
	if found != 2 {
		return r, fmt.Errorf("no VmRSS or RssAnon in /proc status")
	}
	return r, nil
}
