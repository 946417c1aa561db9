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

	"github.com/didlight/didlight/host/internal/rss"
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
func nodeStart(ctx context.Context, bin, dir string) (time.Duration, rss.Usage, error) {
	cmd := exec.CommandContext(ctx, bin, "node", "--datadir", dir, "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return 0, rss.Usage{}, err
	}
	begin := time.Now()
	if err := cmd.Start(); err != nil {
		return 0, rss.Usage{}, err
	}
	defer func() {
		cmd.Process.Signal(os.Interrupt)
		cmd.Wait()
	}()
	lines := bufio.NewScanner(stdout)
	for lines.Scan() {
		if strings.HasPrefix(lines.Text(), "ready") {
			took := time.Since(begin)
			mem, err := rss.Of(cmd.Process.Pid)
			go func() {
				for lines.Scan() {
				}
			}()
			return took, mem, err
		}
	}
	return 0, rss.Usage{}, fmt.Errorf("the node on %s exited before it was ready", dir)
}
