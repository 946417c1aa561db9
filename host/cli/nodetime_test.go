package cli

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

// A snapshot taken on a data directory survives the node's restart: the
// node started again reverts to it.
func TestNodeSnapshotAcrossRestart(t *testing.T) {
	dir := t.TempDir()
	c := startNodeProcess(t, "--datadir", dir)
	c.call("dev_mine", "{}", &struct{}{})
	height, hash := c.tip()
	var snap struct{ ID string }
	c.call("dev_snapshot", "{}", &snap)
	c.call("dev_mine", "{}", &struct{}{})
	c.call("dev_mine", "{}", &struct{}{})
	c.stop()

	c = startNodeProcess(t, "--datadir", dir)
	var tip struct {
		Height uint32
		Hash   string
	}
	c.call("dev_revert", `{"id":"`+snap.ID+`"}`, &tip)
	if h, got := c.tip(); snap.ID != "0x1" || tip.Height != height || h != height || got != hash || tip.Hash != hash {
		t.Errorf("dev_revert %s after a restart: %+v, tip %d %s; want %d %s", snap.ID, tip, h, got, height, hash)
	}
	c.stop()
}
