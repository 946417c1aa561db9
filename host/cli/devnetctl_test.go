package cli

import (
	"strings"
	"testing"
)

// Each control verb calls its dev_* method on a running node, prints what
// the node answered, and refuses bad input before calling, or says what
// the node refused.
func TestDevnetControls(t *testing.T) {
	n := startNodeProcess(t, "--mem", "--genesis-time", "2025-06-01T00:00:00Z")
	t.Setenv("DIDLIGHT_RPC", n.rpc)
	t.Setenv("DIDLIGHT_REST", n.rest)
	ok := func(args ...string) string {
		t.Helper()
		code, out, errOut := devnetCLI(append([]string{"devnet"}, args...)...)
		if code != exitOK {
			t.Fatalf("devnet %s: exit %d, %s", strings.Join(args, " "), code, errOut)
		}
		return strings.TrimSpace(out)
	}
	fails := func(want int, msg string, args ...string) {
		t.Helper()
		code, _, errOut := devnetCLI(append([]string{"devnet"}, args...)...)
		if code != want || !strings.Contains(errOut, msg) {
			t.Errorf("devnet %s: exit %d, %q; want exit %d saying %q", strings.Join(args, " "), code, errOut, want, msg)
		}
	}

	id := ok("snapshot")
	if id != "0x1" {
		t.Fatalf("snapshot printed %q, want 0x1", id)
	}
	if got := ok("mine"); !strings.HasPrefix(got, "height 1  ") {
		t.Errorf("mine printed %q", got)
	}
	if got := ok("increase-time", "48h"); !strings.HasPrefix(got, "2025-06-03T00:00:0") {
		t.Errorf("increase-time 48h printed %q, want a time two days after the genesis", got)
	}
	if got := ok("revert", id); !strings.HasPrefix(got, "height 0  ") {
		t.Errorf("revert printed %q, want the genesis block", got)
	}
	ok("mine")
	if got := ok("revert", id); !strings.HasPrefix(got, "height 0  ") { // the snapshot is kept
		t.Errorf("a second revert printed %q, want the genesis block", got)
	}
	fails(exitFail, "no snapshot 0x7", "revert", "0x7")
	if got := ok("next-block-time", "2025-07-01T00:00:00Z"); got != "2025-07-01T00:00:00Z" {
		t.Errorf("next-block-time printed %q", got)
	}
	fails(exitFail, "not after the tip", "next-block-time", "2025-01-01T00:00:00Z")
	if got := ok("reset", "2026-06-01T00:00:00Z"); !strings.HasPrefix(got, "height 0  ") {
		t.Errorf("reset printed %q", got)
	}
	var state struct{ Height uint32 }
	n.get("/block/height", &state.Height)
	if state.Height != 0 {
		t.Errorf("after reset the node is at height %d", state.Height)
	}

	fails(exitUsage, "want 1 argument(s)", "revert")
	fails(exitUsage, "want at most one argument", "reset", "a", "b")
	fails(exitUsage, "want an RFC 3339 time", "reset", "yesterday")
	fails(exitUsage, "want a duration of a second or more", "increase-time", "5")
	fails(exitUsage, "want an RFC 3339 time", "next-block-time", "1700000000")
	fails(exitUnreachable, "127.0.0.1:1", "snapshot", "--rpc", "http://127.0.0.1:1/")
}
