// Package scaling checks in benchmarks that a decoder's cost grows no faster than its input.
//
// It checks, in benchmarks, that a decoder's cost grows no faster than its
// input: it decodes an input of 1 KiB and one of 256 KiB built the same way,
// interleaved in one loop, and compares their costs per byte.
//
// Each decoder of untrusted input has a BenchmarkScale* that calls Run, one
// sub-benchmark per shape of input.
//
// Run keeps a ballast of 64 MiB live while it measures. A benchmark's heap
// is otherwise nearly empty, and the collector then runs every 4 MiB of
// allocation, marking a large input's half-built result each time: a cost
// that grows with the input's square up to a few MiB of live data, made by
// the empty heap rather than by the decoder (a node's heap is not empty).
// The ballast holds no pointers, so that it is never scanned. Each reports the nanoseconds per byte of
// the small input ("small-ns/B") and of the large one ("large-ns/B"), and
// "ratio", the second over the first. A linear decoder stays near 1 (caches
// make large inputs somewhat dearer); a quadratic one shows about 256. A
// ratio above [MaxRatio] fails the benchmark. Inputs over a decoder's limit
// are refused at once, so their ratio is far below 1.
package scaling

import (
	"runtime"
	"strings"
	"testing"
)

// Sizes are the two input sizes compared.
const (
	Small = 1 << 10
	Large = 256 << 10
)

// MaxRatio is the largest cost per byte of the large input, as a multiple
// of the small one's, that a decoder may show.
const MaxRatio = 2

// Input is what decoders read: text or bytes.
type Input interface{ ~string | ~[]byte }

// Run benchmarks decode on the inputs each shape builds at Small and Large
// bytes (a shape builds about n bytes: the same structure repeated or
// stretched to size). Each iteration decodes the large input once and the
// small one as many times as makes the same number of bytes, timing the two
// apart, so that both see the same machine. decode's error is ignored:
// refusing an input is a decoder's work too.
func Run[T Input](b *testing.B, shapes map[string]func(n int) T, decode func(T) error) {
	ballast := make([]byte, 64<<20)
	defer runtime.KeepAlive(ballast)
	for name, shape := range shapes {
		small, large := shape(Small), shape(Large)
		b.Run(name, func(b *testing.B) {
			reps := max(1, len(large)/len(small))
			b.SetBytes(int64(reps*len(small) + len(large)))
			var smallNs, largeNs int64
			for b.Loop() {
				t0 := b.Elapsed().Nanoseconds()
				for range reps {
					decode(small)
				}
				t1 := b.Elapsed().Nanoseconds()
				decode(large)
				smallNs, largeNs = smallNs+t1-t0, largeNs+b.Elapsed().Nanoseconds()-t1
			}
			perSmall := float64(smallNs) / float64(b.N*reps*len(small))
			perLarge := float64(largeNs) / float64(b.N*len(large))
			ratio := perLarge / perSmall
			b.ReportMetric(perSmall, "small-ns/B")
			b.ReportMetric(perLarge, "large-ns/B")
			b.ReportMetric(ratio, "ratio")
			if ratio > MaxRatio {
				b.Errorf("%d bytes cost %.3g ns/B, %.3g times the %.3g ns/B of %d bytes: not linear in the input",
					len(large), perLarge, ratio, perSmall, len(small))
			}
		})
	}
}

// Repeat builds about n bytes as head, then item(i) for i = 0, 1, ... joined
// by sep, then tail: the shape of a list or an object with many members.
func Repeat(n int, head, sep, tail string, item func(i int) string) string {
	var out strings.Builder
	out.WriteString(head)
	for i := 0; out.Len()+len(tail) < n; i++ {
		if i > 0 {
			out.WriteString(sep)
		}
		out.WriteString(item(i))
	}
	out.WriteString(tail)
	return out.String()
}
