package eid

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"golang.org/x/time/rate"

	"github.com/didlight/didlight/host/client"
)

// endpoint is one node a Client asks.
type endpoint struct {
	url     string
	limiter *rate.Limiter // its request budget, safe for concurrent use

	// Guarded by pool.mu.
	probe     probe
	chainID   uint64    // what it answered eth_chainId with; 0 until then
	wrong     error     // set when it is on another chain: it is never asked again
	lastErr   error     // its last failure
	notBefore time.Time // what its last 429 or 503 asked for
}

// pool is the endpoints of a Client and their order. Lock order: probing
// (a channel, held through a whole probe) before mu.
type pool struct {
	eps     []*endpoint
	probes  bool          // whether probing can tell anything: several endpoints, or a chain id to check
	probing chan struct{} // holds a token while the endpoints are probed

	mu      sync.Mutex
	order   []int     // indices of eps, the chosen one first
	probed  time.Time // when the last probe ended; zero before the first
	stale   bool      // the chosen endpoint failed since
	chainID uint64    // the chain every endpoint must be on; 0 until one answered
}

// init sets p up for n's endpoints, each with a limiter of its own.
func (p *pool) init(n Network, limiter func() *rate.Limiter) {
	p.probes = len(n.Endpoints) > 1 || n.ChainID != 0
	p.probing = make(chan struct{}, 1)
	p.chainID = n.ChainID
	for i, u := range n.Endpoints {
		p.eps = append(p.eps, &endpoint{url: u, limiter: limiter()})
		p.order = append(p.order, i)
	}
}

// ordered returns the endpoints in the order a call asks them: the
// chosen one first, those that asked to be left alone (429, 503) last,
// soonest free first.
func (c *Client) ordered() []*endpoint {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]*endpoint, len(c.order))
	for i, j := range c.order {
		out[i] = c.eps[j]
	}
	free := func(e *endpoint) time.Time { return later(e.notBefore, now) }
	slices.SortStableFunc(out, func(a, b *endpoint) int { return free(a).Compare(free(b)) })
	return out
}

func later(t, now time.Time) time.Time {
	if t.After(now) {
		return t
	}
	return now
}

// cooling returns how long e asked to be left alone for from now.
func (c *Client) cooling(e *endpoint) time.Duration {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	return later(e.notBefore, now).Sub(now)
}

// wrongChain returns why e is never asked, if it is on another chain.
func (c *Client) wrongChain(e *endpoint) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return e.wrong
}

// answered records that e answered.
func (c *Client) answered(e *endpoint) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.lastErr = nil
}

// failed records that e gave no usable answer. When it was the chosen
// endpoint, the next takes its place at once and the endpoints are probed
// again before the next call.
func (c *Client) failed(e *endpoint, a *attempt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.noteLocked(e, a)
	if c.eps[c.order[0]] != e || len(c.order) == 1 {
		return
	}
	c.order = append(c.order[1:], c.order[0])
	c.stale = c.probes
	c.log.Warn("eid: endpoint failed; asking the next", "failed", e.url, "err", a.err, "next", c.eps[c.order[0]].url)
}

// probeDue reports whether the endpoints are to be probed before a call:
// never yet, after the chosen one failed, or Reprobe after the last time.
func (c *Client) probeDue() bool {
	now := time.Now()
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.probes && (c.probed.IsZero() || c.stale || (c.reprobe > 0 && now.Sub(c.probed) >= c.reprobe))
}

// probeIfDue probes the endpoints when probeDue says so, once for all
// the calls that find it due together.
func (c *Client) probeIfDue(ctx context.Context) {
	if !c.probeDue() {
		return
	}
	select {
	case c.probing <- struct{}{}:
	case <-ctx.Done():
		return
	}
	defer func() { <-c.probing }()
	if c.probeDue() {
		c.probeAll(ctx)
	}
}

// Probe asks every endpoint for its block number now, as the SDKs do
// (and its chain id, the first time), orders them by the answers, and
// returns them in their new order. Calls probe by themselves; Probe lets a
// program choose before its first call, or report the choice.
func (c *Client) Probe(ctx context.Context) []Endpoint {
	select {
	case c.probing <- struct{}{}:
		defer func() { <-c.probing }()
		c.probeAll(ctx)
	case <-ctx.Done():
	}
	return c.Endpoints()
}

