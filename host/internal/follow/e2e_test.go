package follow_test

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/follow"
	hostnode "github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// node is a didlight node in this process: a chain, its API on loopback,
// and its block producer or, for a follower, its Follower.
type node struct {
	t    *testing.T
	c    *chain.Chain
	srv  *api.Server
	stop func()
}

// startNode starts a producing node (upstream "") or a follower of
// upstream, on a store in dir ("" keeps it in memory).
func startNode(t *testing.T, dir, upstream string) *node {
	t.Helper()
	var db store.DB = mem.New()
	if dir != "" {
		var err error
		if db, err = bolt.Open(dir, bolt.Options{}); err != nil {
			t.Fatal(err)
		}
	}
	c, err := chain.Open(chain.Config{DB: db, Follower: upstream != ""})
	if err != nil {
		t.Fatal(err)
	}
	n := &node{t: t, c: c}
	var f *follow.Follower
	var self atomic.Pointer[hostnode.Node] // the node, once it runs: the follower announces its REST URL
	if upstream != "" {
		f, err = follow.New(follow.Config{Upstream: upstream, Chain: c, Self: func() string {
			if n := self.Load(); n != nil {
				return n.RESTURL()
			}
			return ""
		},
			Poll: 10 * time.Millisecond, MaxBackoff: 50 * time.Millisecond})
		if err != nil {
			t.Fatal(err)
		}
	}
	cfg := hostnode.Config{API: api.Options{Follower: f, Peers: follow.NewPeers(nil)}}
	if f != nil {
		cfg.Run = f.Run
	}
	running, err := hostnode.Start(c, cfg)
	if err != nil {
		t.Fatal(err)
	}
	n.srv = running.Server
	self.Store(running)
	n.stop = sync.OnceFunc(func() {
		if err := running.Stop(); err != nil {
			t.Errorf("stopping the node: %v", err)
		}
		c.Close()
		db.Close()
	})
	t.Cleanup(n.stop)
	return n
}

// call sends a request and returns the status and body of the answer.
func (n *node) call(method, u, body string) (int, []byte) {
	n.t.Helper()
	req, err := http.NewRequest(method, u, strings.NewReader(body))
	if err != nil {
		n.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		n.t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		n.t.Fatal(err)
	}
	return resp.StatusCode, b
}

// rest returns the REST envelope of GET path.
func (n *node) rest(path string, result any) {
	n.t.Helper()
	_, b := n.call("GET", n.srv.RESTURL()+path, "")
	var env struct {
		Error  int
		Result json.RawMessage
	}
	if err := json.Unmarshal(b, &env); err != nil || env.Error != 0 || json.Unmarshal(env.Result, result) != nil {
		n.t.Fatalf("GET %s: %s", path, b)
	}
}

// resolve returns the resolvedid answer for d, all history.
func (n *node) resolve(d did.DID) string {
	n.t.Helper()
	_, b := n.call("POST", n.srv.RPCURL(), `{"jsonrpc":"2.0","id":1,"method":"resolvedid","params":{"did":"`+d.String()+`","all":true}}`)
	return string(b)
}

// publish posts a signed create of a new DID to n's /idtx and returns the
// DID.
func (n *node) publish(name string) did.DID {
	n.t.Helper()
	seed := keys.DoubleSHA256([]byte("follow e2e " + name))
	key, err := keys.NewPrivateKey(seed[:])
	if err != nil {
		n.t.Fatal(err)
	}
	doc, err := did.NewDocument(key.Public(), chain.GenesisTime.AddDate(5, 0, 0))
	if err != nil {
		n.t.Fatal(err)
	}
	primary := did.URL{DID: did.FromKey(key.Public()), Fragment: did.PrimaryKey}
	if doc, err = doc.Sign(key, primary, chain.GenesisTime); err != nil {
		n.t.Fatal(err)
	}
	req, err := idop.NewCreate(doc, primary, key)
	if err != nil {
		n.t.Fatal(err)
	}
	body, _ := json.Marshal(req)
	if status, answer := n.call("POST", n.srv.RPCURL()+"idtx", string(body)); status != http.StatusAccepted {
		n.t.Fatalf("/idtx on %s: %d %s", n.srv.RPCURL(), status, answer)
	}
	return primary.DID
}

func (n *node) nodeState() (id uint64, neighbors []follow.Neighbor) {
	n.t.Helper()
	var st struct {
		ID        uint64
		Neighbors []follow.Neighbor
	}
	n.rest("/node/state", &st)
	return st.ID, st.Neighbors
}

