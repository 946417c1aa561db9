package chain

import (
	"fmt"

	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// A devnet snapshot (devnet.Snapshot, devnet.Revert) covers meta and
// allBuckets (snapshotted): package devnet keeps the snapshots and the
// undo log in the chain's store, and this file gives it the chain's side,
// a control's Update and Restart.

// isSnapshotted holds the names of the buckets a snapshot gives back.
var isSnapshotted = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range snapshotted() {
		m[name] = true
	}
	return m
}()

// snapshotted returns the buckets a snapshot gives back.
func snapshotted() []string { return append([]string{bucketMeta}, allBuckets...) }

// covered reports whether a snapshot gives back bucket name.
func covered(name string) bool { return isSnapshotted[name] }

// update runs fn in a store Update, its writes to the chain's buckets
// logged while a snapshot lives (devnet.Logged), so that a revert can
// undo them. Every write of the chain goes through it.
func (c *Chain) update(fn func(store.Tx) error) error {
	return c.db.Update(func(tx store.Tx) error { return fn(devnet.Logged(tx, covered)) })
}

// Update runs fn in a store update, the mempool's entries not yet in the
// store (logged, or kept in memory) stored in the pool bucket first, and
// then drops their log records.
func (k control) Update(fn func(store.Tx) error) (after, err error) {
	c := k.c
	unstored := c.pool.Unstored()
	var seqs []uint64
	err = c.update(func(tx store.Tx) error {
		var err error
		if seqs, err = c.storePool(tx, unstored); err != nil {
			return err
		}
		return fn(tx)
	})
	if err != nil {
		return nil, err
	}
	return c.moveUnstored(unstored, seqs), nil
}

// Restart runs undo in a store update, then begins a new epoch in it and
// reads the chain's head, genesis, payee and mempool again.
func (k control) Restart(undo func(store.Tx) (int64, error)) (devnet.Head, error) {
	c := k.c
	c.mu.RLock()
	epoch := c.epoch + 1
	c.mu.RUnlock()
	received := c.received.Load()
	err := c.update(func(tx store.Tx) error {
		wall, err := undo(tx)
		if err != nil {
			return err
		}
		return c.restarted(tx, epoch, received, wall)
	})
	if err != nil {
		return devnet.Head{}, err
	}
	var h head
	var b began
	err = c.db.View(func(tx store.Tx) error {
		var err error
		if h, err = readHead(tx); err != nil {
			return err
		}
		c.producer = c.payee(tx)
		b, err = readBegan(tx)
		return err
	})
	if err != nil {
		return devnet.Head{}, err
	}
	c.genesis = c.genesisAt(b.at)
	c.restart(h)
	if err := c.dropPoolLog(); err != nil {
		return devnet.Head{}, err
	}
	if err := c.reloadPool(nil); err != nil {
		return devnet.Head{}, fmt.Errorf("pooling its mempool: %w", err)
	}
	return devnet.Head{Height: h.tip.Height, Epoch: h.epoch}, nil
}

// restarted makes the state undone within tx, as the chain was at wall,
// the chain's as epoch (its pooled transactions restamped so that they
// are pooled again), keeping the count of transactions received; the
// clock's reading gives back the time since wall.
func (c *Chain) restarted(tx store.Tx, epoch, received uint64, wall int64) error {
	if err := c.upgrade(tx); err != nil { // a state an older version kept
		return err
	}
	if err := restampPool(tx, epoch); err != nil {
		return err
	}
	clock, err := readClock(tx)
	if err != nil {
		return err
	}
	clock = clock.Rewound(wall, c.now().Unix())
	meta := map[string][]byte{metaEpoch: record.U64(epoch), metaReceived: record.U64(received), metaClock: record.Clock(clock)}
	for key, v := range meta {
		if err := putMeta(tx, key, v); err != nil {
			return err
		}
	}
	return nil
}

// restampPool rewrites the epoch of every stored pooled transaction.
func restampPool(tx store.Tx, epoch uint64) error {
	pool := bucket(tx, bucketPool)
	for k, v := range pool.Scan(store.Range{}) {
		p, err := record.ParsePoolTx(v)
		if err != nil {
			return err
		}
		p.Epoch = epoch
		if err := pool.Put(k, p.Bytes()); err != nil {
			return err
		}
	}
	return nil
}
