package devnet

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/undo"
)

// A snapshot (Snapshot, Revert) is a mark in an undo log kept in the
// chain's own store (BucketUndo): while a snapshot lives, every store
// transaction that changes the chain's buckets (blocks, indexes, the
// stored mempool, the clock, the counters) also logs what each key and
// bucket sequence held before, once per transaction (Logged). Taking a
// snapshot writes its record and nothing else; a revert undoes the
// entries after its mark, newest first, and drops them, so it costs what
// changed since. Each runs in one store transaction, so that a node
// killed during either comes back before or after it. What the chain
// keeps in memory (the head, the mempool, the documents kept) is read
// again from the store after a revert, as after a reset (Control.Restart).
//
// A revert keeps the snapshot it went back to, and the earlier ones, and
// drops the later ones: they name states the revert took out of the
// chain's history (docs/devnet.md says why).

// The buckets of a chain's store that keep its snapshots. Keys and values
// are encoded by package record.
const (
	BucketSnapshots   = "undo/snapshots" // snapshot id (record.SeqKey) → record.Snapshot; its sequence gives the ids
	BucketUndo        = "undo/log"       // the undo log (package undo) of what was written since the oldest snapshot
	BucketSnapshotsV1 = "snapshots"      // store formats 7 and older: id → record.SnapshotV1, the copies in "snap/ID/NAME" (UpgradeSnapshots)
)

// ErrUnknownSnapshot is the error of Revert given an id that names no
// snapshot (never taken, or dropped by a revert to an earlier one); it is
// wrapped with the id.
var ErrUnknownSnapshot = errors.New("chain: no such snapshot")

// undoLog is the undo log of the snapshots. Only Logged needs to know
// which buckets it covers; marking, undoing and appending do not.
var undoLog = undo.Log{Name: BucketUndo}

// Logged returns tx with its writes to the buckets covered logged while a
// snapshot lives, so that a revert can undo them; with none, tx itself.
// Every write of a chain that offers snapshots goes through it.
func Logged(tx store.Tx, covered func(bucket string) bool) store.Tx {
	if !snapshotsLive(tx) {
		return tx
	}
	return undo.Log{Name: BucketUndo, Covered: covered}.Tx(tx)
}

// snapshotsLive reports whether the store holds a snapshot, of this
// format or of an older one that the store's upgrade turns into one.
func snapshotsLive(tx store.Tx) bool {
	for _, name := range []string{BucketSnapshots, BucketSnapshotsV1} {
		for range record.Bucket(tx, name).ScanShared(store.Range{}) {
			return true
		}
	}
	return false
}

// Snapshot takes a snapshot of c as it is: its blocks, indexes, stored
// mempool and clock. It returns the snapshot's id, which Revert takes;
// ids count up from 1 and are never given twice.
func Snapshot(c Chain) (uint64, error) {
	ctl, err := c.Control(context.Background())
	if err != nil {
		return 0, err
	}
	defer ctl.Release()
	_, _, now := ctl.Clock()
	var id uint64
	after, err := ctl.Update(func(tx store.Tx) (err error) {
		id, err = take(tx, now)
		return err
	})
	if err != nil {
		return 0, fmt.Errorf("chain: snapshot: %w", err)
	}
	if after != nil {
		return 0, fmt.Errorf("chain: snapshot %d is taken, but trimming the mempool log failed: %w", id, after)
	}
	ctl.Info("snapshot taken", "id", id)
	return id, nil
}

// take records, within tx, a snapshot taken at wall (Unix seconds) at the
// undo log's position, and returns its id.
func take(tx store.Tx, wall int64) (uint64, error) {
	snaps := record.Bucket(tx, BucketSnapshots)
	id, err := snaps.NextSequence()
	if err != nil {
		return 0, err
	}
	mark, err := undoLog.Mark(tx)
	if err != nil {
		return 0, err
	}
	rec := record.Snapshot{Wall: wall, Mark: mark}
	return id, snaps.Put(record.SeqKey(id), rec.Bytes())
}

// Revert puts c back as snapshot id found it: blocks, indexes, mempool
// and the clock's reading (the time that passed since is taken out). It
// keeps that snapshot and the earlier ones, and drops the later ones.
// Callers of the chain's SubmitRequest still waiting get its ErrReset. An
// id that names no snapshot gets ErrUnknownSnapshot and changes nothing.
func Revert(ctx context.Context, c Chain, id uint64) error {
	ctl, err := c.Control(ctx)
	if err != nil {
		return err
	}
	defer ctl.Release()
	var undone int
	h, err := ctl.Restart(func(tx store.Tx) (wall int64, err error) {
		wall, undone, err = undoTo(tx, id)
		return wall, err
	})
	if errors.Is(err, ErrUnknownSnapshot) {
		return err
	}
	if err != nil {
		return fmt.Errorf("chain: revert to snapshot %d: %w", id, err)
	}
	ctl.Info("reverted to a snapshot", "id", id, "height", h.Height, "epoch", h.Epoch, "undone", undone)
	return nil
}

// undoTo undoes, within tx, what was written since snapshot id and drops
// the later snapshots. It returns when (Unix seconds) the snapshot was
// taken and how many undo entries it applied.
func undoTo(tx store.Tx, id uint64) (wall int64, undone int, err error) {
	snaps := record.Bucket(tx, BucketSnapshots)
	v, ok := snaps.Get(record.SeqKey(id))
	if !ok {
		return 0, 0, fmt.Errorf("%w: %d", ErrUnknownSnapshot, id)
	}
	rec, err := record.ParseSnapshot(v)
	if err != nil {
		return 0, 0, err
	}
	if undone, err = undoLog.Undo(tx, rec.Mark); err != nil {
		return 0, undone, err
	}
	for k := range snaps.Scan(store.Range{Start: record.SeqKey(id + 1)}) {
		if err := snaps.Delete(k); err != nil {
			return 0, undone, err
		}
	}
	return rec.Wall, undone, nil
}