// probeAll probes every endpoint at once and orders them by rank.
func (c *Client) probeAll(parent context.Context) {
	ctx, cancel := context.WithTimeoutCause(parent, c.probeTimeout, fmt.Errorf("no answer to the probe within %v", c.probeTimeout))
	defer cancel()
	ps := make([]probe, len(c.eps))
	var wg sync.WaitGroup
	for i, e := range c.eps {
		wg.Go(func() { ps[i] = c.probeOne(ctx, e) })
	}
	wg.Wait()
	if parent.Err() != nil {
		return // the call ended first: what was measured is cut short
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	before := c.eps[c.order[0]]
	for i, e := range c.eps {
		e.probe = ps[i]
	}
	c.order = rank(ps)
	c.probed, c.stale = time.Now(), false
	if chosen := c.eps[c.order[0]]; chosen != before || !before.probe.answered {
		c.log.Info("eid: endpoint chosen", "url", chosen.url, "answered", chosen.probe.answered,
			"block", chosen.probe.block, "latency", chosen.probe.latency, "err", chosen.lastErr)
	}
}

// probeOne asks e for its chain id, the first time, and its block number.
func (c *Client) probeOne(ctx context.Context, e *endpoint) probe {
	if err := c.checkChain(ctx, e); err != nil {
		c.setErr(e, err)
		return probe{}
	}
	if a := c.turn(ctx, e, 1); a != nil {
		c.setErr(e, a.err)
		return probe{}
	}
	start := time.Now()
	raw, a := c.t.call(ctx, e.url, "eth_blockNumber", nil)
	latency := time.Since(start)
	if a != nil {
		c.failedProbe(e, a)
		return probe{}
	}
	n, err := quantity(raw)
	if err != nil {
		c.setErr(e, &client.UnreachableError{URL: e.url, Err: fmt.Errorf("eth_blockNumber: %w", err)})
		return probe{}
	}
	c.setErr(e, nil)
	return probe{answered: true, block: n, latency: latency}
}

// checkChain asks e for its chain id once, and marks it wrong when it is
// not the pool's. The first endpoint to answer sets a pool's chain that
// has none.
func (c *Client) checkChain(ctx context.Context, e *endpoint) error {
	c.mu.Lock()
	known, wrong := e.chainID != 0, e.wrong
	c.mu.Unlock()
	if known {
		return wrong
	}
	if a := c.turn(ctx, e, 1); a != nil {
		return a.err
	}
	raw, a := c.t.call(ctx, e.url, "eth_chainId", nil)
	if a != nil {
		c.failedProbe(e, a)
		return a.err
	}
	id, err := quantity(raw)
	if err == nil && id == 0 {
		err = fmt.Errorf("chain id 0")
	}
	if err != nil {
		return &client.UnreachableError{URL: e.url, Err: fmt.Errorf("eth_chainId: %w", err)}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.chainID == 0 {
		c.chainID = id
	}
	e.chainID = id
	if id != c.chainID {
		e.wrong = &client.UnreachableError{URL: e.url, Err: fmt.Errorf("%w: it answers eth_chainId %d, the network is %d", ErrWrongChain, id, c.chainID)}
	}
	return e.wrong
}

// failedProbe records a probe's failure.
func (c *Client) failedProbe(e *endpoint, a *attempt) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.noteLocked(e, a)
}

// noteLocked records e's failure, and what a 429 or 503 asked for.
func (c *Client) noteLocked(e *endpoint, a *attempt) {
	e.lastErr = a.err
	if a.retryAfter > 0 {
		e.notBefore = time.Now().Add(a.retryAfter)
	}
}

func (c *Client) setErr(e *endpoint, err error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e.lastErr = err
}

// Endpoint is what a Client knows of one endpoint.
type Endpoint struct {
	URL      string
	Answered bool          // it answered the last probe
	Block    uint64        // the block number it answered the last probe with
	Latency  time.Duration // how long that answer took
	ChainID  uint64        // what it answered eth_chainId with; 0 until asked
	Err      error         // its last failure, nil since it last answered
}

// Endpoints returns the endpoints in the order calls ask them, the chosen
// one first.
func (c *Client) Endpoints() []Endpoint {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]Endpoint, len(c.order))
	for i, j := range c.order {
		e := c.eps[j]
		err := e.lastErr
		if e.wrong != nil {
			err = e.wrong
		}
		out[i] = Endpoint{URL: e.url, Answered: e.probe.answered, Block: e.probe.block, Latency: e.probe.latency, ChainID: e.chainID, Err: err}
	}
	return out
}
