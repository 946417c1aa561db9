package wal

import (
	"path/filepath"
	"testing"

	"github.com/didlight/didlight/host/internal/cputime"
)

// BenchmarkAppend appends batches as the mempool does under load (9
// transactions of 1.5 KB, a DID create's size, per sync) and drops each
// batch after the next, as blocks do. It reports the process CPU time per
// batch (cpu-ns/op), which a sync's work in the kernel is most of; ns/op
// is the wall time, the wait a batch's submitters see.
func BenchmarkAppend(b *testing.B) {
	l, _, err := Open(filepath.Join(b.TempDir(), "log"))
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	batch := bodies(0, 9, 1500)
	var last []uint64
	cpu := cputime.Now()
	for b.Loop() {
		ids, err := l.Append(batch)
		if err != nil {
			b.Fatal(err)
		}
		if err := l.Drop(last); err != nil {
			b.Fatal(err)
		}
		last = ids
	}
	b.ReportMetric(float64((cputime.Now()-cpu).Nanoseconds())/float64(b.N), "cpu-ns/op")
}
