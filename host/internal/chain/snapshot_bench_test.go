package chain

import (
	"context"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/devnet"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// snapshotDIDs lists the sizes, in DIDs, of the chains BenchmarkSnapshot
// snapshots:
// go test -bench BenchmarkSnapshot ./host/internal/chain -args -snapshot-dids=10000,100000.
var snapshotDIDs = flag.String("snapshot-dids", "10000", "DIDs on the chains BenchmarkSnapshot snapshots, comma-separated")

// snapshotOps is how many DID operations BenchmarkSnapshot makes between
// a snapshot and the revert to it.
const snapshotOps = 100

// BenchmarkSnapshot measures what a devnet snapshot and a revert to it
// cost on chains of -snapshot-dids DIDs, in memory and in a data
// directory. Each iteration takes a snapshot, makes snapshotOps DID
// operations in blocks of 10 (half creates, half updates of the DIDs
// created; not timed) and reverts. It reports the wall time of the
// snapshot and of the revert (snapshot-ms, revert-ms), the bytes of keys
// and values the store keeps for the snapshot just before the revert
// (kept-MB), and for bolt the store file's size before the first snapshot
// (store-MB) and its growth over the first iteration (file-MB: bbolt reuses
// freed pages and never shrinks its file, so later iterations take no more).
func BenchmarkSnapshot(b *testing.B) {
	for _, size := range strings.Split(*snapshotDIDs, ",") {
		dids, err := strconv.Atoi(size)
		if err != nil {
			b.Fatalf("-snapshot-dids: %v", err)
		}
		for _, be := range []struct {
			name string
			open func(b *testing.B, dir string) store.DB
		}{
			{"mem", func(*testing.B, string) store.DB { return mem.New() }},
			{"bolt", func(b *testing.B, dir string) store.DB {
				db, err := bolt.Open(dir, bolt.Options{})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { db.Close() })
				return db
			}},
		} {
			b.Run(fmt.Sprintf("dids=%d/%s", dids, be.name), func(b *testing.B) {
				dir := b.TempDir()
				f := newFixture(b, Config{DB: be.open(b, dir)})
				f.publishUsers("bench", dids)
				ops := f.revertedOps(snapshotOps)
				size := storeFileSize(dir)
				stored := size
				var snap, revert time.Duration
				var kept int
				first := true
				for b.Loop() {
					start := time.Now()
					id, err := devnet.Snapshot(f.c)
					if err != nil {
						b.Fatal(err)
					}
					snap += time.Since(start)
					for _, block := range ops {
						for _, tx := range block {
							f.submit(tx)
						}
						f.mine()
					}
					kept = keptBytes(b, f.db)
					if first {
						size = storeFileSize(dir) - size
						first = false
					}
					start = time.Now()
					if err := devnet.Revert(context.Background(), f.c, id); err != nil {
						b.Fatal(err)
					}
					revert += time.Since(start)
				}
				b.ReportMetric(float64(kept)/1e6, "kept-MB")
				if be.name == "bolt" {
					b.ReportMetric(float64(stored)/1e6, "store-MB")
					b.ReportMetric(float64(size)/1e6, "file-MB")
				}
				b.ReportMetric(float64(snap.Microseconds())/1e3/float64(b.N), "snapshot-ms")
				b.ReportMetric(float64(revert.Microseconds())/1e3/float64(b.N), "revert-ms")
				b.ReportMetric(0, "ns/op") // the iteration's time is mostly the operations'
			})
		}
	}
}

// revertedOps returns n DID operations in blocks of 10, each its own
// transaction from an output of the dev account split off now: n/2 creates
// of new DIDs, then updates of the same DIDs. They are valid again after a
// revert to a snapshot taken before them.
func (f *fixture) revertedOps(n int) [][]*ela.Tx {
	f.t.Helper()
	outs := f.splitLargest(n)
	users := make([]*user, n/2)
	var txs []*ela.Tx
	for i := range users {
		users[i] = newUser(fmt.Sprint("bench op ", i))
		u := users[i]
		tx := f.spendTx(f.dev(), operation(u.create(f.t, u.document(f.t, GenesisTime.AddDate(5, 0, 0), nil))), outs[i])
		u.last = tx.Hash()
		txs = append(txs, tx)
	}
	for i, u := range users {
		doc := u.document(f.t, GenesisTime.AddDate(6, 0, 0), nil)
		txs = append(txs, f.spendTx(f.dev(), operation(u.update(f.t, doc)), outs[len(users)+i]))
	}
	var blocks [][]*ela.Tx
	for len(txs) > 0 {
		k := min(10, len(txs))
		blocks = append(blocks, txs[:k])
		txs = txs[k:]
	}
	return blocks
}

// keptBytes returns the bytes of keys and values the store in db keeps
// for its snapshots: their records and the undo log.
func keptBytes(b *testing.B, db store.DB) int {
	n := 0
	err := db.View(func(tx store.Tx) error {
		for _, name := range []string{devnet.BucketSnapshots, devnet.BucketUndo} {
			for k, v := range bucket(tx, name).ScanShared(store.Range{}) {
				n += len(k) + len(v)
			}
		}
		return nil
	})
	if err != nil {
		b.Fatal(err)
	}
	return n
}

// storeFileSize returns the size of the store files in dir, 0 for none.
func storeFileSize(dir string) int64 {
	files, _ := filepath.Glob(filepath.Join(dir, "*"))
	var n int64
	for _, f := range files {
		if fi, err := os.Stat(f); err == nil {
			n += fi.Size()
		}
	}
	return n
}
