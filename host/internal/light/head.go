package light

import (
	"context"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/didlight/didlight/core/eid"
)

// Head is the upstream's head block as the Resolver last learned it.
type Head struct {
	Number uint64
	// Time is the block's time: the chain time expiry is judged at.
	Time time.Time
	// Confirmed is when the upstream last said this is its head (the
	// Resolver's clock).
	Confirmed time.Time
	// Network is the chain's, from the chain id the upstream answered.
	Network eid.Network
}

// heads is what the Resolver knows of the upstream's chain. A Head never
// changes once stored: cur is replaced whole by each ask, Run's or a
// request's (see ask).
type heads struct {
	cur     atomic.Pointer[Head]
	network atomic.Pointer[eid.Network] // learned once
}

// headKey is the flight of asking for the head, which every request that
// finds the head unknown shares.
var headKey = key{kind: kindHead}

// Head returns the upstream's head as last learned: its height and block
// time; ok is false until one is known.
func (r *Resolver) Head() (height uint64, at time.Time, ok bool) {
	h := r.heads.cur.Load()
	if h == nil {
		return 0, time.Time{}, false
	}
	return h.Number, h.Time, true
}

// ChainID returns the chain id the upstream answered; ok is false until it
// has.
func (r *Resolver) ChainID() (uint64, bool) {
	n := r.heads.network.Load()
	if n == nil {
		return 0, false
	}
	return n.ChainID, true
}

// Run learns the upstream's head every Config.Poll (eth_blockNumber, and
// the block's time when it moved), until ctx ends; it returns nil then. A
// failure is counted and logged, and the next poll tries again: the
// Resolver serves nothing it kept once the head has gone unconfirmed for
// three polls.
func (r *Resolver) Run(ctx context.Context) error {
	t := time.NewTicker(r.poll)
	defer t.Stop()
	for {
		r.ask(ctx) // a failure is counted and logged, and the head goes unconfirmed
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// head returns the head to answer at: the one last learned while the
// upstream confirmed it within three polls, else the one it says now.
func (r *Resolver) head(ctx context.Context) (*Head, error) {
	if h := r.heads.cur.Load(); h != nil && time.Since(h.Confirmed) <= maxHeadAge*r.poll {
		return h, nil
	}
	v, err := r.flights.do(ctx, headKey, func(ctx context.Context) (any, error) { return r.ask(ctx) })
	if err != nil {
		return nil, err
	}
	return v.(*Head), nil
}

// ask asks the upstream for its head: its number, and the block's time
// when the number is new. Run asks with its own context, which its end
// cancels; requests that find the head unknown share one ask (head).
func (r *Resolver) ask(ctx context.Context) (*Head, error) {
	network, err := r.network(ctx)
	if err != nil {
		return nil, r.failed("eth_chainId", "", err)
	}
	n, err := r.client.BlockNumber(ctx)
	if err != nil {
		return nil, r.failed("eth_blockNumber", "", err)
	}
	now := time.Now()
	if cur := r.heads.cur.Load(); cur != nil && cur.Number == n {
		h := *cur
		h.Confirmed = now
		r.heads.cur.Store(&h)
		return &h, nil
	}
	b, err := r.client.Block(ctx, n)
	if err != nil {
		return nil, r.failed("eth_getBlockByNumber", fmt.Sprint(n), err)
	}
	h := &Head{Number: b.Number, Time: b.Time, Confirmed: now, Network: network}
	r.heads.cur.Store(h)
	return h, nil
}

// network returns the upstream's chain, asking its chain id the first
// time (eth_chainId): mainnet and testnet have migration windows
// ([eid.NetworkOf]).
func (r *Resolver) network(ctx context.Context) (eid.Network, error) {
	if n := r.heads.network.Load(); n != nil {
		return *n, nil
	}
	id, err := r.client.ChainID(ctx)
	if err != nil {
		return eid.Network{}, err
	}
	n := eid.NetworkOf(id)
	r.heads.network.Store(&n)
	return n, nil
}
