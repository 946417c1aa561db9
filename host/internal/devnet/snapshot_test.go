package devnet

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// bucketState holds the fake chain's state, under one key; a snapshot
// gives it back.
const bucketState = "state"

func isState(name string) bool { return name == bucketState }

// set makes the fake chain's state v, as a chain's write does.
func (f *fakeChain) set(t *testing.T, v string) {
	t.Helper()
	if _, err := f.Update(func(tx store.Tx) error { return record.Bucket(tx, bucketState).Put([]byte("k"), []byte(v)) }); err != nil {
		t.Fatal(err)
	}
}

// state returns the fake chain's state and the ids of its snapshots.
func (f *fakeChain) state(t *testing.T) (string, []uint64) {
	t.Helper()
	var v []byte
	var ids []uint64
	err := f.db.View(func(tx store.Tx) error {
		v, _ = record.Bucket(tx, bucketState).Get([]byte("k"))
		for k := range record.Bucket(tx, BucketSnapshots).Scan(store.Range{}) {
			id, err := record.ParseSeqKey(k)
			if err != nil {
				return err
			}
			ids = append(ids, id)
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return string(v), ids
}

// TestSnapshotRevert runs its steps in order on one fake chain, whose
// wall clock moves a second a step: snapshots are numbered from 1 and
// never twice, a revert gives back the state and the wall time of its
// snapshot, keeps it and the earlier ones and drops the later ones, and
// an unknown id changes nothing.
func TestSnapshotRevert(t *testing.T) {
	f := newFake()
	for _, step := range []struct {
		name      string
		set       string // the state written first, if any
		snapshot  uint64 // the id a snapshot taken then gets; 0: none taken
		revert    uint64 // the snapshot reverted to then; 0: none
		unknown   bool   // the revert is refused with ErrUnknownSnapshot
		wantWall  int64  // the wall time the revert gives back
		wantState string
		wantIDs   []uint64
	}{
		{name: "first", set: "a", snapshot: 1, wantState: "a", wantIDs: []uint64{1}},
		{name: "second", set: "b", snapshot: 2, wantState: "b", wantIDs: []uint64{1, 2}},
		{name: "revert to the second", set: "c", revert: 2, wantWall: wall + 1, wantState: "b", wantIDs: []uint64{1, 2}},
		{name: "revert to one never taken", revert: 3, unknown: true, wantState: "b", wantIDs: []uint64{1, 2}},
		{name: "revert to the first", set: "d", revert: 1, wantWall: wall, wantState: "a", wantIDs: []uint64{1}},
		{name: "revert to one dropped", revert: 2, unknown: true, wantState: "a", wantIDs: []uint64{1}},
		{name: "a third, not numbered 2", set: "e", snapshot: 3, wantState: "e", wantIDs: []uint64{1, 3}},
		{name: "revert to the first again", revert: 1, wantWall: wall, wantState: "a", wantIDs: []uint64{1}},
	} {
		t.Run(step.name, func(t *testing.T) {
			if step.set != "" {
				f.set(t, step.set)
			}
			if step.snapshot != 0 {
				if id, err := Snapshot(f); err != nil || id != step.snapshot {
					t.Fatalf("Snapshot: %d, %v, want %d", id, err, step.snapshot)
				}
			}
			if step.revert != 0 {
				restarts := f.restarts
				err := Revert(context.Background(), f, step.revert)
				switch {
				case step.unknown && (!errors.Is(err, ErrUnknownSnapshot) || err.Error() != fmt.Sprintf("chain: no such snapshot: %d", step.revert)):
					t.Fatalf("Revert(%d): %v, want ErrUnknownSnapshot naming it", step.revert, err)
				case step.unknown && f.restarts != restarts:
					t.Fatalf("Revert(%d) to an unknown snapshot restarted the chain", step.revert)
				case !step.unknown && err != nil:
					t.Fatalf("Revert(%d): %v", step.revert, err)
				case !step.unknown && f.wall != step.wantWall:
					t.Errorf("Revert(%d) gave back wall time %d, want %d", step.revert, f.wall, step.wantWall)
				}
			}
			if f.held {
				t.Error("the control was not released")
			}
			if state, ids := f.state(t); state != step.wantState || !slices.Equal(ids, step.wantIDs) {
				t.Errorf("state %q, snapshots %v; want %q, %v", state, ids, step.wantState, step.wantIDs)
			}
			f.now++
		})
	}
}
