package chain

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// copySnapshotV1 copies the buckets names into the copies a snapshot of
// format 7 or older with id kept, as that version's Snapshot did, and
// returns its record; the caller stores the records.
func copySnapshotV1(t *testing.T, f *fixture, id uint64, names []string) *record.SnapshotV1 {
	t.Helper()
	err := f.db.Update(func(tx store.Tx) error {
		for _, name := range names {
			src, dst := bucket(tx, name), bucket(tx, fmt.Sprintf("snap/%d/%s", id, name))
			for k, v := range src.Scan(store.Range{}) {
				if err := dst.Put(k, v); err != nil {
					return err
				}
			}
			if err := dst.SetSequence(src.Sequence()); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return &record.SnapshotV1{Wall: f.clock.Now().Unix(), Buckets: names}
}

// storeSnapshotsV1 stores the records of snapshots of format 7 or older,
// ids 1, 2, …, with the count of ids given at next, and makes the store's
// format format.
func storeSnapshotsV1(t *testing.T, db store.DB, recs []*record.SnapshotV1, next, format uint64) {
	t.Helper()
	err := db.Update(func(tx store.Tx) error {
		snaps := bucket(tx, devnet.BucketSnapshotsV1)
		for i, rec := range recs {
			if err := snaps.Put(record.SeqKey(uint64(i+1)), rec.Bytes()); err != nil {
				return err
			}
		}
		if err := snaps.SetSequence(next); err != nil {
			return err
		}
		return putMeta(tx, metaFormat, record.U64(format))
	})
	if err != nil {
		t.Fatal(err)
	}
}

// A store of format 7 with snapshots (copies of every bucket) is upgraded
// with them turned into snapshots of the undo log: each can be reverted
// to, giving back the chain as it found it, ids go on from where they
// were, and the copies are gone.
func TestUpgradeSnapshotsV1(t *testing.T) {
	f := newFixture(t, Config{DB: onDisk{mem.New()}}) // the mempool in its bucket, as a snapshot of format 7 copied it
	f.split(f.dev(), 6)
	change := func(name string) {
		u := newUser(name)
		u.last = f.publish(u.create(t, u.document(t, GenesisTime.AddDate(5, 0, 0), []did.Service{service("hub", "Hub")})))
		f.publish(u.update(t, u.document(t, GenesisTime.AddDate(6, 0, 0), nil)))
		f.submit(f.transfer(f.dev(), newWallet(name).ph, ela.OneELA)) // pooled
		f.clock.advance(time.Minute)
	}
	change("before 1")
	var recs []*record.SnapshotV1
	var states []string
	for i := range 2 {
		states = append(states, f.stateOf())
		recs = append(recs, copySnapshotV1(t, f, uint64(i+1), snapshotted()))
		change(fmt.Sprint("after ", i+1))
		if _, err := devnet.IncreaseTime(f.c, time.Hour); err != nil {
			t.Fatal(err)
		}
	}
	f.c.Close()
	storeSnapshotsV1(t, f.db, recs, 5, 7) // ids 3 to 5 were given and dropped
	f.open()

	if ids := f.snapshots(); !slices.Equal(ids, []uint64{1, 2}) {
		t.Errorf("snapshots after the upgrade: %v, want [1 2]", ids)
	}
	if format, _ := formatOf(t, f.db); format != storeFormat {
		t.Errorf("format %d after the upgrade, want %d", format, storeFormat)
	}
	if n := f.copiesV1(recs); n != 0 {
		t.Errorf("%d keys of the copies of format 7 left after the upgrade", n)
	}
	for _, id := range []uint64{2, 1} {
		change(fmt.Sprint("before reverting to ", id))
		if err := devnet.Revert(context.Background(), f.c, id); err != nil {
			t.Fatal(err)
		}
		if now := f.stateOf(); now != states[id-1] {
			t.Errorf("after Revert(%d):\n%s\nwant\n%s", id, now, states[id-1])
		}
		checkIndexes(t, f.c)
	}
	if id, err := devnet.Snapshot(f.c); err != nil || id != 6 {
		t.Errorf("Snapshot() after the upgrade = %d, %v; want 6", id, err)
	}
}

// A snapshot an older version took of its own format (2: no postings of
// the views, no counts) is upgraded with the store, and a revert to it
// upgrades what it gives back.
func TestUpgradeSnapshotV1OfFormat2(t *testing.T) {
	f := newFixture(t, Config{})
	publishMany(t, f, 10)
	want := resolveAll(t, f)
	f.c.Close()
	downgrade(t, f.db, 2)
	older := slices.DeleteFunc(snapshotted(), func(name string) bool { return name == didindex.BucketFields || name == didindex.BucketCounts })
	rec := copySnapshotV1(t, f, 1, older)
	storeSnapshotsV1(t, f.db, []*record.SnapshotV1{rec}, 1, 2)
	f.open()
	f.publishUsers("after the upgrade", 5)
	if err := devnet.Revert(context.Background(), f.c, 1); err != nil {
		t.Fatal(err)
	}
	checkIndexes(t, f.c)
	if format, fields := formatOf(t, f.db); format != storeFormat || fields == 0 {
		t.Errorf("after the revert: format %d with %d postings, want format %d with postings", format, fields, storeFormat)
	}
	if got := resolveAll(t, f); !slices.Equal(got, want) {
		t.Errorf("after the revert the DIDs resolve\n%q\nwant\n%q", got, want)
	}
}

// resolveAll returns the answers to resolvedid, all true, for the first
// 15 DIDs publishMany creates.
func resolveAll(t *testing.T, f *fixture) []string {
	t.Helper()
	var out []string
	for i := range 15 {
		u := newUser("upgrade " + string(rune('a'+i%26)) + string(rune('a'+i/26)))
		b, err := f.c.ResolveDID(context.Background(), u.did(), true)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, string(b))
	}
	return out
}

// copiesV1 counts the keys left in the copies of the snapshots recs.
func (f *fixture) copiesV1(recs []*record.SnapshotV1) int {
	f.t.Helper()
	n := 0
	err := f.db.View(func(tx store.Tx) error {
		for i, rec := range recs {
			for _, name := range append(rec.Buckets, devnet.BucketSnapshotsV1) {
				for range bucket(tx, fmt.Sprintf("snap/%d/%s", i+1, name)).Scan(store.Range{}) {
					n++
				}
			}
		}
		for range bucket(tx, devnet.BucketSnapshotsV1).Scan(store.Range{}) {
			n++
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}
