package cli

import (
	"bytes"
	"encoding/json"
	"maps"
	"math"
	"net/http"
	"strings"
	"testing"
	"time"

	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidtest"
)

// An EID follower's upstream budget: as asked, or by default none for a
// node on this machine and the client's default for any other endpoint.
func TestFollowBudget(t *testing.T) {
	for _, tc := range []struct {
		name      string
		asked     float64
		endpoints []string
		want      float64
		wantErr   bool
	}{
		{"loopback, by default", 0, []string{"http://127.0.0.1:20636/"}, -1, false},
		{"localhost, by default", 0, []string{"http://localhost:20636/eid"}, -1, false},
		{"IPv6 loopback, by default", 0, []string{"http://[::1]:20636/"}, -1, false},
		{"a public endpoint, by default", 0, []string{"https://api.elastos.io/eid"}, eidclient.DefaultBudget, false},
		{"loopback and a public one, by default", 0, []string{"http://127.0.0.1:1/", "https://api.elastos.io/eid"}, eidclient.DefaultBudget, false},
		{"asked", 250, []string{"https://api.elastos.io/eid"}, 250, false},
		{"no limit asked", -1, []string{"https://api.elastos.io/eid"}, -1, false},
		{"negative", -2, []string{"http://127.0.0.1:1/"}, 0, true},
		{"NaN", math.NaN(), []string{"http://127.0.0.1:1/"}, 0, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, err := budgetFor(tc.asked, eidclient.Network{Endpoints: tc.endpoints})
			if (err != nil) != tc.wantErr || got != tc.want {
				t.Errorf("budgetFor(%v, %v) = %v, %v; want %v (error %v)", tc.asked, tc.endpoints, got, err, tc.want, tc.wantErr)
			}
		})
	}
}

// `didlight node --follow <EID node> --datadir DIR` runs as a process: a
// banner that says so; once synced to the EID node's head, every DID of
// the recorded scenario answered as the EID node answers it; killed with
// SIGKILL and started again on its directory, the same head at once and
// the same answers. Without --did-contract, a private chain is refused
// before the node serves.
func TestEIDFollowerProcess(t *testing.T) {
	u := eidtest.NewUpstream(t, eidtest.Options{})
	head := eidHeadNumber(t, u.URL)
	dir := t.TempDir()
	answers := func(c *child) map[string]string {
		t.Helper()
		out := map[string]string{}
		for _, d := range u.Manifest.DIDs {
			var got json.RawMessage
			c.call("did_resolveDID", `[{"did":"`+d.DID+`","all":true}]`, &got)
			if want := askEID(t, u.URL, d.DID, true); !bytes.Equal(got, want) {
				t.Errorf("%s: did_resolveDID %.300s, want the EID node's %.300s", d.Name, got, want)
			}
			out[d.DID] = string(got)
		}
		return out
	}
	if r := runCLI("node", "--follow", u.URL, "--mem", "--rest-addr", "127.0.0.1:0", "--rpc-addr", "127.0.0.1:0"); r.code == exitOK || !strings.Contains(r.stderr, "--did-contract") {
		t.Errorf("--follow of a private chain without its contract: exit %d %s", r.code, r.stderr)
	}
	follow := []string{"--follow", u.URL, "--did-contract", u.Manifest.Contract, "--datadir", dir}
	c := startNodeProcess(t, follow...)
	if !strings.Contains(c.banner, "EID follower") || !strings.Contains(c.banner, "upstream     "+u.URL) {
		t.Errorf("banner:\n%s", c.banner)
	}
	waitHeight(t, c, head)
	before := answers(c)
	if err := c.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	c.cmd.Wait()

	c = startNodeProcess(t, follow...)
	var h uint64
	c.get("/block/height", &h)
	if h < head {
		t.Errorf("after a restart the follower is at %d, want its head %d kept", h, head)
	}
	if after := answers(c); !maps.Equal(after, before) {
		t.Error("the answers changed across the kill and restart")
	}
	c.stop()
}

// eidHeadNumber returns the EID node's head block number.
func eidHeadNumber(t *testing.T, url string) uint64 {
	t.Helper()
	resp, err := http.Post(url, "application/json", strings.NewReader(`{"jsonrpc":"2.0","id":1,"method":"eth_blockNumber","params":[]}`))
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var r struct{ Result string }
	if err := json.NewDecoder(resp.Body).Decode(&r); err != nil {
		t.Fatal(err)
	}
	return eidtest.Quantity(t, r.Result)
}

// waitHeight waits until the node's height reaches h.
func waitHeight(t *testing.T, c *child, h uint64) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var got uint64
		c.get("/block/height", &got)
		if got >= h {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("the follower is at height %d after 30 s, want %d\nstderr:\n%s", got, h, c.stderr)
		}
	}
}
