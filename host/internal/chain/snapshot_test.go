package chain

import (
	"cmp"
	"context"
	"crypto/sha256"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
	"github.com/didlight/didlight/host/internal/undo"
)

// stateOf describes everything a revert must give back: storedState, and
// the clock's reading.
func (f *fixture) stateOf() string {
	f.t.Helper()
	f.c.mu.RLock()
	clock := f.c.clock
	f.c.mu.RUnlock()
	return storedState(f.t, f.c, f.db) + "\nclock " + time.Unix(clock.Read(f.clock.Now().Unix()), 0).UTC().Format(time.RFC3339)
}

// snapshots returns the ids of the snapshots the chain keeps.
func (f *fixture) snapshots() []uint64 {
	f.t.Helper()
	return snapshotIDs(f.t, f.db)
}

// snapshotIDs returns the ids of the snapshots the store in db keeps.
func snapshotIDs(t testing.TB, db store.DB) []uint64 {
	t.Helper()
	var ids []uint64
	err := db.View(func(tx store.Tx) error {
		for k := range bucket(tx, devnet.BucketSnapshots).Scan(store.Range{}) {
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
	return ids
}

// storedState describes the chain c on db: a digest of every stored key,
// value and sequence (the meta counters that a revert moves on left out,
// and the pool bucket, which holds the mempool or part of it, with a
// mempool log), the tip, the mempool and the count of transactions, as c
// holds them in memory (and reloads them from what is stored).
func storedState(t testing.TB, c *Chain, db store.DB) string {
	t.Helper()
	h := sha256.New()
	err := db.View(func(tx store.Tx) error {
		for _, name := range snapshotted() {
			if name == bucketPool {
				continue
			}
			b := bucket(tx, name)
			fmt.Fprintf(h, "%s %d\n", name, b.Sequence())
			for k, v := range b.Scan(store.Range{}) {
				if name == bucketMeta && slices.Contains([]string{metaEpoch, metaReceived, metaClock}, string(k)) {
					continue
				}
				fmt.Fprintf(h, "%x=%x\n", k, v)
			}
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	height, hash, at := c.Tip()
	var pool []string
	for _, tx := range c.Mempool() {
		pool = append(pool, tx.Hash().String())
	}
	return fmt.Sprintf("store %x\ntip %d %s at %d\nmempool %v\ntransactions %d", h.Sum(nil), height, hash, at, pool, c.Stats().TxnCnt)
}

// publishUsers creates n DIDs, named after name, each by its own
// transaction from the dev account; submitted at once, in blocks of at
// most 1,000, they share the store's commits.
func (f *fixture) publishUsers(name string, n int) {
	f.t.Helper()
	for from := 0; from < n; from += 1000 {
		chunk := min(n-from, 1000)
		var wg sync.WaitGroup
		for i, u := range f.splitLargest(chunk) {
			user := newUser(fmt.Sprint(name, " ", from+i))
			tx := f.spendTx(f.dev(), operation(user.create(f.t, user.document(f.t, GenesisTime.AddDate(5, 0, 0), nil))), u)
			wg.Go(func() {
				if _, err := f.c.SubmitTx(tx.Bytes()); err != nil {
					f.t.Error(err)
				}
			})
		}
		wg.Wait()
		f.mine()
	}
}

// splitLargest splits the dev account's largest output into n equal ones,
// in a block, and returns them.
func (f *fixture) splitLargest(n int) []UTXO {
	f.t.Helper()
	all, err := f.c.UTXOs(f.dev().ph)
	if err != nil {
		f.t.Fatal(err)
	}
	largest := slices.MaxFunc(all, func(a, b UTXO) int { return cmp.Compare(a.Value, b.Value) })
	outs := make([]ela.Output, n)
	for i := range outs {
		outs[i] = out(f.dev().ph, largest.Value/ela.Fixed64(n+1))
	}
	split := f.submit(f.spendTx(f.dev(), &ela.TransferAsset{}, largest, outs...))
	f.mine()
	if all, err = f.c.UTXOs(f.dev().ph); err != nil {
		f.t.Fatal(err)
	}
	var parts []UTXO
	for _, u := range all {
		if u.Txid == split && int(u.Index) < n {
			parts = append(parts, u)
		}
	}
	return parts
}

// resolveStatus returns the status resolvedid answers for d.
func (f *fixture) resolveStatus(d did.DID) string {
	f.t.Helper()
	b, err := f.c.ResolveDID(context.Background(), d, false)
	if err != nil {
		f.t.Fatal(err)
	}
	return string(b[:min(len(b), 80)])
}

func TestSnapshotRevert(t *testing.T) {
	for _, backend := range []string{"mem", "bolt", "bolt+log"} {
		t.Run(backend, func(t *testing.T) { testSnapshotRevert(t, newFixture(t, backendConfig(t, backend))) })
	}
}

func testSnapshotRevert(t *testing.T, f *fixture) {
	ctx := context.Background()
	alice, bob := newUser("alice"), newUser("bob")
	alice.last = f.publish(alice.create(t, alice.document(t, began2025.AddDate(1, 0, 0), nil)))
	pay := f.submit(f.transfer(f.dev(), newWallet("w").ph, 500_000_000)) // pooled, not mined
	aliceThen, bobThen := f.resolveStatus(alice.did()), f.resolveStatus(bob.did())
	then := f.stateOf()
	id, err := devnet.Snapshot(f.c)
	if err != nil || id != 1 {
		t.Fatalf("Snapshot() = %d, %v; want 1", id, err)
	}
	if now := f.stateOf(); now != then {
		t.Fatalf("Snapshot changed the chain:\nbefore %s\nafter  %s", then, now)
	}

	// Much happens after it: a day passes, the payment is mined, bob is
	// created, alice deactivated, another snapshot taken.
	f.clock.advance(time.Minute)
	if _, err := devnet.IncreaseTime(f.c, 24*time.Hour); err != nil {
		t.Fatal(err)
	}
	bob.last = f.publish(bob.create(t, bob.document(t, began2025.AddDate(1, 0, 0), nil)))
	if id2, err := devnet.Snapshot(f.c); err != nil || id2 != 2 {
		t.Fatalf("a second Snapshot() = %d, %v; want 2", id2, err)
	}
	f.publish(alice.deactivate(t))
	if _, _, err := f.c.Tx(pay); err != nil {
		t.Fatalf("the payment was not mined: %v", err)
	}

	for _, bad := range []uint64{0, 3, 99} {
		before := f.stateOf()
		if err := devnet.Revert(ctx, f.c, bad); !errors.Is(err, devnet.ErrUnknownSnapshot) || err.Error() != fmt.Sprintf("chain: no such snapshot: %d", bad) {
			t.Errorf("Revert(%d): %v, want devnet.ErrUnknownSnapshot naming it", bad, err)
		}
		if after := f.stateOf(); after != before {
			t.Errorf("Revert(%d) changed the chain", bad)
		}
	}

	f.clock.advance(time.Hour) // the wall clock's time between is taken out
	if err := devnet.Revert(ctx, f.c, 1); err != nil {
		t.Fatal(err)
	}
	if now := f.stateOf(); now != then {
		t.Errorf("after Revert(1):\n%s\nwant\n%s", now, then)
	}
	if a, b := f.resolveStatus(alice.did()), f.resolveStatus(bob.did()); a != aliceThen || b != bobThen {
		t.Errorf("after Revert(1) alice resolves %s, bob %s; want %s, %s", a, b, aliceThen, bobThen)
	}
	if ids := f.snapshots(); !slices.Equal(ids, []uint64{1}) {
		t.Errorf("snapshots after Revert(1): %v; want [1] (1 kept, the later 2 dropped)", ids)
	}
	if err := devnet.Revert(ctx, f.c, 2); !errors.Is(err, devnet.ErrUnknownSnapshot) {
		t.Errorf("Revert(2) after Revert(1): %v, want devnet.ErrUnknownSnapshot", err)
	}

	// The chain goes on from there: the pooled payment is mined in the
	// next block, bob can be created, ids are not given twice.
	b := f.mine()
	if b.Transactions[len(b.Transactions)-1].Hash() != pay {
		t.Errorf("the block after the revert does not hold the pooled payment %s", pay)
	}
	f.publish(bob.create(t, bob.document(t, began2025.AddDate(1, 0, 0), nil)))
	if id, err := devnet.Snapshot(f.c); err != nil || id != 3 {
		t.Errorf("Snapshot() after the revert = %d, %v; want 3", id, err)
	}

	// Snapshot 1 is still there: reverting to it again gives the same
	// chain, and drops 3.
	f.clock.advance(time.Hour)
	if err := devnet.Revert(ctx, f.c, 1); err != nil {
		t.Fatal(err)
	}
	if now := f.stateOf(); now != then {
		t.Errorf("after a second Revert(1):\n%s\nwant\n%s", now, then)
	}
	if ids := f.snapshots(); !slices.Equal(ids, []uint64{1}) {
		t.Errorf("snapshots after a second Revert(1): %v; want [1]", ids)
	}
}

// A snapshot can be reverted to again and again, each time after other
// changes, and reverting to one keeps the earlier ones: snapshot 1, then
// 2; reverts to 2 (keeping 1 and 2), then to 1 (keeping 1), each given
// back as it was.
func TestRevertAgain(t *testing.T) {
	for _, backend := range []string{"mem", "bolt", "bolt+log"} {
		t.Run(backend, func(t *testing.T) {
			f := newFixture(t, backendConfig(t, backend))
			ctx := context.Background()
			f.split(f.dev(), 8)
			first := f.stateOf()
			if id, err := devnet.Snapshot(f.c); err != nil || id != 1 {
				t.Fatalf("Snapshot() = %d, %v; want 1", id, err)
			}
			change := func(name string) {
				u := newUser(name)
				u.last = f.publish(u.create(t, u.document(t, GenesisTime.AddDate(5, 0, 0), []did.Service{service("hub", "Hub")})))
				f.publish(u.update(t, u.document(t, GenesisTime.AddDate(6, 0, 0), nil)))
				f.submit(f.transfer(f.dev(), newWallet(name).ph, ela.OneELA)) // pooled
				if _, err := devnet.IncreaseTime(f.c, time.Hour); err != nil {
					t.Fatal(err)
				}
				f.clock.advance(time.Minute)
			}
			change("between 1 and 2")
			second := f.stateOf()
			if id, err := devnet.Snapshot(f.c); err != nil || id != 2 {
				t.Fatalf("Snapshot() = %d, %v; want 2", id, err)
			}
			for round := range 3 {
				change(fmt.Sprint("after 2, round ", round))
				if err := devnet.Revert(ctx, f.c, 2); err != nil {
					t.Fatal(err)
				}
				if now := f.stateOf(); now != second {
					t.Fatalf("round %d: after Revert(2):\n%s\nwant\n%s", round, now, second)
				}
				if ids := f.snapshots(); !slices.Equal(ids, []uint64{1, 2}) {
					t.Errorf("round %d: snapshots after Revert(2): %v; want [1 2]", round, ids)
				}
			}
			for round := range 2 {
				change(fmt.Sprint("after 1, round ", round))
				if err := devnet.Revert(ctx, f.c, 1); err != nil {
					t.Fatal(err)
				}
				if now := f.stateOf(); now != first {
					t.Fatalf("round %d: after Revert(1):\n%s\nwant\n%s", round, now, first)
				}
				if ids := f.snapshots(); !slices.Equal(ids, []uint64{1}) {
					t.Errorf("round %d: snapshots after Revert(1): %v; want [1]", round, ids)
				}
			}
		})
	}
}

// backendConfig configures a chain on a store of backend: mem, bolt (the
// mempool in the store) or bolt+log (with a mempool log).
func backendConfig(t *testing.T, backend string) Config {
	cfg := Config{GenesisTime: began2025}
	if backend != "mem" {
		db, err := bolt.Open(t.TempDir(), bolt.Options{})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		cfg.DB = db
	}
	if backend == "bolt+log" {
		cfg.MempoolLog = filepath.Join(t.TempDir(), MempoolLogFile)
	}
	return cfg
}

// A snapshot costs what changes after it: taking one writes nothing but
// its record, whatever the chain holds; a block logs a few entries for
// each key it writes; a revert undoes them and leaves none.
func TestSnapshotCost(t *testing.T) {
	f := newFixture(t, Config{})
	f.publishUsers("cost", 200)
	keys := f.storedKeys()
	id, err := devnet.Snapshot(f.c)
	if err != nil {
		t.Fatal(err)
	}
	if n := f.logged(id); n != 0 {
		t.Errorf("%d undo entries after the snapshot, want 0", n)
	}
	if grown := f.storedKeys() - keys; grown != 1 {
		t.Errorf("the snapshot added %d keys to the store, want 1 (its record)", grown)
	}
	written := f.storedKeys()
	u := newUser("cost")
	f.publish(u.create(t, u.document(t, GenesisTime.AddDate(5, 0, 0), nil)))
	written = f.storedKeys() - written
	if n := f.logged(id); n == 0 || n > written+20 {
		t.Errorf("%d undo entries after a block that wrote %d keys more", n, written)
	}
	if err := devnet.Revert(context.Background(), f.c, id); err != nil {
		t.Fatal(err)
	}
	if n := f.logged(id); n > 10 {
		t.Errorf("%d undo entries after the revert, want only those of its own writes (epoch, clock, count received)", n)
	}
}

// storedKeys counts the keys of every bucket the chain and its snapshots
// keep.
func (f *fixture) storedKeys() int {
	f.t.Helper()
	n := 0
	err := f.db.View(func(tx store.Tx) error {
		for _, name := range append(snapshotted(), devnet.BucketSnapshots, devnet.BucketUndo) {
			for range bucket(tx, name).ScanShared(store.Range{}) {
				n++
			}
		}
		return nil
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

// logged returns how many undo entries come after snapshot id's mark.
func (f *fixture) logged(id uint64) int {
	f.t.Helper()
	var n int
	err := f.db.View(func(tx store.Tx) error {
		v, ok := bucket(tx, devnet.BucketSnapshots).Get(record.SeqKey(id))
		if !ok {
			return fmt.Errorf("no snapshot %d", id)
		}
		rec, err := record.ParseSnapshot(v)
		if err != nil {
			return err
		}
		n, _, err = undo.Log{Name: devnet.BucketUndo}.Size(tx, rec.Mark)
		return err
	})
	if err != nil {
		f.t.Fatal(err)
	}
	return n
}

// A snapshot lives in the store: a chain reopened on it can revert to it.
func TestSnapshotSurvivesRestart(t *testing.T) {
	f := newFixture(t, Config{DB: mem.New()})
	f.mine()
	then := f.stateOf()
	if _, err := devnet.Snapshot(f.c); err != nil {
		t.Fatal(err)
	}
	f.mine()
	if err := f.reopen(time.Time{}); err != nil {
		t.Fatal(err)
	}
	if err := devnet.Revert(context.Background(), f.c, 1); err != nil {
		t.Fatal(err)
	}
	if now := f.stateOf(); now != then {
		t.Errorf("after a restart and Revert(1):\n%s\nwant\n%s", now, then)
	}
}

// A revert across a ResetAt gives back the genesis time too.
func TestRevertAcrossReset(t *testing.T) {
	f := newFixture(t, Config{})
	f.mine()
	then := f.stateOf()
	if _, err := devnet.Snapshot(f.c); err != nil {
		t.Fatal(err)
	}
	if err := devnet.ResetAt(context.Background(), f.c, began2025); err != nil {
		t.Fatal(err)
	}
	if err := devnet.Revert(context.Background(), f.c, 1); err != nil {
		t.Fatal(err)
	}
	if now := f.stateOf(); now != then {
		t.Errorf("after ResetAt and Revert(1):\n%s\nwant\n%s", now, then)
	}
	if err := devnet.Reset(context.Background(), f.c); err != nil {
		t.Fatal(err)
	}
	f.wantTip("a plain Reset after the revert", 0, GenesisTime)
}

func TestSnapshotOnAFollower(t *testing.T) {
	f := newFixture(t, Config{Follower: true})
	if _, err := devnet.Snapshot(f.c); !errors.Is(err, ErrFollower) {
		t.Errorf("Snapshot on a follower: %v, want ErrFollower", err)
	}
	if err := devnet.Revert(context.Background(), f.c, 1); !errors.Is(err, ErrFollower) {
		t.Errorf("Revert on a follower: %v, want ErrFollower", err)
	}
}

// A revert gives back who the coinbases pay, as its snapshot found it.
func TestRevertPayee(t *testing.T) {
	f := newFixture(t, Config{})
	arbiter := f.c.producer
	id, err := devnet.Snapshot(f.c)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.c.PayCoinbasesToDev(); err != nil {
		t.Fatal(err)
	}
	if err := devnet.Revert(context.Background(), f.c, id); err != nil {
		t.Fatal(err)
	}
	if got := f.mine().Transactions[0].Outputs[0].ProgramHash; got != arbiter {
		t.Errorf("after the revert the coinbase pays %s, want arbiter 0's %s", got, arbiter)
	}
}
