package follow_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/chain"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/follow"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// openChain opens a chain in memory; follower makes it a follower's.
func openChain(t *testing.T, seed string, follower bool) *chain.Chain {
	t.Helper()
	c, err := chain.Open(chain.Config{DB: mem.New(), DevSeed: seed, Follower: follower})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// mine makes n blocks on c, the first one after moving its clock by skew
// (so that chains mining at the same moment still differ).
func mine(t *testing.T, c *chain.Chain, n int, skew time.Duration) {
	t.Helper()
	if skew > 0 {
		if _, err := devnet.IncreaseTime(c, skew); err != nil {
			t.Fatal(err)
		}
		n--
	}
	for range n {
		if _, err := c.Mine(context.Background()); err != nil {
			t.Fatal(err)
		}
	}
}

// upstream serves the REST reads a follower makes from a producing chain,
// with a fault that may answer instead.
type upstream struct {
	peers *follow.Peers

	mu    sync.Mutex
	chain *chain.Chain
	fault func(w http.ResponseWriter, r *http.Request) bool // answers instead when it returns true
}

func newUpstream(t *testing.T, c *chain.Chain) (*upstream, *httptest.Server) {
	u := &upstream{chain: c, peers: follow.NewPeers(nil)}
	srv := httptest.NewServer(u)
	t.Cleanup(srv.Close)
	return u, srv
}

func (u *upstream) set(c *chain.Chain, fault func(http.ResponseWriter, *http.Request) bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	u.chain, u.fault = c, fault
}

func (u *upstream) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	u.peers.Observe(r)
	u.mu.Lock()
	c, fault := u.chain, u.fault
	u.mu.Unlock()
	if fault != nil && fault(w, r) {
		return
	}
	path := strings.TrimPrefix(r.URL.Path, "/api/v1")
	tip, _, _ := c.Tip()
	height := func(prefix string) uint32 {
		n, _ := strconv.ParseUint(strings.TrimPrefix(path, prefix), 10, 32)
		return uint32(n)
	}
	switch {
	case path == "/node/state":
		writeResult(w, map[string]any{"ID": 7, "Height": tip, "PRCPort": 20336, "RestPort": 20334})
	case path == "/block/height":
		writeResult(w, tip)
	case strings.HasPrefix(path, "/block/hash/"):
		h, err := c.BlockHash(height("/block/hash/"))
		if err != nil {
			writeError(w, err)
			return
		}
		writeResult(w, h.String())
	case strings.HasPrefix(path, "/block/details/height/"):
		b, ctx, err := c.BlockByHeight(height("/block/details/height/"))
		if err != nil {
			writeError(w, err)
			return
		}
		writeResult(w, b.JSON(ctx, true))
	case strings.HasPrefix(path, "/confirm/details/height/"):
		h, _ := c.BlockHash(height("/confirm/details/height/"))
		cf, err := c.Confirm(h)
		if err != nil {
			json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{"code": 44003, "message": err.Error()}, "id": nil, "jsonrpc": "2.0"})
			return
		}
		json.NewEncoder(w).Encode(map[string]any{"error": nil, "id": nil, "jsonrpc": "2.0", "result": cf.JSON()})
	default:
		http.NotFound(w, r)
	}
}

func writeResult(w http.ResponseWriter, v any) {
	json.NewEncoder(w).Encode(map[string]any{"Desc": "Success", "Error": 0, "Result": v})
}

func writeError(w http.ResponseWriter, err error) {
	json.NewEncoder(w).Encode(map[string]any{"Desc": "Unknown Block", "Error": 44003, "Result": err.Error()})
}

// logBuffer collects log lines.
type logBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (l *logBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.buf.Write(p)
}

func (l *logBuffer) count(s string) int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return strings.Count(l.buf.String(), s)
}

// running is a follower whose Run runs until the test stops it.
type running struct {
	f    *follow.Follower
	c    *chain.Chain
	log  *logBuffer
	stop context.CancelFunc
	done chan error
}

