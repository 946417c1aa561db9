package chain

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/mempool"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Run produces blocks until ctx ends or the chain closes: with
// Config.BlockTime 0, a block as soon as stored transactions wait in the
// mempool (but, while others are being admitted, no sooner than
// producer.InstantGap, or a share of what making the last block took,
// after it); otherwise a block every BlockTime, empty or not. A block it
// cannot make (the store failed, the tip carries the last time a block
// can) is logged, and tried again at the next occasion. It returns nil
// when stopped.
func (c *Chain) Run(ctx context.Context) error { return c.blocks.Run(ctx) }

// SetMining turns Run's blocks off (false: none until a control asks, as
// Config.NoMining) or on again (true: as Config.BlockTime says; the
// transactions waiting are mined at once).
func (c *Chain) SetMining(on bool) { c.blocks.SetOn(on) }

// maker makes the blocks the chain's producer decides on.
type maker struct{ c *Chain }

func (m maker) Waiting() bool { return len(m.c.pool.Ready()) > 0 }

func (m maker) Make(ctx context.Context, ready bool) error {
	_, err := m.c.produce(ctx, ready)
	return err
}

// Mine makes a block now from the stored transactions of the mempool, in
// their arrival order (an empty block when there are none), and returns
// it. Each identity operation is validated again at the block's time,
// without verifying its signatures again; one no longer valid (its document
// expired meanwhile) leaves the mempool.
func (c *Chain) Mine(ctx context.Context) (*ela.Block, error) { return c.produce(ctx, false) }

// produce is Mine; with ready, it makes no block (and returns nil) when no
// stored transaction waits once it holds c.mining: a reset or a revert
// that took the mempool out meanwhile leaves nothing to mine.
func (c *Chain) produce(ctx context.Context, ready bool) (*ela.Block, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if err := c.produces(); err != nil {
		return nil, err
	}
	c.mining.Lock()
	defer c.mining.Unlock()
	if c.isClosed() {
		return nil, errClosed
	}
	if ready && len(c.pool.Ready()) == 0 {
		return nil, nil
	}
	return c.mine()
}

// logEvicted is the message logged, with the attribute txid, for each
// acknowledged transaction a block evicts from the mempool. One that a
// block took in before it was acknowledged is refused to its submitter
// instead (logRefused).
const (
	logEvicted = "evicted a pooled transaction"
	logRefused = "refused a transaction its block found no longer valid"
)

// newTip is a block being made: the block and what happened to the entries
// it was offered.
type newTip struct {
	block    *ela.Block
	included []*entry
	evicted  map[*entry]error
	left     []*entry // those the block had no room for, in arrival order
}

