package eid_test

import (
	"context"
	"errors"
	"fmt"
	"math"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/didlight/didlight/host/client/eid"
)

// urls returns the order of endpoints as URLs.
func urls(eps []eid.Endpoint) []string {
	out := make([]string, len(eps))
	for i, e := range eps {
		out[i] = e.URL
	}
	return out
}

// down makes n answer 503 to everything while *on is true.
func down(n *node, on *atomic.Bool) {
	n.fail = func(string, int) fault {
		if on.Load() {
			return status(http.StatusServiceUnavailable)
		}
		return nil
	}
}

// TestChoice checks that the first call probes every endpoint and asks
// the one the SDKs would choose: among those that answered, the fastest
// within MaxLag blocks of the best. Here one is alone within it, so that
// speed does not decide.
func TestChoice(t *testing.T) {
	dead, behind, best := newNode(t, 22, 0), newNode(t, 22, 109), newNode(t, 22, 120)
	dead.fail = func(string, int) fault { return status(http.StatusBadGateway) }
	c := newClient(t, quick, dead, behind, best)
	if _, err := c.ResolveDID(context.Background(), mustDID(t, knownDID), false); err != nil {
		t.Fatal(err)
	}
	if got, want := urls(c.Endpoints()), []string{best.URL, behind.URL, dead.URL}; fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("order %v, want %v (the best, the one 11 blocks behind, the one that failed)", got, want)
	}
	for _, tc := range []struct {
		name                        string
		n                           *node
		chainID, blockNumber, calls int
	}{
		{"best", best, 1, 1, 1},
		{"behind", behind, 1, 1, 0},
		{"dead", dead, 1, 0, 0}, // its chain id is asked, in vain: no block number then
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := [3]int{tc.n.count("eth_chainId"), tc.n.count("eth_blockNumber"), tc.n.count("did_resolveDID")}; got != [3]int{tc.chainID, tc.blockNumber, tc.calls} {
				t.Errorf("eth_chainId, eth_blockNumber, did_resolveDID requests %v, want %v", got, [3]int{tc.chainID, tc.blockNumber, tc.calls})
			}
		})
	}
	eps := c.Endpoints()
	if eps[0].Block != 120 || !eps[0].Answered || eps[0].ChainID != 22 || eps[0].Err != nil || eps[2].Answered || eps[2].Err == nil {
		t.Errorf("endpoints %+v", eps)
	}
}

// TestFailover checks that a call goes on to the next endpoint when the
// chosen one fails, that the next call probes again, and that an
// endpoint that answers again is chosen again after a probe.
func TestFailover(t *testing.T) {
	first, second := newNode(t, 22, 120), newNode(t, 22, 100)
	var firstDown atomic.Bool
	down(first, &firstDown)
	c := newClient(t, eid.Config{Reprobe: -1, Backoff: time.Millisecond}, first, second)
	ctx := context.Background()
	d := mustDID(t, knownDID)
	step := func(name string, wantFirst *node, counts [4]int) {
		t.Helper()
		if _, err := c.ResolveDID(ctx, d, true); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		if got := c.Endpoints()[0].URL; got != wantFirst.URL {
			t.Errorf("%s: %s first, want %s", name, got, wantFirst.URL)
		}
		got := [4]int{first.count("eth_blockNumber"), first.count("did_resolveDID"), second.count("eth_blockNumber"), second.count("did_resolveDID")}
		if got != counts {
			t.Errorf("%s: eth_blockNumber and did_resolveDID of first, then second: %v, want %v", name, got, counts)
		}
	}
	step("both up", first, [4]int{1, 1, 1, 0})
	firstDown.Store(true)
	step("first down: the second answers", second, [4]int{1, 2, 1, 1})
	step("probed again: the second is chosen", second, [4]int{2, 2, 2, 2})
	firstDown.Store(false)
	step("first up, no probe yet", second, [4]int{2, 2, 2, 3})
	if eps := c.Probe(ctx); eps[0].URL != first.URL {
		t.Errorf("Probe: order %v, want the first again", urls(eps))
	}
	step("probed: the first again", first, [4]int{3, 3, 3, 3})
}

// TestReprobe checks when calls probe the endpoints, by counting the
// probes five calls make.
func TestReprobe(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		nodes                int
		chainID              uint64
		reprobe              time.Duration
		chainIDs, blockNumbs int // per node
	}{
		{"one endpoint: never", 1, 0, time.Nanosecond, 0, 0},
		{"one endpoint of a named chain: its chain checked", 1, 22, -1, 1, 1},
		{"two endpoints, only once", 2, 0, -1, 1, 1},
		{"two endpoints, by default once a minute", 2, 0, 0, 1, 1},
		{"two endpoints, each call", 2, 0, time.Nanosecond, 1, 5},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var nodes []*node
			for range tc.nodes {
				nodes = append(nodes, newNode(t, 22, 50))
			}
			c := newClient(t, eid.Config{Network: eid.Network{ChainID: tc.chainID}, Reprobe: tc.reprobe}, nodes...)
			for range 5 {
				if _, err := c.ResolveDID(context.Background(), mustDID(t, knownDID), false); err != nil {
					t.Fatal(err)
				}
			}
			for _, n := range nodes {
				if got := [2]int{n.count("eth_chainId"), n.count("eth_blockNumber")}; got != [2]int{tc.chainIDs, tc.blockNumbs} {
					t.Errorf("%s: eth_chainId, eth_blockNumber requests %v, want %v", n.URL, got, [2]int{tc.chainIDs, tc.blockNumbs})
				}
			}
		})
	}
}

