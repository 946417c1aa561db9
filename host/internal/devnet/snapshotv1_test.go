package devnet

import (
	"context"
	"fmt"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// copyV1 takes a snapshot of format 7 or older of the fake chain's state
// with id, as that version did: a copy of the state bucket, whose record
// it returns.
func (f *fakeChain) copyV1(t *testing.T, id uint64) *record.SnapshotV1 {
	t.Helper()
	err := f.db.Update(func(tx store.Tx) error {
		dst := record.Bucket(tx, fmt.Sprintf("snap/%d/%s", id, bucketState))
		for k, v := range record.Bucket(tx, bucketState).Scan(store.Range{}) {
			if err := dst.Put(k, v); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return &record.SnapshotV1{Wall: f.now, Buckets: []string{bucketState}}
}

// TestUpgradeSnapshots checks that snapshots of format 7 or older become
// snapshots of the undo log: each reverted to gives back the state it
// copied (none copied: an empty one), with its wall time; the ids stay,
// the count of ids goes on, and the copies and their records go.
func TestUpgradeSnapshots(t *testing.T) {
	f := newFake()
	recs := []*record.SnapshotV1{{Wall: f.now}} // taken before the state bucket was written: no copy
	f.now += 100
	f.set(t, "b")
	recs = append(recs, f.copyV1(t, 2))
	f.set(t, "c")
	err := f.db.Update(func(tx store.Tx) error {
		legacy := record.Bucket(tx, BucketSnapshotsV1)
		for i, rec := range recs {
			if err := legacy.Put(record.SeqKey(uint64(i+1)), rec.Bytes()); err != nil {
				return err
			}
		}
		return legacy.SetSequence(4) // a third and a fourth were dropped by a revert
	})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := f.Update(func(tx store.Tx) error { return UpgradeSnapshots(tx, []string{bucketState}) }); err != nil {
		t.Fatal(err)
	}
	if state, ids := f.state(t); state != "c" || !slices.Equal(ids, []uint64{1, 2}) {
		t.Fatalf("upgraded: state %q, snapshots %v; want %q, [1 2]", state, ids, "c")
	}
	err = f.db.View(func(tx store.Tx) error {
		for _, name := range []string{BucketSnapshotsV1, fmt.Sprintf("snap/2/%s", bucketState)} {
			for k := range record.Bucket(tx, name).Scan(store.Range{}) {
				t.Errorf("bucket %s still holds %x", name, k)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if id, err := Snapshot(f); err != nil || id != 5 {
		t.Fatalf("Snapshot after the upgrade: %d, %v; want 5", id, err)
	}
	for _, tc := range []struct {
		id        uint64
		wantState string
		wantWall  int64
		wantIDs   []uint64
	}{
		{2, "b", recs[1].Wall, []uint64{1, 2}},
		{1, "", recs[0].Wall, []uint64{1}},
	} {
		t.Run(fmt.Sprintf("revert to %d", tc.id), func(t *testing.T) {
			if err := Revert(context.Background(), f, tc.id); err != nil {
				t.Fatal(err)
			}
			if state, ids := f.state(t); state != tc.wantState || !slices.Equal(ids, tc.wantIDs) {
				t.Errorf("state %q, snapshots %v; want %q, %v", state, ids, tc.wantState, tc.wantIDs)
			}
			if f.wall != tc.wantWall {
				t.Errorf("wall time %d given back, want %d", f.wall, tc.wantWall)
			}
		})
	}
}