// mine makes a block; the caller holds c.mining. Besides the stored
// entries, a chain keeping its mempool in the bucket takes in those
// waiting for their mempool commit: its Update makes them durable, so
// that they need no mempool record and their submitters no second disk
// sync. A waiting entry the pool no longer holds (a Reset took it out) is
// refused with ErrReset; one the block has no room for is stored in the
// mempool by the same Update.
func (c *Chain) mine() (*ela.Block, error) {
	c.mu.RLock()
	prev, clock := c.tipHeader, c.clock
	c.mu.RUnlock()
	if err := ledger.CheckNext(&prev); err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	now := c.now().Unix()
	t := clock.BlockTime(prev.Timestamp, now)
	after := clock.Mined(t, now)
	var m newTip
	// With the mempool in its bucket, from now until the block's Update
	// begins, transactions waiting for their mempool commit wait for the
	// block instead; those arriving later wait for it to end, then share a
	// commit. With a log, their appends go on meanwhile: an append's sync
	// costs less than the wait for the block's Update; kept in memory,
	// they wait for nothing.
	takes := c.poolLog == nil && !c.poolInMemory
	if takes {
		c.pool.Commits().Hold()
		defer c.pool.Commits().Release()
	}
	var taken []mempool.Pending[*entry]
	var dropped map[*entry]bool // taken, but no longer in the pool
	var late []*entry           // taken, but left for a later block
	var seqs []uint64
	err := c.update(func(tx store.Tx) error {
		var entries []*entry
		entries, taken, dropped = c.pool.ForBlock(takes)
		m = newTip{evicted: make(map[*entry]error)}
		if after != clock {
			if err := putMeta(tx, metaClock, record.Clock(after)); err != nil {
				return err
			}
		}
		if err := c.build(tx, &m, entries, &prev, t); err != nil || len(taken) == 0 {
			return err
		}
		for _, e := range m.left {
			if !e.Persisted {
				late = append(late, e)
			}
		}
		var err error
		seqs, err = c.storePool(tx, late)
		return err
	})
	if dropped == nil && takes { // the store refused the Update
		taken = c.pool.Commits().Take()
	}
	if err != nil {
		for _, p := range taken {
			p.Settle(err)
		}
		return nil, fmt.Errorf("chain: making block %d: %w", prev.Height+1, err)
	}
	c.pool.MarkPersisted(late, mempool.InBucket(seqs))
	c.mu.Lock()
	c.clock = after
	c.mu.Unlock()
	c.advance(&m)
	for _, p := range taken {
		if dropped[p.Item] {
			p.Settle(ErrReset)
		} else {
			p.Settle(m.evicted[p.Item]) // nil for those in the block or stored for later
		}
	}
	if len(m.left) > 0 {
		c.blocks.Signal() // another block for the rest
	}
	if err := c.unlog(&m); err != nil {
		return m.block, fmt.Errorf("chain: block %d is stored, but trimming the mempool log failed: %w", prev.Height+1, err)
	}
	return m.block, nil
}

// build writes the block after prev stamped t with the entries still
// valid.
func (c *Chain) build(tx store.Tx, m *newTip, entries []*entry, prev *ela.Header, t uint32) error {
	height := prev.Height + 1
	w := newBatch(c, tx, t)
	pool := bucket(tx, bucketPool)
	txs := []*ela.Tx{nil} // the coinbase comes first
	txids := []ela.Hash{{}}
	var fees ela.Fixed64
	size := 0
	for i, e := range entries {
		if !c.limits.Fits(len(txs), size, len(e.raw)) {
			m.left = entries[i:]
			break
		}
		if e.Seq != 0 { // those taken from the commit queue, in the log or kept in memory have no record here
			if err := pool.Delete(record.SeqKey(e.Seq)); err != nil {
				return err
			}
		}
		if e.id != nil {
			if err := c.checkIdentity(w.snapshot, e.id, e.sigs, t); err != nil {
				if _, ok := errors.AsType[*RejectError](err); !ok {
					return err
				}
				m.evicted[e] = err
				continue
			}
		}
		if err := w.applyTx(e.tx, e.txid, e.raw, height, uint32(len(txs)), e.id); err != nil {
			return err
		}
		txs, txids = append(txs, e.tx), append(txids, e.txid)
		size += len(e.raw)
		fees += e.fee
		m.included = append(m.included, e)
	}
	cb := c.params.Coinbase(height, c.producer, fees+c.params.Subsidy)
	txs[0], txids[0] = cb, cb.Hash()
	if err := w.applyTx(cb, txids[0], cb.Bytes(), height, 0, nil); err != nil {
		return err
	}
	m.block = c.params.NewBlockOf(prev, t, txs, txids)
	return w.putBlock(m.block, txids, c.confirm(m.block.Hash()))
}