// TestChainID checks that an endpoint on another chain than the
// network's is never asked, and that the errors say why.
func TestChainID(t *testing.T) {
	main, test := newNode(t, eid.MainnetChainID, 100), newNode(t, eid.TestnetChainID, 100)
	var mainDown atomic.Bool
	down(main, &mainDown)
	c := newClient(t, eid.Config{Network: eid.Network{ChainID: eid.MainnetChainID}, Backoff: time.Millisecond}, test, main)
	ctx := context.Background()
	d := mustDID(t, knownDID)
	if _, err := c.ResolveDID(ctx, d, false); err != nil {
		t.Fatal(err)
	}
	eps := c.Endpoints()
	if eps[0].URL != main.URL || eps[1].ChainID != eid.TestnetChainID || !errors.Is(eps[1].Err, eid.ErrWrongChain) {
		t.Errorf("endpoints %+v, want the mainnet one first and the testnet one wrong", eps)
	}
	mainDown.Store(true)
	_, err := c.ResolveDID(ctx, d, false)
	if !errors.Is(err, eid.ErrWrongChain) || !strings.Contains(err.Error(), test.URL+": another chain: it answers eth_chainId 23, the network is 22") ||
		!strings.Contains(err.Error(), main.URL+": HTTP 503") {
		t.Errorf("error %v, want the testnet endpoint's chain and the mainnet one's 503", err)
	}
	if test.count("did_resolveDID") != 0 || test.count("eth_blockNumber") != 0 {
		t.Errorf("the endpoint on another chain was asked %d resolves and %d block numbers", test.count("did_resolveDID"), test.count("eth_blockNumber"))
	}

	t.Run("a network of URLs takes the first chain answered", func(t *testing.T) {
		a, b := newNode(t, 22, 100), newNode(t, 23, 100)
		c := newClient(t, eid.Config{}, a, b)
		if _, err := c.ChainID(ctx); err != nil {
			t.Fatal(err)
		}
		wrong := 0
		for _, e := range c.Endpoints() {
			if errors.Is(e.Err, eid.ErrWrongChain) {
				wrong++
			}
		}
		if wrong != 1 {
			t.Errorf("%d endpoints on the wrong chain, want 1: %+v", wrong, c.Endpoints())
		}
	})
}

// TestBudget checks the request budget by counting what the endpoint
// gets: at most the burst, plus the rate for the time the calls took.
func TestBudget(t *testing.T) {
	for _, tc := range []struct {
		name          string
		budget        float64
		burst         int
		calls         int
		unlimited     bool
		wantAtLeast   int
		wantErrBudget bool
	}{
		{"2 a second, 3 at once", 2, 3, 20, false, 3, true},
		{"one at once", 1, 1, 10, false, 1, true},
		{"no budget", -1, 0, 20, true, 20, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			n := newNode(t, 22, 16)
			c := newClient(t, eid.Config{Budget: tc.budget, Burst: tc.burst, CallTimeout: 300 * time.Millisecond, Retries: -1}, n)
			start := time.Now()
			var wg sync.WaitGroup
			var refused atomic.Int32
			for range tc.calls {
				wg.Go(func() {
					_, err := c.BlockNumber(context.Background())
					if errors.Is(err, eid.ErrBudget) && strings.Contains(err.Error(), "request budget spent") {
						refused.Add(1)
					} else if err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			elapsed := time.Since(start)
			got := n.count("")
			atMost := tc.calls
			if !tc.unlimited {
				atMost = min(atMost, tc.burst+int(math.Ceil(tc.budget*elapsed.Seconds())))
			}
			if got < tc.wantAtLeast || got > atMost {
				t.Errorf("%d requests in %v, want %d to %d", got, elapsed, tc.wantAtLeast, atMost)
			}
			if int(refused.Load())+got != tc.calls {
				t.Errorf("%d calls refused by the budget and %d requests, want %d in all", refused.Load(), got, tc.calls)
			}
			if tc.wantErrBudget != (refused.Load() > 0) {
				t.Errorf("%d calls refused by the budget", refused.Load())
			}
		})
	}
}

// TestUnserved checks which error answers end a call and which send it
// on to the next endpoint: an endpoint without the method (EID without
// its did API) does not serve it, but one that answers the request with
// an error has answered.
func TestUnserved(t *testing.T) {
	for _, tc := range []struct {
		name          string
		answer        fault
		ok            bool
		secondAsked   int
		wantInFailure string
	}{
		{"method not found", nil, true, 1, ""},
		{"invalid request", body(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32600,"message":"invalid request"}}`), true, 1, ""},
		{"the node's own error", body(`{"jsonrpc":"2.0","id":%s,"error":{"code":-32000,"message":"get did transaction failed"}}`), false, 0, "node answered error -32000: get did transaction failed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			first, second := newNode(t, 22, 120), newNode(t, 22, 100)
			first.noDID = true
			if tc.answer != nil {
				first.fail = func(method string, _ int) fault {
					if method == "did_resolveDID" {
						return tc.answer
					}
					return nil
				}
			}
			c := newClient(t, eid.Config{}, first, second)
			_, err := c.ResolveDID(context.Background(), mustDID(t, knownDID), false)
			if tc.ok != (err == nil) || (err != nil && !strings.Contains(err.Error(), first.URL+": "+tc.wantInFailure)) {
				t.Errorf("error %v, want ok %v or %q", err, tc.ok, tc.wantInFailure)
			}
			if first.count("did_resolveDID") != 1 || second.count("did_resolveDID") != tc.secondAsked {
				t.Errorf("asked the first %d times and the second %d times, want once and %d", first.count("did_resolveDID"), second.count("did_resolveDID"), tc.secondAsked)
			}
		})
	}
}
