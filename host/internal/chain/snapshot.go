package chain

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/undo"
)

// A devnet snapshot (Snapshot, Revert) is a mark in an undo log kept in
// the chain's own store (undoLog): while a snapshot lives, every store
// transaction that changes the chain's buckets (meta and allBuckets:
// blocks, indexes, the stored mempool, the clock, the counters) also logs
// what each key and bucket sequence held before, once per transaction.
// Taking a snapshot writes its record and nothing else; a revert undoes
// the entries after its mark, newest first, and drops them, so it costs
// what changed since. Each runs in one store transaction, so that a node
// killed during either comes back before or after it. What lives in
// memory (the head, the mempool, the documents kept) is read again from
// the store after a revert, as after a reset.
//
// A revert keeps the snapshot it went back to, and the earlier ones, and
// drops the later ones: they name states the revert took out of the
// chain's history (docs/devnet.md says why).

// ErrUnknownSnapshot is the error of Revert given an id that names no
// snapshot (never taken, or dropped by a revert to an earlier one); it is
// wrapped with the id.
var ErrUnknownSnapshot = errors.New("chain: no such snapshot")

// undoLog is the chain's undo log: it covers the buckets a snapshot gives
// back (snapshotted).
var undoLog = undo.Log{Name: bucketUndo, Covered: func(name string) bool {
	return name == bucketMeta || isChainBucket[name]
}}

// isChainBucket holds the names of allBuckets.
var isChainBucket = func() map[string]bool {
	m := map[string]bool{}
	for _, name := range allBuckets {
		m[name] = true
	}
	return m
}()

// snapshotted returns the buckets a snapshot gives back.
func snapshotted() []string { return append([]string{bucketMeta}, allBuckets...) }

// update runs fn in a store Update, its writes to the chain's buckets
// logged while a snapshot lives (undoLog), so that a revert can undo them.
// Every write of the chain goes through it.
func (c *Chain) update(fn func(store.Tx) error) error {
	return c.db.Update(func(tx store.Tx) error {
		if snapshotsLive(tx) {
			tx = undoLog.Tx(tx)
		}
		return fn(tx)
	})
}

// snapshotsLive reports whether the store holds a snapshot, of this
// format or of an older one that the store's upgrade turns into one.
func snapshotsLive(tx store.Tx) bool {
	for _, name := range []string{bucketSnapshots, bucketSnapshotsV1} {
		for range bucket(tx, name).ScanShared(store.Range{}) {
			return true
		}
	}
	return false
}

// Snapshot takes a snapshot of the chain as it is: its blocks, indexes,
// stored mempool and clock. It returns the snapshot's id, which Revert
// takes; ids count up from 1 and are never given twice.
func (c *Chain) Snapshot() (uint64, error) {
	if err := c.lockControl(context.Background()); err != nil {
		return 0, err
	}
	defer c.mining.Unlock()
	var id uint64
	unstored := c.pool.Unstored()
	var seqs []uint64
	err := c.update(func(tx store.Tx) error {
		snaps := bucket(tx, bucketSnapshots)
		var err error
		if id, err = snaps.NextSequence(); err != nil {
			return err
		}
		if seqs, err = c.storePool(tx, unstored); err != nil { // the log's or memory's entries join the bucket, which snapshots cover
			return err
		}
		mark, err := undoLog.Mark(tx)
		if err != nil {
			return err
		}
		rec := record.Snapshot{Wall: c.now().Unix(), Mark: mark}
		return snaps.Put(record.SeqKey(id), rec.Bytes())
	})
	if err != nil {
		return 0, fmt.Errorf("chain: snapshot: %w", err)
	}
	if err := c.moveUnstored(unstored, seqs); err != nil {
		return 0, fmt.Errorf("chain: snapshot %d is taken, but trimming the mempool log failed: %w", id, err)
	}
	c.log.Info("snapshot taken", "id", id)
	return id, nil
}

// Revert puts the chain back as snapshot id found it: blocks, indexes,
// mempool and the clock's reading (the time that passed since is taken
// out). It keeps that snapshot and the earlier ones, and drops the later
// ones. Callers of SubmitRequest still waiting get ErrReset. An id that
// names no snapshot gets ErrUnknownSnapshot and changes nothing.
func (c *Chain) Revert(ctx context.Context, id uint64) error {
	if err := c.lockControl(ctx); err != nil {
		return err
	}
	defer c.mining.Unlock()
	c.mu.RLock()
	epoch := c.epoch + 1
	c.mu.RUnlock()
	received := c.received.Load()
	var undone int
	err := c.update(func(tx store.Tx) (err error) {
		undone, err = c.revert(tx, id, epoch, received)
		return err
	})
	if errors.Is(err, ErrUnknownSnapshot) {
		return err
	}
	if err != nil {
		return fmt.Errorf("chain: revert to snapshot %d: %w", id, err)
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
		return fmt.Errorf("chain: revert to snapshot %d: %w", id, err)
	}
	c.genesis = c.genesisAt(b.at)
	c.restart(h)
	if err := c.dropPoolLog(); err != nil {
		return fmt.Errorf("chain: revert to snapshot %d: %w", id, err)
	}
	if err := c.reloadPool(nil); err != nil {
		return fmt.Errorf("chain: revert to snapshot %d: pooling its mempool: %w", id, err)
	}
	c.log.Info("reverted to a snapshot", "id", id, "height", h.tip.Height, "epoch", h.epoch, "undone", undone)
	return nil
}

// revert undoes, within tx, what was written since snapshot id, as epoch
// (its pooled transactions restamped so that they are pooled again),
// keeping the count of transactions received; it drops the later
// snapshots and returns how many undo entries it applied.
func (c *Chain) revert(tx store.Tx, id, epoch, received uint64) (int, error) {
	snaps := bucket(tx, bucketSnapshots)
	v, ok := snaps.Get(record.SeqKey(id))
	if !ok {
		return 0, fmt.Errorf("%w: %d", ErrUnknownSnapshot, id)
	}
	rec, err := record.ParseSnapshot(v)
	if err != nil {
		return 0, err
	}
	undone, err := undoLog.Undo(tx, rec.Mark)
	if err != nil {
		return undone, err
	}
	for k := range snaps.Scan(store.Range{Start: record.SeqKey(id + 1)}) {
		if err := snaps.Delete(k); err != nil {
			return undone, err
		}
	}
	if err := c.upgrade(tx); err != nil { // a snapshot an older version took
		return undone, err
	}
	if err := restampPool(tx, epoch); err != nil {
		return undone, err
	}
	clock, err := readClock(tx)
	if err != nil {
		return undone, err
	}
	clock = clock.Rewound(rec.Wall, c.now().Unix())
	meta := map[string][]byte{metaEpoch: record.U64(epoch), metaReceived: record.U64(received), metaClock: record.Clock(clock)}
	for key, v := range meta {
		if err := putMeta(tx, key, v); err != nil {
			return undone, err
		}
	}
	return undone, nil
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
