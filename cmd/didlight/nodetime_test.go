package main

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"
)

// `didlight node --genesis-time` begins a chain there; its data directory
// remembers the time base, and refuses another genesis time.
func TestNodeGenesisTime(t *testing.T) {
	dir := t.TempDir()
	began := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC).Unix()
	blockTime := func(c *child, height uint32) int64 {
		var b struct{ Time int64 }
		c.get("/block/details/height/"+strconv.FormatUint(uint64(height), 10), &b)
		return b.Time
	}
	c := startNodeProcess(t, "--datadir", dir, "--genesis-time", "2025-06-01T00:00:00Z")
	c.call("dev_mine", "{}", &struct{}{})
	if g, b := blockTime(c, 0), blockTime(c, 1); g != began || b <= began || b > began+60 {
		t.Errorf("genesis at %d, block 1 at %d; want %d and within a minute after", g, b, began)
	}
	c.stop()

	// Reopened without the flag (and with the same time from the
	// environment), the chain's time runs on from 2025.
	t.Setenv("DIDLIGHT_GENESIS_TIME", "2025-06-01T00:00:00Z")
	c = startNodeProcess(t, "--datadir", dir)
	c.call("dev_mine", "{}", &struct{}{})
	if b := blockTime(c, 2); b <= blockTime(c, 1) || b > began+120 {
		t.Errorf("after a restart block 2 is at %d, want within two minutes of %d", b, began)
	}
	c.stop()

	cmd := exec.Command(os.Args[0], "node", "--datadir", dir, "--genesis-time", "2025-07-01T00:00:00Z", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0")
	cmd.Env = append(os.Environ(), childEnv+"=1")
	out, err := cmd.CombinedOutput()
	want := "the store holds a chain begun at 2025-06-01T00:00:00Z, not at the genesis time given, 2025-07-01T00:00:00Z"
	if code := cmd.ProcessState.ExitCode(); err == nil || code != 1 || !strings.Contains(string(out), want) {
		t.Errorf("another --genesis-time on the data directory: exit %d, output:\n%s\nwant exit 1 and %q", code, out, want)
	}
}
