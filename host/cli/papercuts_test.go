package cli

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/didlight/didlight/host/internal/nodetest"
)

// Given only one of --rest and --rpc, a command that calls both APIs asks
// the node for the other, on the given URL's host; given both, or a
// command that calls only the API given, asks nothing.
func TestNodeURLFromOne(t *testing.T) {
	n := nodetest.Start(t)
	rest := strings.TrimSuffix(n.REST, "/api/v1")
	for _, tc := range []struct {
		name           string
		args           []string
		uses           nodeAPIs
		wantREST, want string
	}{
		{"rpc alone", []string{"--rpc", n.RPC}, bothAPIs, rest, n.RPC},
		{"rest alone", []string{"--rest", rest}, bothAPIs, rest, n.RPC},
		{"rpc alone, rpc used", []string{"--rpc", n.RPC}, rpcAPI, "http://127.0.0.1:20334", n.RPC},
		{"rest alone, rest used", []string{"--rest", rest}, restAPI, rest, "http://127.0.0.1:20336"},
		{"both", []string{"--rest", "http://a:1", "--rpc", "http://b:2"}, bothAPIs, "http://a:1", "http://b:2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			c := newCommand("resolve", "", "", "")
			var nf nodeFlags
			nf.add(c.fs)
			if _, err := c.parse(&env{getenv: func(string) string { return "" }}, tc.args); err != nil {
				t.Fatal(err)
			}
			gotREST, gotRPC, err := nf.urls(context.Background(), tc.uses)
			if err != nil || gotREST != tc.wantREST || gotRPC != tc.want {
				t.Errorf("urls: %s, %s, %v; want %s, %s", gotREST, gotRPC, err, tc.wantREST, tc.want)
			}
		})
	}
}

// `resolve --verify` with only --rpc (or only DIDLIGHT_RPC) verifies: the
// REST URL comes from the node. A node that does not answer is named.
func TestResolveVerifyWithRPCOnly(t *testing.T) {
	n := nodetest.Start(t)
	subject, _ := publishTestDID(t, n, "cli rpc only")
	c := &cli{t: t, dir: t.TempDir()}
	t.Setenv("DIDLIGHT_REST", "")
	t.Setenv("DIDLIGHT_RPC", "")
	if out := c.ok("resolve", "--rpc", n.RPC, "--verify", subject.String()); !strings.Contains(out, "verified  yes, locally") {
		t.Errorf("resolve --rpc --verify:\n%s", out)
	}
	t.Setenv("DIDLIGHT_RPC", n.RPC)
	if out := c.ok("resolve", "--verify", "--format", "w3c", subject.String()); !strings.Contains(out, subject.String()) {
		t.Errorf("resolve --format w3c --verify with DIDLIGHT_RPC alone:\n%s", out)
	}
	closed := closedPort(t)
	c.fails(exitUnreachable, "--rest not given, and the node at --rpc "+closed+" did not say its REST port", "resolve", "--rpc", closed, "--verify", subject.String())
}

// `resolve --json` says whether the answer was verified: {"ran":false}
// without --verify (the verified runs are in TestToolsEndToEnd).
func TestResolveJSONSaysNotVerified(t *testing.T) {
	n := nodetest.Start(t)
	subject, _ := publishTestDID(t, n, "cli json")
	t.Setenv("DIDLIGHT_RPC", n.RPC)
	c := &cli{t: t, dir: t.TempDir()}
	var r struct {
		DID          string
		Verification map[string]any
	}
	out := c.ok("resolve", "--json", subject.String())
	if err := json.Unmarshal([]byte(out), &r); err != nil || r.DID != subject.String() || len(r.Verification) != 1 || r.Verification["ran"] != false {
		t.Errorf("resolve --json without --verify: %v\n%s", err, out)
	}
}

// `query --limit` above the method's maximum says that the node clamps it,
// on stderr, and succeeds; within it, says nothing.
func TestQueryLimitClamped(t *testing.T) {
	n := nodetest.Start(t)
	publishTestDID(t, n, "cli query")
	t.Setenv("DIDLIGHT_RPC", n.RPC)
	c := &cli{t: t, dir: t.TempDir()}
	r := c.run("query", "--find", "{}", "--limit", "1000")
	if r.code != exitOK || !strings.Contains(r.stdout, "1 document(s) match") ||
		!strings.Contains(r.stderr, "note: --limit 1000 is above the query method's maximum, 256: the node returns at most 256 documents a page") {
		t.Errorf("query --limit 1000: exit %d\nstdout: %s\nstderr: %s", r.code, r.stdout, r.stderr)
	}
	if r := c.run("query", "--find", "{}", "--limit", "256"); r.code != exitOK || r.stderr != "" {
		t.Errorf("query --limit 256: exit %d, stderr %q", r.code, r.stderr)
	}
}

// A bad flag is reported once, with where to find the flags, not around
// the whole usage; a duration without a unit says that it needs one.
func TestFlagErrorsOnce(t *testing.T) {
	for i, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"node", "--bogus"}, `didlight node: flag provided but not defined: -bogus (run "didlight node -h")`},
		{[]string{"node", "--block-time", "5"}, `didlight node: invalid value "5" for flag -block-time: a duration needs a unit: 5s, 5m or 5ms, for example`},
		{[]string{"node", "--block-time", "soon"}, `invalid value "soon" for flag -block-time: not a duration: want a number and a unit, such as 5s`},
		{[]string{"resolve", "--timeout", "30", "did:elastos:foo"}, `didlight resolve: invalid value "30" for flag -timeout: a duration needs a unit: 30s`},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			c := &cli{t: t}
			r := c.run(tc.args...)
			if r.code != exitUsage || r.stdout != "" || !strings.Contains(r.stderr, tc.want) || strings.Count(r.stderr, "\n") != 1 || strings.Contains(r.stderr, "Usage") {
				t.Errorf("%q: exit %d, stderr:\n%s\nwant exit 2 and one line saying %q", tc.args, r.code, r.stderr, tc.want)
			}
		})
	}
	if r := (&cli{t: t}).run("node", "-h"); r.code != exitOK || !strings.Contains(r.stderr, "Usage: didlight node [flags]") || !strings.Contains(r.stderr, "--block-time (DIDLIGHT_BLOCK_TIME, default \"0s\")") {
		t.Errorf("node -h: exit %d\n%s", r.code, r.stderr)
	}
}
