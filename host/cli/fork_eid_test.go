package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"maps"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/eidtest"
)

// TestEIDForkProcess runs `didlight node --fork` of the recorded EID node
// as a process: the scenario's DIDs answer as the node answered, a DID
// whose key the scenario holds is deactivated through /idtx and mined
// here, and a restart on the data directory with the upstream gone
// answers the same.
func TestEIDForkProcess(t *testing.T) {
	dir := t.TempDir()
	var before map[string]string
	var height uint64
	var args []string
	t.Run("online", func(t *testing.T) {
		u := eidtest.NewUpstream(t, eidtest.Options{})
		height = eidHeadNumber(t, u.URL)
		args = []string{"--fork", u.URL, "--datadir", dir}
		c := startNodeProcess(t, args...)
		if !strings.Contains(c.banner, "a fork of the EID node "+u.URL+" at block "+strconv.FormatUint(height, 10)) {
			t.Errorf("banner:\n%s", c.banner)
		}
		before = map[string]string{}
		for _, d := range u.Manifest.DIDs {
			var got json.RawMessage
			c.call("did_resolveDID", `[{"did":"`+d.DID+`","all":true}]`, &got)
			if want := askEID(t, u.URL, d.DID, true); !bytes.Equal(got, want) {
				t.Errorf("%s: did_resolveDID %.300s, want the EID node's %.300s", d.Name, got, want)
			}
			before[d.DID] = string(got)
		}
		var frank json.RawMessage // its document expired before the fork point: the fork's chain begins at that block's time
		c.call("resolvedid", `{"did":"`+u.Manifest.DIDs[5].DID+`"}`, &frank)
		if !strings.Contains(string(frank), `"status":1`) {
			t.Errorf("%s: resolvedid %.200s, want status 1 (expired at the fork point)", u.Manifest.DIDs[5].Name, frank)
		}
		alice, err := did.Parse(u.Manifest.DIDs[0].DID)
		if err != nil {
			t.Fatal(err)
		}
		seed := sha256.Sum256([]byte("didlight eidtest " + u.Manifest.DIDs[0].Name)) // the scenario's key (scenario/actor.go)
		key, err := keys.NewPrivateKey(seed[:])
		if err != nil {
			t.Fatal(err)
		}
		req, err := idop.NewDeactivate(alice, did.URL{DID: alice, Fragment: did.PrimaryKey}, key)
		if err != nil {
			t.Fatal(err)
		}
		body, err := json.Marshal(req)
		if err != nil {
			t.Fatal(err)
		}
		c.publish(body)
		var got json.RawMessage
		c.call("did_resolveDID", `[{"did":"`+alice.String()+`"}]`, &got)
		if !strings.Contains(string(got), `"status":2`) {
			t.Errorf("%s after a deactivate through the fork's /idtx: %s", alice, got)
		}
		if want := askEID(t, u.URL, alice.String(), true); !bytes.Contains(want, []byte(`"status":0`)) {
			t.Errorf("the EID node's answer changed: %s", want)
		}
		before[alice.String()] = "" // deactivated here
		c.stop()
	})
	// The upstream (the replay, or the live node's front) is closed: its URL
	// refuses connections.
	c := startNodeProcess(t, args...)
	after := map[string]string{}
	for d := range before {
		var got json.RawMessage
		c.call("did_resolveDID", `[{"did":"`+d+`","all":true}]`, &got)
		after[d] = string(got)
		if before[d] == "" {
			after[d] = ""
		}
	}
	if !maps.Equal(after, before) {
		t.Errorf("the answers changed across a restart offline:\n%v\nwant\n%v", after, before)
	}
	var want json.RawMessage
	c.call("resolvedid", `{"did":"`+someDID(before)+`","all":true}`, &want)
	c.stop()

	// The fork's data directory exported, and loaded in a devnet.
	file := dir + "/fork.fixture"
	if r := runCLI("devnet", "export", "--datadir", dir, file); r.code != exitOK || !strings.Contains(r.stdout, "DIDs of EID") {
		t.Fatalf("devnet export of the fork: exit %d %s %s", r.code, r.stdout, r.stderr)
	}
	c = startNodeProcess(t, "--import", file, "--mem")
	var got json.RawMessage
	c.call("resolvedid", `{"did":"`+someDID(before)+`","all":true}`, &got)
	if !bytes.Equal(got, want) {
		t.Errorf("resolvedid in a devnet loading the fork's export: %.300s, want the fork's %.300s", got, want)
	}
	c.stop()
}

// someDID returns a DID of answers that has an answer, the same each time.
func someDID(answers map[string]string) string {
	for _, d := range slices.Sorted(maps.Keys(answers)) {
		if answers[d] != "" {
			return d
		}
	}
	return ""
}
