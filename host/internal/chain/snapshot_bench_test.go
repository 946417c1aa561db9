package chain

import (
	"context"
	"flag"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/bolt"
	"github.com/didlight/didlight/host/internal/store/mem"
)

// snapshotDIDs is how many DIDs the chain of BenchmarkSnapshot holds:
// go test -bench BenchmarkSnapshot ./host/internal/chain -args -snapshot-dids=50000.
var snapshotDIDs = flag.Int("snapshot-dids", 10_000, "DIDs on the chain BenchmarkSnapshot snapshots")

// BenchmarkSnapshot measures what a devnet snapshot and a revert to it
// cost on a chain of -snapshot-dids DIDs, in memory and in a data
// directory: each iteration takes a snapshot and reverts to it. It reports
// the wall time of each (snapshot-ms, revert-ms), the bytes of keys and
// values a snapshot copies (copied-MB), and for bolt the store file's size
// before the first snapshot (store-MB) and its growth by that snapshot
// (file-MB: bbolt reuses freed pages and never shrinks its file, so later
// snapshots of the same size take no more).
func BenchmarkSnapshot(b *testing.B) {
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
		b.Run(be.name, func(b *testing.B) {
			dir := b.TempDir()
			f := newFixture(b, Config{DB: be.open(b, dir)})
			f.publishUsers("bench", *snapshotDIDs)
			copied := copiedBytes(b, f.db)
			size := storeFileSize(dir)
			stored := size
			var snap, revert time.Duration
			first := true
			for b.Loop() {
				start := time.Now()
				id, err := f.c.Snapshot()
				if err != nil {
					b.Fatal(err)
				}
				snap += time.Since(start)
				if first {
					size = storeFileSize(dir) - size
					first = false
				}
				start = time.Now()
				if err := f.c.Revert(context.Background(), id); err != nil {
					b.Fatal(err)
				}
				revert += time.Since(start)
			}
			b.ReportMetric(float64(copied)/1e6, "copied-MB")
			if be.name == "bolt" {
				b.ReportMetric(float64(stored)/1e6, "store-MB")
				b.ReportMetric(float64(size)/1e6, "file-MB")
			}
			b.ReportMetric(float64(snap.Milliseconds())/float64(b.N), "snapshot-ms")
			b.ReportMetric(float64(revert.Milliseconds())/float64(b.N), "revert-ms")
		})
	}
}

// copiedBytes returns the bytes of keys and values a snapshot of the chain
// in db copies.
func copiedBytes(b *testing.B, db store.DB) int {
	n := 0
	err := db.View(func(tx store.Tx) error {
		for _, name := range snapshotted() {
			for k, v := range bucket(tx, name).Scan(store.Range{}) {
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
