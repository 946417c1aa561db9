package devnet

import (
	"bytes"
	"fmt"
	"iter"
	"slices"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// The snapshots of store formats 7 and older (BucketSnapshotsV1) were
// copies of every bucket a snapshot covers, in buckets "snap/ID/NAME", so
// that each cost the whole state. A store of such a format is upgraded
// with its snapshots turned into marks of the undo log, in the Update
// that opens it (UpgradeSnapshots): no snapshot taken is lost, and the
// copies go.

// snapshotV1 is a snapshot of format 7 or older.
type snapshotV1 struct {
	id  uint64
	rec *record.SnapshotV1
}

// copyOf returns snapshot s's copy of bucket name, or nil if s copied no
// such bucket (an older version's chain had none: it was empty then).
func (s snapshotV1) copyOf(tx store.Tx, name string) store.Bucket {
	if !slices.Contains(s.rec.Buckets, name) {
		return nil
	}
	return record.Bucket(tx, fmt.Sprintf("snap/%d/%s", s.id, name))
}

// UpgradeSnapshots turns the snapshots of format 7 or older into
// snapshots of this format, oldest first, buckets being those a snapshot
// gives back: each becomes a mark in the undo log followed by the entries
// that take the chain as the next snapshot found it (or as it is, after
// the last) back to as this one found it.
// Their ids, and the count that gives the next one, stay; the copies go.
// It must run before anything else in tx writes the chain's buckets, so
// that those writes are logged after the last snapshot's entries.
func UpgradeSnapshots(tx store.Tx, buckets []string) error {
	legacy := record.Bucket(tx, BucketSnapshotsV1)
	var olds []snapshotV1
	for k, v := range legacy.Scan(store.Range{}) {
		id, err := record.ParseSeqKey(k)
		if err != nil {
			return err
		}
		rec, err := record.ParseSnapshotV1(v)
		if err != nil {
			return err
		}
		olds = append(olds, snapshotV1{id, rec})
	}
	snaps := record.Bucket(tx, BucketSnapshots)
	for i, s := range olds {
		mark, err := undoLog.Mark(tx)
		if err != nil {
			return err
		}
		for _, name := range buckets {
			later := record.Bucket(tx, name)
			if i+1 < len(olds) {
				later = olds[i+1].copyOf(tx, name)
			}
			if err := logDifference(tx, name, s.copyOf(tx, name), later); err != nil {
				return fmt.Errorf("snapshot %d, bucket %s: %w", s.id, name, err)
			}
		}
		rec := record.Snapshot{Wall: s.rec.Wall, Mark: mark}
		if err := snaps.Put(record.SeqKey(s.id), rec.Bytes()); err != nil {
			return err
		}
	}
	if legacy.Sequence() > snaps.Sequence() {
		if err := snaps.SetSequence(legacy.Sequence()); err != nil {
			return err
		}
	}
	for _, s := range olds {
		for _, name := range s.rec.Buckets {
			if err := tx.DeleteBucket(fmt.Sprintf("snap/%d/%s", s.id, name)); err != nil {
				return err
			}
		}
	}
	return tx.DeleteBucket(BucketSnapshotsV1)
}

// logDifference appends to the undo log the entries that make bucket
// name hold what then holds (nil: nothing, sequence 0) where it holds
// what now holds: then's value of each key whose value differs, the
// absence of each key then lacks, then's sequence if it differs.
func logDifference(tx store.Tx, name string, then, now store.Bucket) error {
	keys := func(b store.Bucket) (func() ([]byte, []byte, bool), func()) {
		if b == nil {
			return func() ([]byte, []byte, bool) { return nil, nil, false }, func() {}
		}
		return iter.Pull2(b.Scan(store.Range{}))
	}
	nextThen, stopThen := keys(then)
	defer stopThen()
	nextNow, stopNow := keys(now)
	defer stopNow()
	kt, vt, okt := nextThen()
	kn, vn, okn := nextNow()
	for okt || okn {
		order := 0 // which key comes first: -1 then's, 1 now's, 0 the same
		switch {
		case !okn:
			order = -1
		case !okt:
			order = 1
		default:
			order = bytes.Compare(kt, kn)
		}
		var u *record.Undo
		switch {
		case order < 0 || order == 0 && !bytes.Equal(vt, vn):
			u = &record.Undo{Kind: record.UndoValue, Bucket: name, Key: kt, Value: vt}
		case order > 0:
			u = &record.Undo{Kind: record.UndoAbsent, Bucket: name, Key: kn}
		}
		if u != nil {
			if err := undoLog.Append(tx, u); err != nil {
				return err
			}
		}
		if order <= 0 {
			kt, vt, okt = nextThen()
		}
		if order >= 0 {
			kn, vn, okn = nextNow()
		}
	}
	var seqThen, seqNow uint64
	if then != nil {
		seqThen = then.Sequence()
	}
	if now != nil {
		seqNow = now.Sequence()
	}
	if seqThen == seqNow {
		return nil
	}
	return undoLog.Append(tx, &record.Undo{Kind: record.UndoSequence, Bucket: name, Seq: seqThen})
}
