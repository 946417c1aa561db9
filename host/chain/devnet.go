package chain

import (
	"context"
	"fmt"
	"time"

	"github.com/didlight/didlight/host/chain/internal/record"
	"github.com/didlight/didlight/host/store"
)

// IncreaseTime moves the devnet clock forward by d (whole seconds, at
// least one) and makes a block stamped with the new time, so that the tip's
// time, against which expiry is judged, moves at once. It returns that
// block's time. The clock's lead is stored: it survives a restart, not a
// Reset.
func (c *Chain) IncreaseTime(d time.Duration) (time.Time, error) {
	if d < time.Second || d%time.Second != 0 {
		return time.Time{}, fmt.Errorf("chain: increase time by %s: want whole seconds, at least one", d)
	}
	if err := c.produces(); err != nil {
		return time.Time{}, err
	}
	c.mining.Lock()
	defer c.mining.Unlock()
	if c.isClosed() {
		return time.Time{}, ErrClosed
	}
	c.mu.RLock()
	offset := c.offset + d
	c.mu.RUnlock()
	if offset < d || c.now().Add(offset).Unix() > maxChainTime {
		return time.Time{}, fmt.Errorf("chain: increase time by %s: the chain's clock would pass %s", d, time.Unix(maxChainTime, 0).UTC())
	}
	err := c.db.Update(func(tx store.Tx) error {
		return putMeta(tx, metaOffset, record.U64(uint64(offset/time.Second)))
	})
	if err != nil {
		return time.Time{}, fmt.Errorf("chain: increase time: %w", err)
	}
	c.mu.Lock()
	c.offset = offset
	c.mu.Unlock()
	b, err := c.mine()
	if err != nil {
		return time.Time{}, err
	}
	return time.Unix(int64(b.Header.Timestamp), 0).UTC(), nil
}

// Reset wipes the chain back to its genesis block: blocks, indexes and the
// mempool go, the devnet clock's lead too; the node id stays. Callers of
// SubmitRequest still waiting get ErrReset.
func (c *Chain) Reset(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if err := c.produces(); err != nil {
		return err
	}
	c.mining.Lock()
	defer c.mining.Unlock()
	if c.isClosed() {
		return ErrClosed
	}
	c.mu.RLock()
	epoch := c.epoch + 1
	c.mu.RUnlock()
	err := c.db.Update(func(tx store.Tx) error {
		for _, name := range allBuckets {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
		for key, v := range map[string][]byte{metaEpoch: record.U64(epoch), metaOffset: record.U64(0), metaTxnCount: record.U64(0)} {
			if err := putMeta(tx, key, v); err != nil {
				return err
			}
		}
		return c.writeGenesis(tx)
	})
	if err != nil {
		return fmt.Errorf("chain: reset: %w", err)
	}
	g := c.genesis
	c.mu.Lock()
	c.epoch, c.offset = epoch, 0
	c.tip = record.Tip{Height: 0, Hash: g.Hash(), Time: g.Header.Timestamp}
	c.tipHeader = g.Header
	c.txnCount = uint64(len(g.Transactions))
	at := position{epoch: epoch, height: 0, tip: c.tip.Hash}
	c.mu.Unlock()
	for _, e := range c.pool.reset(at) {
		e.done <- ErrReset
	}
	c.docs.clear()
	c.subs.notify(0)
	c.log.Info("chain reset to genesis", "epoch", epoch)
	return nil
}
