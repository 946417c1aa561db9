package node_test

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/didlight/didlight/core/eid"
	eidclient "github.com/didlight/didlight/host/client/eid"
	"github.com/didlight/didlight/host/internal/api"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/eidfollow"
	"github.com/didlight/didlight/host/internal/eidindex"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/eidtest"
	"github.com/didlight/didlight/host/internal/follow"
	"github.com/didlight/didlight/host/internal/light"
	"github.com/didlight/didlight/host/internal/node"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// readiness is a /ready answer as a load balancer reads it.
type readiness struct {
	status int
	Ready  bool    `json:"ready"`
	Reason *string `json:"reason"`
	Height *uint64 `json:"height"`
	Lag    *uint64 `json:"lag"`
}

// roots are the roots of a node's two listeners, where the probes are.
func roots(n *node.Node) []string {
	return []string{strings.TrimSuffix(n.RESTURL(), "/api/v1"), strings.TrimSuffix(n.RPCURL(), "/")}
}

// probe answers GET root+path, checking the headers every probe answer
// has. It is sent as a page of another site would send it: the browser
// policy refuses such a page nothing a probe answers.
func probe(t *testing.T, root, path string) (int, []byte) {
	t.Helper()
	resp, b := send(t, "GET", root+path, "", "Origin", "https://elsewhere.example", "Sec-Fetch-Site", "cross-site")
	if ct := resp.Header.Get("Content-Type"); !strings.HasPrefix(ct, "application/json") {
		t.Errorf("GET %s%s: Content-Type %q", root, path, ct)
	}
	if cc := resp.Header.Get("Cache-Control"); cc != "no-store" {
		t.Errorf("GET %s%s: Cache-Control %q, want no-store", root, path, cc)
	}
	return resp.StatusCode, []byte(b)
}

// ready reads /ready on both listeners, checks they agree and that the
// body is what its status says, and returns it.
func ready(t *testing.T, n *node.Node) readiness {
	t.Helper()
	var first readiness
	for i, root := range roots(n) {
		status, b := probe(t, root, "/ready")
		r := readiness{status: status}
		if err := json.Unmarshal(b, &r); err != nil {
			t.Fatalf("GET %s/ready: %v: %s", root, err, b)
		}
		switch {
		case r.Height == nil || r.Lag == nil:
			t.Fatalf("GET %s/ready: no height or lag: %s", root, b)
		case r.Ready && (status != http.StatusOK || r.Reason != nil):
			t.Fatalf("GET %s/ready: ready with status %d: %s", root, status, b)
		case !r.Ready && (status != http.StatusServiceUnavailable || r.Reason == nil || *r.Reason == ""):
			t.Fatalf("GET %s/ready: not ready with status %d: %s", root, status, b)
		}
		if i == 0 {
			first = r
		} else if r.Ready != first.Ready {
			// The state may change between the two requests: ask again.
			return ready(t, n)
		}
	}
	return first
}

// waitReady waits until the node's readiness is want, and returns it.
func waitReady(t *testing.T, n *node.Node, want bool) readiness {
	t.Helper()
	return waitUntil(t, n, func(r readiness) bool { return r.Ready == want })
}