func startFollower(t *testing.T, c *chain.Chain, upstreamURL string) *running {
	t.Helper()
	log := &logBuffer{}
	f, err := follow.New(follow.Config{
		Upstream:   upstreamURL,
		Chain:      c,
		Self:       func() string { return "http://127.0.0.1:21334/api/v1" },
		Poll:       5 * time.Millisecond,
		MaxBackoff: 20 * time.Millisecond,
		Logger:     slog.New(slog.NewTextHandler(log, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	r := &running{f: f, c: c, log: log, stop: cancel, done: make(chan error, 1)}
	go func() { r.done <- f.Run(ctx) }()
	t.Cleanup(func() { r.halt(t) })
	return r
}

// halt stops Run and returns what it returned.
func (r *running) halt(t *testing.T) error {
	r.stop()
	select {
	case err := <-r.done:
		r.done <- err
		return err
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return within 5s of its context ending")
		return nil
	}
}

// waitFor polls cond until it holds, failing the test after 5 seconds.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting until %s", what)
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// synced reports whether the follower's tip is the upstream's.
func synced(f, up *chain.Chain) func() bool {
	return func() bool {
		h1, a, _ := f.Tip()
		h2, b, _ := up.Tip()
		return h1 == h2 && a == b
	}
}

func TestFollowerSyncs(t *testing.T) {
	up := openChain(t, "", false)
	mine(t, up, 5, 0)
	u, srv := newUpstream(t, up)
	fc := openChain(t, "", true)
	r := startFollower(t, fc, srv.URL) // the base without /api/v1
	waitFor(t, "the follower holds the upstream's 5 blocks", synced(fc, up))
	mine(t, up, 3, 0)
	waitFor(t, "the follower follows 3 more", synced(fc, up))

	peers := u.peers.Followers()
	if len(peers) != 1 || peers[0].ID != fc.Stats().NodeID || peers[0].NetAddress != "127.0.0.1:21334" {
		t.Errorf("the upstream sees followers %+v, want node %#x at 127.0.0.1:21334", peers, fc.Stats().NodeID)
	}
	n := r.f.Neighbor()
	if n.ID != 7 || n.State != follow.StateEstablished || n.Height != 8 || !n.Relay {
		t.Errorf("the follower shows its upstream as %+v", n)
	}
	if got := r.log.count("level=WARN"); got != 0 {
		t.Errorf("%d warnings while following a good upstream: %s", got, r.log.buf.String())
	}
}

func TestFollowerSurvivesBadUpstream(t *testing.T) {
	down := func(w http.ResponseWriter, r *http.Request) bool {
		http.Error(w, "upstream restarting", http.StatusServiceUnavailable)
		return true
	}
	for _, tc := range []struct {
		name  string
		fault func(u *upstream) func(http.ResponseWriter, *http.Request) bool
		warn  string
	}{
		{"down then up", func(*upstream) func(http.ResponseWriter, *http.Request) bool { return down }, "upstream unreachable or refusing"},
		{"truncated answer", func(u *upstream) func(http.ResponseWriter, *http.Request) bool {
			return u.edit(func(b []byte) []byte { return b[:len(b)/2] })
		}, "upstream unreachable or refusing"},
		{"bad block JSON", func(u *upstream) func(http.ResponseWriter, *http.Request) bool {
			return u.edit(func(b []byte) []byte { return bytes.Replace(b, []byte(`"height":`), []byte(`"height":"x","_":`), 1) })
		}, "upstream sent an invalid block"},
		{"wrong hash", func(u *upstream) func(http.ResponseWriter, *http.Request) bool {
			return u.edit(func(b []byte) []byte {
				var env struct{ Result ela.BlockJSON }
				json.Unmarshal(b, &env)
				env.Result.Nonce++ // the fields no longer hash to the stated hash
				out, _ := json.Marshal(map[string]any{"Desc": "Success", "Error": 0, "Result": env.Result})
				return out
			})
		}, "upstream sent an invalid block"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			up := openChain(t, "", false)
			mine(t, up, 2, 0)
			u, srv := newUpstream(t, up)
			fc := openChain(t, "", true)
			r := startFollower(t, fc, srv.URL+"/api/v1/")
			waitFor(t, "the follower holds 2 blocks", synced(fc, up))
			u.set(up, tc.fault(u))
			mine(t, up, 3, 0)
			waitFor(t, "the follower logs the trouble", func() bool { return r.log.count(tc.warn) > 0 })
			time.Sleep(100 * time.Millisecond) // several retries
			if h, _, _ := fc.Tip(); h != 2 {
				t.Fatalf("the follower moved to height %d through a faulty upstream", h)
			}
			if got := r.log.count("level=WARN"); got != 1 {
				t.Errorf("%d warnings for one trouble, want 1:\n%s", got, r.log.buf.String())
			}
			if n := r.f.Neighbor(); n.State != follow.StateInactive {
				t.Errorf("a failing upstream shows as %q", n.State)
			}
			u.set(up, nil)
			waitFor(t, "the follower catches up once the upstream is good", synced(fc, up))
			waitFor(t, "the follower logs the recovery", func() bool { return r.log.count("level=INFO msg=following") > 1 })
		})
	}
}

// edit returns a fault that serves u's genuine block answers edited.
func (u *upstream) edit(edit func([]byte) []byte) func(http.ResponseWriter, *http.Request) bool {
	u.mu.Lock()
	genuine := &upstream{chain: u.chain, peers: u.peers}
	u.mu.Unlock()
	return func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.Contains(r.URL.Path, "/block/details/height/") {
			return false
		}
		rec := httptest.NewRecorder()
		genuine.ServeHTTP(rec, r)
		w.Write(edit(rec.Body.Bytes()))
		return true
	}
}

func TestFollowerRefusesFork(t *testing.T) {
	a := openChain(t, "", false)
	mine(t, a, 2, 0)
	u, srv := newUpstream(t, a)
	fc := openChain(t, "", true)
	r := startFollower(t, fc, srv.URL)
	waitFor(t, "the follower holds chain a", synced(fc, a))
	b := openChain(t, "", false) // same genesis, other blocks
	mine(t, b, 4, time.Hour)
	u.set(b, nil)
	waitFor(t, "the follower reports the divergence", func() bool { return r.log.count("upstream diverged from our chain") > 0 })
	time.Sleep(50 * time.Millisecond)
	if h, hash, _ := fc.Tip(); h != 2 || !synced(fc, a)() {
		t.Fatalf("the follower left chain a for height %d %s", h, hash)
	}
	if got := r.log.count("level=WARN"); got != 1 {
		t.Errorf("%d warnings for one divergence, want 1:\n%s", got, r.log.buf.String())
	}
}

func TestFollowerGenesisMismatch(t *testing.T) {
	up := openChain(t, "", false)
	_, srv := newUpstream(t, up)
	fc := openChain(t, "another seed", true)
	r := startFollower(t, fc, srv.URL)
	var err error
	select {
	case err = <-r.done:
		r.done <- err
	case <-time.After(5 * time.Second):
		t.Fatal("Run goes on following another chain")
	}
	ge, ok := errors.AsType[*follow.GenesisError](err)
	theirs, _ := up.BlockHash(0)
	ours, _ := fc.BlockHash(0)
	if !ok || ge.Theirs != theirs || ge.Ours != ours {
		t.Fatalf("Run: %v, want a GenesisError naming %s and %s", err, theirs, ours)
	}
	for _, h := range []ela.Hash{theirs, ours} {
		if !strings.Contains(err.Error(), h.String()) {
			t.Errorf("the error does not name %s: %v", h, err)
		}
	}
}

func TestFollowerStopsMidSync(t *testing.T) {
	up := openChain(t, "", false)
	mine(t, up, 3, 0)
	u, srv := newUpstream(t, up)
	entered := make(chan struct{}, 1)
	u.set(up, func(w http.ResponseWriter, r *http.Request) bool {
		if !strings.Contains(r.URL.Path, "/block/details/height/2") {
			return false
		}
		select {
		case entered <- struct{}{}:
		default:
		}
		<-r.Context().Done() // hang until the follower gives up
		return true
	})
	fc := openChain(t, "", true)
	r := startFollower(t, fc, srv.URL)
	select {
	case <-entered:
	case <-time.After(5 * time.Second):
		t.Fatal("the follower never asked for block 2")
	}
	start := time.Now()
	if err := r.halt(t); err != nil {
		t.Errorf("Run after shutdown: %v, want nil", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Run took %v to stop", d)
	}
	if h, _, _ := fc.Tip(); h != 1 {
		t.Errorf("the follower stopped at height %d, want 1 (block 2 was in flight)", h)
	}
}

func TestNewRefuses(t *testing.T) {
	fc := openChain(t, "", true)
	self := func() string { return "" }
	for _, tc := range []struct {
		name string
		cfg  follow.Config
		want string
	}{
		{"bad URL", follow.Config{Upstream: "localhost:20334", Chain: fc, Self: self}, "scheme"},
		{"producing chain", follow.Config{Upstream: "http://h:1", Chain: openChain(t, "", false), Self: self}, "makes its own blocks"},
		{"no chain", follow.Config{Upstream: "http://h:1", Self: self}, "Chain is nil"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := follow.New(tc.cfg); err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("%s: New: %v, want an error about %q", tc.name, err, tc.want)
			}
		})
	}
}

func ExampleParseUpstream() {
	for _, s := range []string{"http://10.0.0.7:20334", "https://node.example/api/v1/", "http://10.0.0.7:20334/api/v2"} {
		base, err := follow.ParseUpstream(s)
		fmt.Println(base, err)
	}
	// Output:
	// http://10.0.0.7:20334/api/v1 <nil>
	// https://node.example/api/v1 <nil>
	//  follow: upstream "http://10.0.0.7:20334/api/v2": path "/api/v2" is not the REST API's base: want http://host:port/api/v1 (the upstream's REST API, port 20334 by default)
}

// A follower does not follow redirects: a relayed write would go, body and
// all, wherever the upstream pointed.
func TestFollowerRefusesRedirects(t *testing.T) {
	up := openChain(t, "", false)
	_, elsewhere := newUpstream(t, up)
	redirector := httptest.NewServer(http.RedirectHandler(elsewhere.URL+"/api/v1/node/state", http.StatusTemporaryRedirect))
	t.Cleanup(redirector.Close)
	f, err := follow.New(follow.Config{Upstream: redirector.URL, Chain: openChain(t, "", true), Self: func() string { return "" }})
	if err != nil {
		t.Fatal(err)
	}
	err = f.Check(context.Background())
	if err == nil || !strings.Contains(err.Error(), "redirected to "+elsewhere.URL) {
		t.Fatalf("Check through a redirecting upstream: %v, want a refusal naming where it pointed", err)
	}
}
