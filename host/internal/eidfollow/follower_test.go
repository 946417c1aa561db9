package eidfollow_test

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/eidfollow"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// startFollower runs a follower of the recorded EID node until it has
// caught up, and returns it serving.
func startFollower(t *testing.T) (*node.Node, *eidtest.Upstream) {
	t.Helper()
	up := eidtest.NewReplay(t, eidtest.Options{})
	client, err := eidclient.New(eidclient.Config{Network: eidclient.Network{Endpoints: []string{up.URL}}, Budget: -1})
	if err != nil {
		t.Fatal(err)
	}
	ix, err := eidindex.Open(eidindex.Config{DB: mem.New(), Network: eid.NetworkOf(up.Manifest.ChainID)})
	if err != nil {
		t.Fatal(err)
	}
	scan, err := eidsync.New(eidsync.Config{Upstream: client, Sink: ix, Contract: up.Manifest.Contract, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.StartEIDFollower(eidfollow.New(ix, scan, up.URL), node.Config{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	for deadline := time.Now().Add(20 * time.Second); !scan.Progress().CaughtUp; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("not caught up in 20s: %+v", scan.Progress())
		}
	}
	return n, up
}

func post(t *testing.T, url string, body []byte) map[string]json.RawMessage {
	t.Helper()
	resp, err := http.Post(url, "application/json", bytes.NewReader(body))
	return decode(t, resp, err)
}

func get(t *testing.T, url string) map[string]json.RawMessage {
	t.Helper()
	resp, err := http.Get(url)
	return decode(t, resp, err)
}

// decode reads an answer's JSON object.
func decode(t *testing.T, resp *http.Response, err error) map[string]json.RawMessage {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("%v: %s", err, b)
	}
	return m
}

func compact(t *testing.T, b []byte) string {
	t.Helper()
	var out bytes.Buffer
	if err := json.Compact(&out, b); err != nil {
		t.Fatal(err)
	}
	return out.String()
}

// A follower of the recorded EID node, synced through the scan, answers
// did_resolveDID over JSON-RPC as the node did, sent the very requests the
// node was sent; it answers query; its height and state are the EID block
// synced; the ledger's endpoints say it does not serve them.
func TestFollowRecorded(t *testing.T) {
	n, up := startFollower(t)
	rec, err := eidtest.Load()
	if err != nil {
		t.Fatal(err)
	}
	compared := 0
	for _, x := range rec.Checkpoints["final"] {
		var req struct {
			Method string
			Params []struct {
				DID string
				All any
			}
		}
		var want struct{ Result json.RawMessage }
		if json.Unmarshal(x.Request, &req) != nil || req.Method != "did_resolveDID" || len(req.Params) != 1 ||
			!strings.HasPrefix(req.Params[0].DID, "did:elastos:") || json.Unmarshal(x.Response, &want) != nil || want.Result == nil {
			continue
		}
		if _, err := did.Parse(req.Params[0].DID); err != nil {
			continue // refused by the API before it reads: its error is the API's, not the index's
		}
		if _, ok := req.Params[0].All.(bool); !ok && req.Params[0].All != nil {
			continue // likewise
		}
		got := post(t, n.RPCURL(), x.Request)
		if got["result"] == nil {
			t.Errorf("%s: %s", x.Note, got["error"])
			continue
		}
		if compact(t, got["result"]) != compact(t, want.Result) {
			t.Errorf("%s:\n got %.300s\nwant %.300s", x.Note, got["result"], want.Result)
		}
		compared++
	}
	if compared < 20 {
		t.Fatalf("compared %d answers", compared)
	}

	page := post(t, n.RPCURL(), []byte(`{"jsonrpc":"2.0","id":1,"method":"query","params":{"service":"LinkedDomains","limit":256}}`))
	var res struct{ Total int }
	if err := json.Unmarshal(page["result"], &res); err != nil || res.Total == 0 {
		t.Errorf("query by service: %s %s (%v)", page["result"], page["error"], err)
	}

	last := up.Manifest.Checkpoints[len(up.Manifest.Checkpoints)-1].Head
	height := get(t, n.RESTURL()+"/block/height")
	if string(height["Result"]) == "0" || string(height["Error"]) != "0" {
		t.Errorf("height %s, error %s; the recording's last checkpoint is at block %d", height["Result"], height["Error"], last)
	}
	state := get(t, n.RESTURL()+"/node/state")
	var st struct {
		Light struct {
			Mode       string
			Synced     struct{ Number uint64 }
			Operations struct{ Applied uint64 }
		}
	}
	if err := json.Unmarshal(state["Result"], &st); err != nil || st.Light.Mode != "eid-follower" || st.Light.Synced.Number < last || st.Light.Operations.Applied == 0 {
		t.Errorf("node state %s (%v)", state["Result"], err)
	}
	for _, path := range []string{"/block/details/height/1", "/transaction/" + strings.Repeat("0", 64), "/asset/utxos/EU3e23CtozdSvrtPEk1EUY2pMQN6Kbxm6C"} {
		r := get(t, n.RESTURL()+path)
		if string(r["Error"]) != "42001" || !strings.Contains(string(r["Result"]), "not served by an EID follower") {
			t.Errorf("GET %s: %s %s", path, r["Error"], r["Result"])
		}
	}
	r := post(t, n.RPCURL(), []byte(`{"jsonrpc":"2.0","id":1,"method":"getblockcount","params":{}}`))
	if !strings.Contains(string(r["error"]), "not served by an EID follower") {
		t.Errorf("getblockcount: %s", r["error"])
	}
}