// waitUntil waits until the node's readiness is one ok accepts, and
// returns it.
func waitUntil(t *testing.T, n *node.Node, ok func(readiness) bool) readiness {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for {
		r := ready(t, n)
		if ok(r) {
			return r
		}
		if time.Now().After(deadline) {
			t.Fatalf("/ready is still %+v (height %d, lag %d) after 20s", r, *r.Height, *r.Lag)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// checkHealth checks /health on both listeners.
func checkHealth(t *testing.T, n *node.Node) {
	t.Helper()
	for _, root := range roots(n) {
		if status, b := probe(t, root, "/health"); status != http.StatusOK || string(b) != `{"status":"ok"}` {
			t.Errorf("GET %s/health: %d %s", root, status, b)
		}
	}
}

// A devnet is ready while it serves, at its tip, on both listeners.
func TestReadyDevnet(t *testing.T) {
	c := openChain(t)
	n, err := node.Start(c, node.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	checkHealth(t, n)
	if r := ready(t, n); !r.Ready || *r.Height != 0 || *r.Lag != 0 {
		t.Errorf("/ready of a new devnet: %+v", r)
	}
	if _, err := c.Mine(context.Background()); err != nil {
		t.Fatal(err)
	}
	if r := ready(t, n); !r.Ready || *r.Height != 1 {
		t.Errorf("/ready after a block: %+v, want height 1", r)
	}
}

// gate stands between a follower and its upstream: it can hang up on
// every request (the upstream gone), hold the requests for blocks until
// released (a follower that knows the upstream's height but has not
// fetched its blocks yet), or answer the upstream's height with a pinned
// one, so that blocks mined meanwhile reach the follower's poll at once.
type gate struct {
	down, stall atomic.Bool
	pin         atomic.Int64 // the height answered plus one; 0: the upstream's
	url         string
}

func newGate(t *testing.T, upstream string) *gate {
	u, err := url.Parse(upstream)
	if err != nil {
		t.Fatal(err)
	}
	g := &gate{}
	proxy := httputil.NewSingleHostReverseProxy(&url.URL{Scheme: u.Scheme, Host: u.Host})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if g.down.Load() {
			panic(http.ErrAbortHandler) // closes the connection without an answer
		}
		if pin := g.pin.Load(); pin > 0 && strings.HasSuffix(r.URL.Path, "/block/height") {
			fmt.Fprintf(w, `{"Desc":"Success","Error":0,"Result":%d}`, pin-1)
			return
		}
		for g.stall.Load() && strings.Contains(r.URL.Path, "/details/") {
			select {
			case <-r.Context().Done():
				return
			case <-time.After(5 * time.Millisecond):
			}
		}
		proxy.ServeHTTP(w, r)
	}))
	t.Cleanup(srv.Close)
	g.url = srv.URL + "/api/v1"
	return g
}

// A didlight follower is ready once it holds its upstream's chain; not
// while the upstream is unreachable, nor while it is more blocks behind
// than --ready-max-lag; ready again once it has caught up.
func TestReadyFollower(t *testing.T) {
	up := openChain(t)
	upstream, err := node.Start(up, node.Config{})
	if err != nil {
		t.Fatal(err)
	}
	defer upstream.Stop()
	g := newGate(t, upstream.RESTURL())

	c, err := chain.Open(chain.Config{DB: mem.New(), Follower: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	f, err := follow.New(follow.Config{Upstream: g.url, Chain: c, Self: func() string { return "" },
		Poll: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	n, err := node.Start(c, node.Config{Run: f.Run, API: api.Options{Follower: f, ReadyMaxLag: 2}})
	if err != nil {
		t.Fatal(err)
	}
	defer n.Stop()
	checkHealth(t, n)
	if r := waitReady(t, n, true); *r.Height != 0 || *r.Lag != 0 {
		t.Errorf("a follower of a new chain: %+v", r)
	}

	g.down.Store(true)
	r := waitReady(t, n, false)
	if !strings.Contains(*r.Reason, "upstream unreachable") {
		t.Errorf("with the upstream gone: %+v, reason %q", r, *r.Reason)
	}
	checkHealth(t, n) // the process still serves
	g.down.Store(false)
	waitReady(t, n, true)

	// The follower sees the 3 blocks at once: a poll between two of them
	// would leave it fetching a block it cannot get, lag 1 or 2.
	g.pin.Store(1)
	if _, err := devnet.MineBlocks(context.Background(), up, 3, 0); err != nil {
		t.Fatal(err)
	}
	g.stall.Store(true)
	g.pin.Store(0)
	r = waitReady(t, n, false)
	if *r.Lag != 3 || !strings.Contains(*r.Reason, "3 blocks behind") {
		t.Errorf("3 blocks behind with --ready-max-lag 2: %+v, reason %q", r, *r.Reason)
	}
	g.stall.Store(false)
	waitUntil(t, n, func(r readiness) bool { return r.Ready && *r.Height == 3 && *r.Lag == 0 })
}

// A light node is ready while its EID upstream confirms its head, at that
// head; not while the upstream is gone; ready again when it is back.
func TestReadyLight(t *testing.T) {
	var down atomic.Bool
	n, up := startLight(t, &down, nil)
	checkHealth(t, n)
	head := up.Manifest.Checkpoints[len(up.Manifest.Checkpoints)-1].Head
	if r := waitReady(t, n, true); *r.Height != head || *r.Lag != 0 {
		t.Errorf("a light node: %+v, want height %d", r, head)
	}
	down.Store(true)
	r := waitReady(t, n, false)
	if !strings.Contains(*r.Reason, "has not confirmed its head") || *r.Height != head {
		t.Errorf("with the upstream gone: %+v, reason %q", r, *r.Reason)
	}
	checkHealth(t, n)
	down.Store(false)
	waitReady(t, n, true)
}

// testEIDClient is a client of the EID node at url that gives up quickly.
func testEIDClient(t *testing.T, url string) *eidclient.Client {
	t.Helper()
	client, err := eidclient.New(eidclient.Config{Network: eidclient.Network{Endpoints: []string{url}}, Budget: -1,
		RequestTimeout: time.Second, CallTimeout: time.Second, Retries: 1, Backoff: 10 * time.Millisecond, MaxBackoff: 20 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	return client
}

// startLight starts a light node in front of the replayed EID node, which
// hangs up while down, with its metrics in reg when reg is not nil.
func startLight(t *testing.T, down *atomic.Bool, reg func(*light.Resolver) *prometheus.Registry) (*node.Node, *eidtest.Upstream) {
	t.Helper()
	up := eidtest.NewReplay(t, eidtest.Options{Fault: hangUpWhile(down)})
	r := light.New(light.Config{Client: testEIDClient(t, up.URL), Poll: 20 * time.Millisecond})
	var opts api.Options
	if reg != nil {
		opts.Metrics = reg(r)
	}
	n, err := node.StartLight(r, node.Config{API: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	return n, up
}

// An EID follower is ready once its index has caught up with the replayed
// EID node; not while that node is gone; ready again when it is back.
func TestReadyEIDFollower(t *testing.T) {
	var down atomic.Bool
	n, up, _ := startEIDFollower(t, &down, nil)
	checkHealth(t, n)
	head := up.Manifest.Checkpoints[len(up.Manifest.Checkpoints)-1].Head
	if r := waitReady(t, n, true); *r.Height != head || *r.Lag != 0 {
		t.Errorf("an EID follower caught up: %+v, want height %d", r, head)
	}
	down.Store(true)
	r := waitReady(t, n, false)
	if !strings.Contains(*r.Reason, "EID upstream failed") {
		t.Errorf("with the upstream gone: %+v, reason %q", r, *r.Reason)
	}
	checkHealth(t, n)
	down.Store(false)
	waitReady(t, n, true)
}

// startEIDFollower starts an EID follower of the replayed EID node, which
// hangs up while down, with its metrics in reg when reg is not nil.
func startEIDFollower(t *testing.T, down *atomic.Bool, reg func(*eidindex.Index, *eidsync.Scanner) *prometheus.Registry) (*node.Node, *eidtest.Upstream, *eidsync.Scanner) {
	t.Helper()
	up := eidtest.NewReplay(t, eidtest.Options{Fault: hangUpWhile(down)})
	client := testEIDClient(t, up.URL)
	ix, err := eidindex.Open(eidindex.Config{DB: mem.New(), Network: eid.NetworkOf(up.Manifest.ChainID)})
	if err != nil {
		t.Fatal(err)
	}
	scan, err := eidsync.New(eidsync.Config{Upstream: client, Sink: ix, Contract: up.Manifest.Contract, Poll: 10 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	var opts api.Options
	if reg != nil {
		opts.Metrics = reg(ix, scan)
	}
	n, err := node.StartEIDFollower(eidfollow.New(ix, scan, up.URL), node.Config{API: opts})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { n.Stop() })
	return n, up, scan
}

// hangUpWhile is an eidtest fault: hang up on every request while down.
func hangUpWhile(down *atomic.Bool) func(int) eidtest.Fault {
	return func(int) eidtest.Fault {
		if down.Load() {
			return eidtest.Hangup
		}
		return eidtest.NoFault
	}
}