func TestFollowEndToEnd(t *testing.T) {
	up := startNode(t, "", "")
	alice := up.publish("alice")
	dir := t.TempDir()
	fo := startNode(t, dir, strings.TrimSuffix(up.srv.RESTURL(), "/api/v1"))
	waitFor(t, "the follower catches up", synced(fo.c, up.c))

	// A DID published through the follower resolves at once, the same on both.
	bob := fo.publish("bob")
	for _, d := range []did.DID{alice, bob} {
		got, want := fo.resolve(d), up.resolve(d)
		if got != want || !strings.Contains(got, `"status":0`) {
			t.Errorf("resolve %s: follower %s, upstream %s", d, got, want)
		}
	}

	// A broadcast through the follower gets the upstream's answers.
	dev := up.c.DevAccount()
	outs, err := up.c.UTXOs(dev.ProgramHash)
	if err != nil || len(outs) == 0 {
		t.Fatalf("dev outputs: %v %v", outs, err)
	}
	tx := &ela.Tx{Payload: &ela.TransferAsset{}, Inputs: []ela.Input{{TxID: outs[0].Txid, Index: outs[0].Index}},
		Outputs: []ela.Output{{AssetID: ela.ELAAssetID(), Value: outs[0].Value - 100, ProgramHash: dev.ProgramHash}}}
	tx.SignStandard(dev.PrivateKey)
	send := func(n *node, raw []byte) string {
		_, b := n.call("POST", n.srv.RESTURL()+"/transaction", `{"Action":"sendrawtransaction","data":"`+hex.EncodeToString(raw)+`"}`)
		return string(b)
	}
	if got := send(fo, tx.Bytes()); !strings.Contains(got, `"Result":"`+tx.Hash().String()+`"`) {
		t.Errorf("broadcast through the follower: %s, want the txid %s", got, tx.Hash())
	}
	waitFor(t, "the follower holds the payment", func() bool { _, _, err := fo.c.Tx(tx.Hash()); return err == nil })
	if got, want := send(fo, tx.Bytes()), send(up, tx.Bytes()); got != want || !strings.Contains(got, `"Error":45`) {
		t.Errorf("a duplicate broadcast through the follower: %s, the upstream answers %s", got, want)
	}
	// sendrawtransaction is relayed the same way, and fails as the upstream's does.
	rpcSend := func(n *node) string {
		_, b := n.call("POST", n.srv.RPCURL(), `{"jsonrpc":"2.0","id":1,"method":"sendrawtransaction","params":["`+hex.EncodeToString(tx.Bytes())+`"]}`)
		return string(b)
	}
	if got, want := rpcSend(fo), rpcSend(up); got != want || !strings.Contains(got, `"code":45011`) {
		t.Errorf("sendrawtransaction of a duplicate through the follower: %s, the upstream answers %s", got, want)
	}

	// Devnet controls are the upstream's alone.
	if status, b := fo.call("POST", fo.srv.RPCURL()+"reset", ""); status != http.StatusForbidden {
		t.Errorf("/reset on the follower: %d %s", status, b)
	}
	if status, b := fo.call("POST", fo.srv.RPCURL()+"reset?time=2025-12-01T00:00:00Z", ""); status != http.StatusForbidden {
		t.Errorf("/reset?time= on the follower: %d %s", status, b)
	}
	for _, m := range []string{"dev_mine", "dev_increaseTime", "dev_setNextBlockTime", "dev_reset", "dev_snapshot", "dev_revert"} {
		if _, b := fo.call("POST", fo.srv.RPCURL(), `{"jsonrpc":"2.0","id":1,"method":"`+m+`","params":{"seconds":60}}`); !strings.Contains(string(b), `"code":-32601`) {
			t.Errorf("%s on the follower: %s", m, b)
		}
	}

	// Each lists the other as a neighbor.
	upID, upNeighbors := up.nodeState()
	foID, foNeighbors := fo.nodeState()
	upAddr, foAddr := hostOf(t, up.srv.RESTURL()), hostOf(t, fo.srv.RESTURL())
	if len(foNeighbors) != 1 || foNeighbors[0].ID != upID || foNeighbors[0].NetAddress != upAddr || foNeighbors[0].State != follow.StateEstablished {
		t.Errorf("the follower's neighbors %+v, want the upstream %#x at %s", foNeighbors, upID, upAddr)
	}
	if len(upNeighbors) != 1 || upNeighbors[0].ID != foID || upNeighbors[0].NetAddress != foAddr {
		t.Errorf("the upstream's neighbors %+v, want the follower %#x at %s", upNeighbors, foID, foAddr)
	}
	// JSON-RPC names them as ELA names peers: the upstream is reached out
	// to, the follower comes in.
	for i, tc := range []struct {
		n       *node
		peer    string
		inbound bool
	}{{fo, upAddr + " (outbound)", false}, {up, foAddr + " (inbound)", true}} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			rpc := func(method string) string {
				_, b := tc.n.call("POST", tc.n.srv.RPCURL(), `{"jsonrpc":"2.0","id":1,"method":"`+method+`"}`)
				return string(b)
			}
			if got := rpc("getneighbors"); !strings.Contains(got, `"result":["`+tc.peer+`"]`) {
				t.Errorf("getneighbors: %s, want %s", got, tc.peer)
			}
			if got := rpc("getconnectioncount"); !strings.Contains(got, `"result":1`) {
				t.Errorf("getconnectioncount: %s", got)
			}
			want := fmt.Sprintf(`"neighbors":[{"netaddress":%q,"services":"0x0","relaytx":%t,`, strings.Fields(tc.peer)[0], !tc.inbound)
			if got := rpc("getnodestate"); !strings.Contains(got, want) || !strings.Contains(got, fmt.Sprintf(`"inbound":%t`, tc.inbound)) {
				t.Errorf("getnodestate: %s, want %s", got, want)
			}
		})
	}

	// Restarted on its data directory, the follower resumes from its tip.
	fo.stop()
	at, hash, _ := fo.c.Tip()
	carol := up.publish("carol")
	fo = startNode(t, dir, up.srv.RESTURL())
	if h, again, _ := fo.c.Tip(); h != at || again != hash {
		t.Fatalf("reopened at %d %s, stopped at %d %s", h, again, at, hash)
	}
	waitFor(t, "the restarted follower catches up", synced(fo.c, up.c))
	for _, d := range []did.DID{alice, bob, carol} {
		if got, want := fo.resolve(d), up.resolve(d); got != want {
			t.Errorf("after restart, resolve %s: follower %s, upstream %s", d, got, want)
		}
	}
}

func hostOf(t *testing.T, u string) string {
	t.Helper()
	p, err := url.Parse(u)
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := net.SplitHostPort(p.Host); err != nil {
		t.Fatal(err)
	}
	return p.Host
}
