package eidindex

import (
	"bytes"
	"context"
	"strconv"
	"testing"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/eid"
	"github.com/didlight/didlight/host/internal/eidsync"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// open opens an index of the recorded chain in db.
func open(t testing.TB, r *recorded, db store.DB, keep int) *Index {
	t.Helper()
	ix, err := Open(Config{DB: db, Network: eid.NetworkOf(r.manifest.ChainID), Keep: keep})
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// feed applies the recorded blocks from the index's head (or block 0) to
// block last, in calls of up to batch blocks.
func feed(t testing.TB, ix *Index, r *recorded, last uint64, batch int) {
	t.Helper()
	from := uint64(0)
	if n, _, ok := ix.Head(); ok {
		from = n + 1
	}
	for from <= last {
		to := min(from+uint64(batch)-1, last)
		if err := ix.Apply(context.Background(), r.blocks[from:to+1]); err != nil {
			t.Fatalf("blocks %d to %d: %v", from, to, err)
		}
		from = to + 1
	}
}

// checkAnswers asserts that the index answers every did_resolveDID the
// node was asked at checkpoint as the node did, byte for byte.
func checkAnswers(t *testing.T, ix *Index, r *recorded, checkpoint string) {
	t.Helper()
	for _, a := range resolves(t, r.checkpoints[checkpoint]) {
		d, err := did.Parse(a.did)
		if err != nil {
			t.Errorf("%s: %v", a.note, err)
			continue
		}
		got, err := ix.ResolveDIDSDK(context.Background(), d, a.all)
		if err != nil {
			t.Errorf("%s: %v", a.note, err)
			continue
		}
		if !bytes.Equal(got, a.result) {
			t.Errorf("%s at %s:\n got %s\nwant %s", a.note, checkpoint, got, a.result)
		}
	}
}

// The index fed the real node's blocks answers did_resolveDID at each
// checkpoint as the node did, refuses what the node refused, and counts it.
func TestRecordedChain(t *testing.T) {
	r := loadRecorded(t)
	if r.refusedUpTo(uint64(len(r.blocks))) < 5 {
		t.Fatalf("only %d refused operations fed", r.refusedUpTo(uint64(len(r.blocks))))
	}
	for _, batch := range []int{1, 7, 200} {
		t.Run("batches of "+strconv.Itoa(batch), func(t *testing.T) {
			ix := open(t, r, mem.New(), 0)
			for _, c := range r.manifest.Checkpoints {
				feed(t, ix, r, c.Head, batch)
				checkAnswers(t, ix, r, c.Name)
				if got, want := ix.Counts().Refused, r.refusedUpTo(c.Head); got != want {
					t.Errorf("at %s: %d operations refused, want %d (%+v)", c.Name, got, want, ix.Counts().LastRefused)
				}
			}
			if n, h, ok := ix.Head(); !ok || n != uint64(len(r.blocks)-1) || h != r.blocks[n].Hash {
				t.Errorf("head %d %x %v, want the last block", n, h, ok)
			}
		})
	}
}

// A block that does not follow the head is refused and changes nothing.
func TestApplyUnlinked(t *testing.T) {
	r := loadRecorded(t)
	ix := open(t, r, mem.New(), 0)
	feed(t, ix, r, 10, 10)
	for name, blocks := range map[string][]*eidsync.Block{
		"a gap":          {r.blocks[12]},
		"the head again": {r.blocks[10]},
		"another parent": {{Number: 11, Parent: r.blocks[9].Hash, Hash: r.blocks[11].Hash}},
		"a gap inside":   {r.blocks[11], r.blocks[13]},
	} {
		t.Run(name, func(t *testing.T) {
			if err := ix.Apply(context.Background(), blocks); err == nil {
				t.Fatal("applied")
			}
			if n, _, _ := ix.Head(); n != 10 {
				t.Errorf("head %d, want 10", n)
			}
		})
	}
}

// Rolled back to a checkpoint's head, the index answers as the node did
// there; re-applied, as at the end. Beyond its undo it refuses.
func TestRollback(t *testing.T) {
	r := loadRecorded(t)
	final := r.checkpoint(t, "final")
	ix := open(t, r, mem.New(), 0)
	feed(t, ix, r, final, 16)
	for _, name := range []string{"active", "created"} {
		if err := ix.Rollback(r.checkpoint(t, name)); err != nil {
			t.Fatal(err)
		}
		checkAnswers(t, ix, r, name)
		if got, want := ix.Counts().Refused, r.refusedUpTo(r.checkpoint(t, name)); got != want {
			t.Errorf("at %s: %d refused, want %d", name, got, want)
		}
	}
	feed(t, ix, r, final, 5)
	checkAnswers(t, ix, r, "final")

	short := open(t, r, mem.New(), 10)
	feed(t, short, r, final, 16)
	if err := short.Rollback(final - 11); err == nil {
		t.Error("rolled back 11 blocks with undo for 10")
	}
	if err := short.Rollback(final - 10); err != nil {
		t.Errorf("rolling back 10 blocks with undo for 10: %v", err)
	}
	if err := short.Rollback(final); err == nil {
		t.Error("rolled back to a block above the head")
	}
}

// A store reopened continues from its head, and refuses another chain.
func TestReopen(t *testing.T) {
	r := loadRecorded(t)
	dir := t.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		t.Fatal(err)
	}
	active := r.checkpoint(t, "active")
	feed(t, open(t, r, db, 0), r, active, 9)
	db.Close()
	if db, err = bolt.Open(dir, bolt.Options{}); err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := Open(Config{DB: db, Network: eid.Mainnet}); err == nil {
		t.Error("opened the index of a private chain as mainnet's")
	}
	ix := open(t, r, db, 0)
	if n, h, ok := ix.Head(); !ok || n != active || h != r.blocks[active].Hash {
		t.Fatalf("reopened at %d %x %v, want block %d", n, h, ok, active)
	}
	checkAnswers(t, ix, r, "active")
	feed(t, ix, r, r.checkpoint(t, "final"), 9)
	checkAnswers(t, ix, r, "final")
}

// catchUp returns copies of blocks as a scan hands them when the
// upstream's head is head.
func catchUp(blocks []*eidsync.Block, head uint64) []*eidsync.Block {
	out := make([]*eidsync.Block, len(blocks))
	for i, b := range blocks {
		c := *b
		c.UpstreamHead = head
		out[i] = &c
	}
	return out
}

// A catch-up keeps no undo for the blocks Keep or more below the
// upstream's head, and exactly the undo of the others: rolled back within
// them, the index answers as the node did; deeper, it refuses, changing
// nothing. Undo kept before a block applied without it is dropped.
func TestCatchUpUndo(t *testing.T) {
	r := loadRecorded(t)
	final, active := r.checkpoint(t, "final"), r.checkpoint(t, "active")
	keep := int(final - active) // block active+1 on are logged
	if final/2+16 >= active {
		t.Fatalf("checkpoint active %d in the first half of %d blocks", active, final)
	}
	for name, logged := range map[string]uint64{
		"from genesis":       0,         // every block read with the head known
		"after a logged run": final / 2, // the first half applied near the head, then the head jumped
	} {
		t.Run(name, func(t *testing.T) {
			ix := open(t, r, mem.New(), keep)
			feed(t, ix, r, logged, 16)
			rest := catchUp(r.blocks[logged+1:final+1], final) // block logged, near the head when applied, keeps its undo until then
			for i := 0; i < len(rest); i += 16 {
				if err := ix.Apply(context.Background(), rest[i:min(i+16, len(rest))]); err != nil {
					t.Fatal(err)
				}
				if i == 0 && ix.Rollback(logged-1) == nil { // all of the batch applied without undo
					t.Fatalf("rolled back across blocks %d to %d, applied without undo", logged+1, logged+16)
				}
			}
			if _, ok := ix.HashAt(active); ok {
				t.Errorf("block %d, %d below the head, kept", active, keep)
			}
			for _, n := range []uint64{active - 1, logged - 1} {
				if err := ix.Rollback(n); err == nil {
					t.Errorf("rolled back to block %d, below the undo kept", n)
				}
			}
			if n, _, _ := ix.Head(); n != final {
				t.Errorf("a refused rollback moved the head to %d", n)
			}
			if err := ix.Rollback(active); err != nil {
				t.Fatalf("rolling back to block %d: %v", active, err)
			}
			checkAnswers(t, ix, r, "active")
			if got, want := ix.Counts().Refused, r.refusedUpTo(active); got != want {
				t.Errorf("%d refused, want %d", got, want)
			}
			feed(t, ix, r, final, 5)
			checkAnswers(t, ix, r, "final")
		})
	}
}
