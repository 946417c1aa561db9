package store_test

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/host/internal/store"
)

// The benchmark store holds benchGroups groups of benchGroupSize keys in
// bucket "bench", like an index of postings: key = 16-byte group hash ‖
// 4-byte position, value = 100 bytes. It is built once per backend (in key
// order, in large Updates) and shared by the benchmarks.
const (
	benchGroups    = 10_000
	benchGroupSize = 100
	benchValueSize = 100
)

// benchStores are the loaded stores by backend name, in benchDir; TestMain
// closes and removes them.
var (
	benchStores = map[string]store.DB{}
	benchDir    string
)

func TestMain(m *testing.M) {
	code := m.Run()
	for _, db := range benchStores {
		db.Close()
	}
	if benchDir != "" {
		os.RemoveAll(benchDir)
	}
	os.Exit(code)
}

func benchKey(group, pos uint32) []byte {
	h := sha256.Sum256(binary.BigEndian.AppendUint32(nil, group))
	return binary.BigEndian.AppendUint32(h[:16:16], pos)
}

// benchStore returns the loaded store of backend i, loading it on first use.
func benchStore(b *testing.B, i int) store.DB {
	be := backends[i]
	if db, ok := benchStores[be.name]; ok {
		return db
	}
	if benchDir == "" {
		dir, err := os.MkdirTemp("", "didlight-bench-")
		if err != nil {
			b.Fatal(err)
		}
		benchDir = dir
	}
	db, err := be.open(filepath.Join(benchDir, be.name))
	if err != nil {
		b.Fatal(err)
	}
	benchStores[be.name] = db
	keys := make([][]byte, 0, benchGroups*benchGroupSize)
	for g := range uint32(benchGroups) {
		for p := range uint32(benchGroupSize) {
			keys = append(keys, benchKey(g, p))
		}
	}
	slices.SortFunc(keys, bytes.Compare)
	value := make([]byte, benchValueSize)
	for chunk := range slices.Chunk(keys, 100_000) {
		update(b, db, func(tx store.Tx) error {
			bk := bucket(b, tx, "bench")
			for _, k := range chunk {
				if err := bk.Put(k, value); err != nil {
					return err
				}
			}
			return nil
		})
	}
	return db
}

// forEachBench runs bench as a sub-benchmark on each backend's loaded store,
// reporting CPU time per operation (cpu-ns/op) besides wall time.
func forEachBench(b *testing.B, bench func(b *testing.B, db store.DB, r *rand.Rand)) {
	for i, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			db := benchStore(b, i)
			b.ReportAllocs()
			start, ok := cputime.Process()
			bench(b, db, rand.New(rand.NewPCG(3, 4)))
			if end, _ := cputime.Process(); ok {
				b.ReportMetric(float64(end-start)/float64(b.N), "cpu-ns/op")
			}
		})
	}
}

// BenchmarkGet: one View reading one random key, as a request handler does.
func BenchmarkGet(b *testing.B) {
	forEachBench(b, func(b *testing.B, db store.DB, r *rand.Rand) {
		for b.Loop() {
			key := benchKey(r.Uint32N(benchGroups), r.Uint32N(benchGroupSize))
			err := db.View(func(tx store.Tx) error {
				bk, err := tx.Bucket("bench")
				if err != nil {
					return err
				}
				if v, ok := bk.Get(key); !ok || len(v) != benchValueSize {
					b.Fatalf("key %x: %d bytes, %v", key, len(v), ok)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkScanPrefix100: one View scanning the 100 keys of a random group.
func BenchmarkScanPrefix100(b *testing.B) {
	forEachBench(b, func(b *testing.B, db store.DB, r *rand.Rand) {
		for b.Loop() {
			prefix := benchKey(r.Uint32N(benchGroups), 0)[:16]
			err := db.View(func(tx store.Tx) error {
				bk, err := tx.Bucket("bench")
				if err != nil {
					return err
				}
				n := 0
				for _, v := range bk.Scan(store.Range{Prefix: prefix}) {
					n += len(v)
				}
				if n != benchGroupSize*benchValueSize {
					b.Fatalf("group %x: %d bytes", prefix, n)
				}
				return nil
			})
			if err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkPutBatch100: one Update putting 100 new random keys; for bolt
// that includes syncing the commit to disk.
func BenchmarkPutBatch100(b *testing.B) {
	forEachBench(b, func(b *testing.B, db store.DB, r *rand.Rand) {
		value := make([]byte, benchValueSize)
		for b.Loop() {
			update(b, db, func(tx store.Tx) error {
				bk, err := tx.Bucket("bench")
				if err != nil {
					return err
				}
				for range 100 {
					if err := bk.Put(benchKey(benchGroups+r.Uint32(), 0), value); err != nil {
						return err
					}
				}
				return nil
			})
		}
	})
}

// The documents bucket of the benchmark store: benchDocs values of
// benchDocSize bytes (64 MB, more than a processor's caches), as a bucket
// of views is, loaded on first use by benchDocStore.
const (
	benchDocs    = 32_768
	benchDocSize = 2048
)

var benchDocsLoaded = map[string]bool{}

// benchDocStore returns the loaded store of backend i with its documents.
// Each document's bytes are the steps of a walk through it (63 to 126).
func benchDocStore(b *testing.B, i int) store.DB {
	db := benchStore(b, i)
	if benchDocsLoaded[backends[i].name] {
		return db
	}
	r := rand.New(rand.NewPCG(5, 6))
	doc := make([]byte, benchDocSize)
	for d := 0; d < benchDocs; d += 4096 {
		update(b, db, func(tx store.Tx) error {
			bk := bucket(b, tx, "docs")
			for n := d; n < d+4096; n++ {
				for j := range doc {
					doc[j] = byte(63 + r.IntN(64))
				}
				if err := bk.Put(binary.BigEndian.AppendUint32(nil, uint32(n)), doc); err != nil {
					return err
				}
			}
			return nil
		})
	}
	benchDocsLoaded[backends[i].name] = true
	return db
}

// BenchmarkScanSharedDocs: one View walking every document of the
// documents bucket as a find condition's scan does, each read at the
// offset the byte before gives (about 22 reads a document, most of them
// of memory the processor has not cached). cpu-ns/doc is the CPU time of
// a document.
func BenchmarkScanSharedDocs(b *testing.B) {
	for i, be := range backends {
		b.Run(be.name, func(b *testing.B) {
			db := benchDocStore(b, i)
			start, _ := cputime.Process()
			for b.Loop() {
				err := db.View(func(tx store.Tx) error {
					n := 0
					for _, v := range bucket(b, tx, "docs").ScanShared(store.Range{}) {
						for at := 0; at < len(v); at += int(v[at]) {
						}
						n++
					}
					if n != benchDocs {
						b.Fatalf("scanned %d documents, want %d", n, benchDocs)
					}
					return nil
				})
				if err != nil {
					b.Fatal(err)
				}
			}
			end, _ := cputime.Process()
			b.ReportMetric(float64(end-start)/float64(b.N*benchDocs), "cpu-ns/doc")
		})
	}
}
