package bitmap

import (
	"fmt"
	"math/rand/v2"
	"testing"
)

// BenchmarkAlgebra measures an intersection or union of two sets of
// values below one million, and counting it and reading a page of 10 of
// it: sets of the sizes the posting lists of a 1M-DID chain have (rare,
// common, most).
func BenchmarkAlgebra(b *testing.B) {
	r := rand.New(rand.NewPCG(11, 12))
	lists := map[string]*Bitmap{}
	for _, n := range []int{2_000, 14_000, 46_000, 100_000, 450_000} {
		lists[fmt.Sprint(n)] = build(set(r, n, 1_000_000))
	}
	for _, tc := range []struct{ op, a, b string }{
		{"and", "2000", "100000"}, {"and", "14000", "46000"}, {"and", "100000", "450000"}, {"or", "100000", "2000"}, {"or", "100000", "450000"},
	} {
		b.Run(tc.op+"/"+tc.a+"/"+tc.b, func(b *testing.B) {
			x, y := lists[tc.a], lists[tc.b]
			for b.Loop() {
				z := x.And(y)
				if tc.op == "or" {
					z = x.Or(y)
				}
				if z.Len() == 0 || len(z.Page(100, 10)) != 10 {
					b.Fatal("an empty result")
				}
			}
		})
	}
}

// BenchmarkDecode measures reading a stored container: a bitset, and an
// array of ArrayMax values.
func BenchmarkDecode(b *testing.B) {
	r := rand.New(rand.NewPCG(13, 14))
	for _, n := range []int{ArrayMax, 30000} {
		data := build(set(r, n, 1<<16)).conts[0].Encode()
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Decode(data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
