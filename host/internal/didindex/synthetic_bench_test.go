package didindex

import (
	"runtime"
	"testing"
	"time"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/cputime"
	"github.com/didlight/didlight/host/internal/store/bolt"
)

// BenchmarkFindPostings measures the CPU per page of 10 of queries that
// the postings answer exactly (syntheticQueries: one lookup, $and, $or),
// at 1M DIDs without a 1M-DID chain: the synthetic views of
// syntheticChain in a bolt store, answered by the chain's own find, from
// the first page and from one halfway through the total. It reports the
// total and the process CPU per page (cpu-ns/op).
func BenchmarkFindPostings(b *testing.B) {
	dir := b.TempDir()
	db, err := bolt.Open(dir, bolt.Options{})
	if err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	c := syntheticChain(b, db, 1_000_000, 1)
	b.Logf("1M synthetic DIDs written and indexed in %v", time.Since(start))
	db.Close() // and opened again, as a node starting on the store
	if db, err = bolt.Open(dir, bolt.Options{}); err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	runtime.GC() // not the setup's garbage in the measures, nor its
	runtime.GC() // pages pooled by bbolt (a sync.Pool, kept for one GC)
	for _, q := range syntheticQueries {
		cond, err := find.Compile(q.cond)
		if err != nil {
			b.Fatal(err)
		}
		total := findPage(b, c, db, cond, 0, 10).total
		for _, skip := range []int{0, total / 2} {
			name := q.name + "/first"
			if skip > 0 {
				name = q.name + "/middle"
			}
			b.Run(name, func(b *testing.B) {
				b.ReportAllocs()
				cpu := cputime.Now()
				for b.Loop() {
					if p := findPage(b, c, db, cond, skip, 10); p.total != total || len(p.page) != 10 {
						b.Fatalf("total %d and %d on the page, want %d and 10", p.total, len(p.page), total)
					}
				}
				b.ReportMetric(float64(total), "total")
				b.ReportMetric(float64((cputime.Now()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
			})
		}
	}
}
