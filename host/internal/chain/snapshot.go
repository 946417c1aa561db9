package chain

import (
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/didlight/didlight/host/internal/chain/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// A devnet snapshot (Snapshot, Revert) is a copy, in the chain's own
// store, of every bucket the chain keeps (meta and allBuckets: blocks,
// indexes, the stored mempool, the clock), taken in one store transaction.
// A revert copies them back and drops the snapshot and every later one,
// in one store transaction too, so that a node killed during either comes
// back before or after it. Each snapshot costs a copy of the chain's
// state, in time and in space (docs/devnet.md measures it).

// ErrUnknownSnapshot is the error of Revert given an id that names no
// snapshot (never taken, or dropped by a revert); it is wrapped with the
// id.
var ErrUnknownSnapshot = errors.New("chain: no such snapshot")

// snapshotted returns the buckets a snapshot copies.
func snapshotted() []string { return append([]string{bucketMeta}, allBuckets...) }

// snapshotBucket names the copy of bucket name kept by snapshot id.
func snapshotBucket(id uint64, name string) string { return fmt.Sprintf("snap/%d/%s", id, name) }

// Snapshot takes a snapshot of the chain as it is: its blocks, indexes,
// stored mempool and clock. It returns the snapshot's id, which Revert
// takes; ids count up from 1 and are never given twice.
func (c *Chain) Snapshot() (uint64, error) {
	if err := c.lockControl(context.Background()); err != nil {
		return 0, err
	}
	defer c.mining.Unlock()
	var id uint64
	unstored := c.pool.unstored()
	var seqs []uint64
	err := c.db.Update(func(tx store.Tx) error {
		snaps := bucket(tx, bucketSnapshots)
		var err error
		if id, err = snaps.NextSequence(); err != nil {
			return err
		}
		if seqs, err = c.storePool(tx, unstored); err != nil { // the log's or memory's entries join the bucket the snapshot copies
			return err
		}
		rec := record.Snapshot{Wall: c.now().Unix()}
		for _, name := range snapshotted() {
			if err := copyBucket(tx, name, snapshotBucket(id, name)); err != nil {
				return err
			}
			rec.Buckets = append(rec.Buckets, name)
		}
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
// out), and drops that snapshot and every later one. Callers of
// SubmitRequest still waiting get ErrReset. An id that names no snapshot
// gets ErrUnknownSnapshot and changes nothing.
func (c *Chain) Revert(ctx context.Context, id uint64) error {
	if err := c.lockControl(ctx); err != nil {
		return err
	}
	defer c.mining.Unlock()
	c.mu.RLock()
	epoch := c.epoch + 1
	c.mu.RUnlock()
	received := c.received.Load()
	err := c.db.Update(func(tx store.Tx) error { return c.revert(tx, id, epoch, received) })
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
	c.log.Info("reverted to a snapshot", "id", id, "height", h.tip.Height, "epoch", h.epoch)
	return nil
}

// revert copies snapshot id back within tx, as epoch (its pooled
// transactions restamped so that they are pooled again), keeping the count
// of transactions received, and drops it and every later snapshot.
func (c *Chain) revert(tx store.Tx, id, epoch, received uint64) error {
	v, ok := bucket(tx, bucketSnapshots).Get(record.SeqKey(id))
	if !ok {
		return fmt.Errorf("%w: %d", ErrUnknownSnapshot, id)
	}
	rec, err := record.ParseSnapshot(v)
	if err != nil {
		return err
	}
	for _, name := range snapshotted() {
		if !slices.Contains(rec.Buckets, name) {
			if err := tx.DeleteBucket(name); err != nil {
				return err
			}
		}
	}
	for _, name := range rec.Buckets {
		if err := copyBucket(tx, snapshotBucket(id, name), name); err != nil {
			return err
		}
	}
	if err := c.upgrade(tx); err != nil { // a snapshot an older version took
		return err
	}
	if err := restampPool(tx, epoch); err != nil {
		return err
	}
	clock, err := readClock(tx)
	if err != nil {
		return err
	}
	clock = clock.Rewound(rec.Wall, c.now().Unix())
	meta := map[string][]byte{metaEpoch: record.U64(epoch), metaReceived: record.U64(received), metaClock: record.Clock(clock)}
	for key, v := range meta {
		if err := putMeta(tx, key, v); err != nil {
			return err
		}
	}
	return dropSnapshots(tx, id)
}

// copyBucket makes bucket to a copy of bucket from: its keys and its
// sequence (which the store sets only by counting up to it).
func copyBucket(tx store.Tx, from, to string) error {
	if err := tx.DeleteBucket(to); err != nil {
		return err
	}
	src, dst := bucket(tx, from), bucket(tx, to)
	for k, v := range src.Scan(store.Range{}) {
		if err := dst.Put(k, v); err != nil {
			return err
		}
	}
	for dst.Sequence() < src.Sequence() {
		if _, err := dst.NextSequence(); err != nil {
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

// dropSnapshots deletes snapshot id and every later one.
func dropSnapshots(tx store.Tx, id uint64) error {
	snaps := bucket(tx, bucketSnapshots)
	for k, v := range snaps.Scan(store.Range{Start: record.SeqKey(id)}) {
		later, err := record.ParseSeqKey(k)
		if err != nil {
			return err
		}
		rec, err := record.ParseSnapshot(v)
		if err != nil {
			return err
		}
		for _, name := range rec.Buckets {
			if err := tx.DeleteBucket(snapshotBucket(later, name)); err != nil {
				return err
			}
		}
		if err := snaps.Delete(k); err != nil {
			return err
		}
	}
	return nil
}
