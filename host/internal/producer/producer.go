// Package producer decides when a node makes its blocks.
package producer

import (
	"context"
	"errors"
	"log/slog"
	"sync/atomic"
	"time"

	"github.com/didlight/didlight/host/internal/store"
)

// InstantGap is the least time between two blocks Run makes with no
// interval while transactions are being admitted. A transaction arriving
// after a quiet spell is mined at once; under load, the transactions
// arriving within the gap share a block, so that blocks are not made for
// one transaction each (every block costs a confirm's signatures, and a
// second of chain time). Once no admission is under way, nothing more is
// about to join the block, and Run makes it at once.
const InstantGap = 10 * time.Millisecond

// gapShare stretches the gap under load on a store where making a block is
// slow: the next block waits at least gapShare times as long as the last
// took to make, so that making blocks takes at most a fifth of the time.
// A block's cost grows less than its size (a durable store's two disk
// syncs, the index pages it rewrites, the confirm's signature), so larger
// blocks leave more of the machine to admitting transactions.
const gapShare = 4

// Maker makes the blocks a Producer decides on: the chain.
type Maker interface {
	// Waiting reports whether stored transactions wait for a block.
	Waiting() bool
	// Make makes a block now; with ready, none unless stored transactions
	// still wait once it may write one.
	Make(ctx context.Context, ready bool) error
}

// Producer decides when its Maker makes a block: on an interval, or as
// soon as transactions wait, unless it is off. It owns the count of
// admissions under way, which a block waits for, and the signal that
// wakes it.
type Producer struct {
	maker     Maker
	interval  time.Duration
	log       *slog.Logger
	done      <-chan struct{} // closed when the maker closes
	off       atomic.Bool     // Run makes no block (SetOn)
	admitting atomic.Int64    // admissions under way
	wake      chan struct{}   // tells Run that transactions arrived, or an admission ended
}

// New returns a Producer for m that makes a block every interval, empty or
// not, or with interval 0 as soon as transactions wait; off, none until
// SetOn. It stops when done is closed; it logs the blocks m cannot make
// to log.
func New(m Maker, interval time.Duration, off bool, done <-chan struct{}, log *slog.Logger) *Producer {
	p := &Producer{maker: m, interval: interval, log: log, done: done, wake: make(chan struct{}, 1)}
	p.off.Store(off)
	return p
}

// Run produces blocks until ctx ends or done is closed: with an interval,
// a block every interval, empty or not; otherwise a block as soon as
// stored transactions wait (but, while others are being admitted, no
// sooner than InstantGap, or gapShare times what making the last block
// took, after it). A block it cannot make (the store failed, the tip
// carries the last time a block can) is logged, and tried again at the
// next occasion. It returns nil when stopped.
func (p *Producer) Run(ctx context.Context) error {
	var tick <-chan time.Time
	if p.interval > 0 {
		t := time.NewTicker(p.interval)
		defer t.Stop()
		tick = t.C
	}
	var last time.Time
	var took time.Duration // making the last block
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-p.done:
			return nil
		case <-tick:
		case <-p.wake:
			if tick != nil {
				continue
			}
			if !p.awaitGap(ctx, last.Add(max(InstantGap, gapShare*took))) {
				return nil
			}
			if !p.maker.Waiting() {
				continue
			}
		}
		if p.off.Load() {
			continue
		}
		last = time.Now()
		err := p.maker.Make(ctx, tick == nil)
		took = time.Since(last)
		if err != nil && !errors.Is(err, store.ErrClosed) && ctx.Err() == nil {
			p.log.Error(LogCannotMake, "err", err) // and again at the next occasion: no block the producer cannot make stops the node
		}
	}
}

// LogCannotMake is the message Run logs, with the attribute err, for a
// block it cannot make.
const LogCannotMake = "cannot make a block; trying again when transactions arrive or the interval ends"

// SetOn turns Run's blocks off (false: none until a control asks) or on
// again (true: as the interval says; the transactions waiting are mined
// at once).
func (p *Producer) SetOn(on bool) {
	p.off.Store(!on)
	if on {
		p.Signal()
	}
}

// Signal tells Run that transactions arrived, or an admission ended.
func (p *Producer) Signal() {
	select {
	case p.wake <- struct{}{}:
	default:
	}
}

// Admitting counts an admission that begins: a block waits for it (up to
// its gap).
func (p *Producer) Admitting() { p.admitting.Add(1) }

// Admitted counts an admission that ended, and tells Run, which waits for
// the admissions under way before it makes a block.
func (p *Producer) Admitted() {
	p.admitting.Add(-1)
	p.Signal()
}

// Admissions returns how many admissions are under way.
func (p *Producer) Admissions() int { return int(p.admitting.Load()) }

// awaitGap waits until the time until or until no admission is under
// way. It reports false if ctx ended or done was closed.
func (p *Producer) awaitGap(ctx context.Context, until time.Time) bool {
	wait := time.Until(until)
	if wait <= 0 {
		return true
	}
	timer := time.NewTimer(wait)
	defer timer.Stop()
	for p.admitting.Load() > 0 {
		select {
		case <-timer.C:
			return true
		case <-p.wake: // an admission ended, or a transaction arrived
		case <-ctx.Done():
			return false
		case <-p.done:
			return false
		}
	}
	return true
}
