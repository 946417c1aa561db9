package cli

import (
	"bytes"
	"crypto/sha256"
	"encoding/json"
	"maps"
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
		u := eidtest.NewReplay(t, eidtest.Options{})
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
	// The replay server is closed: its URL refuses connections.
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
	c.stop()
}