// advance makes a stored block the chain's tip in memory, takes its
// transactions and the evicted ones out of the mempool, and tells whoever
// waits.
func (c *Chain) advance(m *newTip) {
	b := m.block
	h := b.Hash()
	gone := make(map[*entry]error, len(m.included)+len(m.evicted))
	for _, e := range m.included {
		gone[e] = nil
	}
	for e, err := range m.evicted {
		gone[e] = err
		msg := logEvicted
		if !e.Persisted {
			msg = logRefused
		}
		c.log.Warn(msg, "txid", e.txid, "err", err)
	}
	c.counts.block(b) // before its submitters hear, so that they find it counted
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tip = record.Tip{Height: b.Header.Height, Hash: h, Time: b.Header.Timestamp}
	c.tipHeader = b.Header
	c.txnCount += uint64(len(b.Transactions))
	// The pool moves on, answering the submitters, before subscribers hear
	// of the block, so that a waiter submitting its DID's next operation
	// finds the last one gone.
	c.pool.Advance(mempool.Position{Epoch: c.epoch, Height: b.Header.Height, Tip: h}, gone)
	c.subs.notify(b.Header.Height)
	c.log.Debug("block", "height", b.Header.Height, "hash", h, "txs", len(b.Transactions), "time", b.Header.Timestamp)
}

// ErrPoolBusy is returned by MineTxs while the mempool holds transactions:
// a block made around them could spend what they spend.
var ErrPoolBusy = errors.New("chain: MineTxs needs an empty mempool")

// MineTxs makes a block now of exactly the raw transactions txs, in their
// order after the coinbase, and returns it: the way to build a large chain
// in bulk (a generator), block after block, without a mempool. Each
// transaction is checked as Apply checks a block's, against the state the
// earlier ones leave; one that breaks a rule gets a *BlockError naming it,
// and nothing changes. Signatures are verified on every core before the
// block's store Update begins. It fails with ErrPoolBusy while the mempool
// holds transactions, and with ErrFollower on a follower's chain.
func (c *Chain) MineTxs(ctx context.Context, txs [][]byte) (*ela.Block, error) {
	if err := c.produces(); err != nil {
		return nil, err
	}
	prepared, err := c.prepareAll(ctx, txs)
	if err != nil {
		return nil, err
	}
	return c.MinePrepared(ctx, prepared)
}

// MinePrepared is MineTxs of transactions PrepareTx prepared, in their
// order after the coinbase.
func (c *Chain) MinePrepared(ctx context.Context, txs []*Prepared) (*ela.Block, error) {
	if err := c.produces(); err != nil {
		return nil, err
	}
	c.mining.Lock()
	defer c.mining.Unlock()
	switch {
	case c.isClosed():
		return nil, errClosed
	case c.pool.Len() > 0:
		return nil, ErrPoolBusy
	}
	c.mu.RLock()
	prev := c.tipHeader
	c.mu.RUnlock()
	if err := ledger.CheckNext(&prev); err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	height, t := prev.Height+1, c.nextBlockTime(prev.Timestamp)
	entries, pos, err := entriesOf(txs)
	if err != nil {
		return nil, &BlockError{Height: height, Tx: pos, Err: err}
	}
	var b *ela.Block
	err = c.update(func(tx store.Tx) error {
		w := newBatch(c, tx, t)
		refuse := func(pos int, err error) error { return &BlockError{Height: height, Tx: pos, Err: err} }
		txids, fees, err := c.applyAll(ctx, w, entries, height, refuse)
		if err != nil {
			return err
		}
		cb := c.params.Coinbase(height, c.producer, fees+c.params.Subsidy)
		txids[0] = cb.Hash()
		if err := w.applyTx(cb, txids[0], cb.Bytes(), height, 0, nil); err != nil {
			return err
		}
		all := make([]*ela.Tx, len(entries)+1)
		all[0] = cb
		for i, e := range entries {
			all[i+1] = e.tx
		}
		b = c.params.NewBlockOf(&prev, t, all, txids)
		return w.putBlock(b, txids, c.confirm(b.Hash()))
	})
	if err != nil {
		if _, ok := errors.AsType[*BlockError](err); ok || ctx.Err() != nil {
			return nil, err
		}
		return nil, fmt.Errorf("chain: making block %d: %w", height, err)
	}
	c.advance(&newTip{block: b})
	return b, nil
}
