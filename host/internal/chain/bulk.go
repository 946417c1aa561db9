package chain

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"sync"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
)

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
	entries, prepErr := c.prepareAll(ctx, txs)
	c.mining.Lock()
	defer c.mining.Unlock()
	switch {
	case c.isClosed():
		return nil, errClosed
	case c.pool.len() > 0:
		return nil, ErrPoolBusy
	}
	c.mu.RLock()
	prev := c.tipHeader
	c.mu.RUnlock()
	if err := ledger.CheckNext(&prev); err != nil {
		return nil, fmt.Errorf("chain: %w", err)
	}
	height, t := prev.Height+1, c.nextBlockTime(prev.Timestamp)
	if be, ok := errors.AsType[*BlockError](prepErr); ok {
		be.Height = height
	}
	if prepErr != nil {
		return nil, prepErr
	}
	var b *ela.Block
	err := c.db.Update(func(tx store.Tx) error {
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
	c.advance(&made{block: b})
	return b, nil
}

// prepareAll decodes the raw transactions of a block on every core, and
// checks each against the chain as it is before the block, only so that
// the signatures that verify are remembered (entry.sigs): checking them
// again in order, inside the block's Update, then verifies nothing twice.
// A transaction that depends on an earlier one of the block fails that
// first check, harmlessly: the check in order decides. The entries are
// those at positions 1 on of the block (the coinbase is position 0); a
// transaction that does not decode gets a *BlockError.
func (c *Chain) prepareAll(ctx context.Context, raws [][]byte) ([]*entry, error) {
	entries, errs := make([]*entry, len(raws)), make([]error, len(raws))
	next := make(chan int)
	var wg sync.WaitGroup
	for range runtime.GOMAXPROCS(0) {
		wg.Go(func() {
			for i := range next {
				if entries[i], errs[i] = c.prepare(raws[i]); errs[i] == nil {
					c.validate(entries[i]) // only to verify signatures; the block's check decides
				}
			}
		})
	}
	for i := range raws {
		if ctx.Err() != nil {
			break
		}
		next <- i
	}
	close(next)
	wg.Wait()
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	for i, err := range errs {
		if err != nil {
			if _, ok := errors.AsType[*RejectError](err); ok {
				return nil, &BlockError{Tx: i + 1, Err: err}
			}
			return nil, err
		}
	}
	return entries, nil
}

// applyAll checks each entry, at positions 1 on of the block at height,
// against the state the earlier ones leave (check), and writes it; a
// transaction that breaks a rule is refused with refuse. It returns the
// block's transaction ids (position 0, the coinbase's, left zero) and
// the fees the transactions pay.
func (c *Chain) applyAll(ctx context.Context, w *batch, entries []*entry, height uint32, refuse func(int, error) error) ([]ela.Hash, ela.Fixed64, error) {
	txids := make([]ela.Hash, len(entries)+1)
	var fees ela.Fixed64
	for i, e := range entries {
		pos := i + 1
		if err := ctx.Err(); err != nil {
			return nil, 0, err
		}
		if err := c.check(w.snapshot, e, height, w.time); err != nil {
			if _, ok := errors.AsType[*RejectError](err); ok {
				return nil, 0, refuse(pos, err)
			}
			return nil, 0, err
		}
		if err := w.applyTx(e.tx, e.txid, e.raw, height, uint32(pos), e.id); err != nil {
			return nil, 0, err
		}
		txids[pos] = e.txid
		fees += e.fee
	}
	return txids, fees, nil
}
