package bitmap

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// set is the reference model: sorted, distinct values.
func set(r *rand.Rand, n int, max uint64) []uint64 {
	seen := map[uint64]bool{}
	for len(seen) < n {
		seen[r.Uint64N(max)] = true
	}
	out := make([]uint64, 0, n)
	for v := range seen {
		out = append(out, v)
	}
	slices.Sort(out)
	return out
}

// build makes the Bitmap of sorted values by adding each to its chunk's
// container.
func build(values []uint64) *Bitmap {
	b := &Bitmap{}
	var c *Container
	for i, v := range values {
		if i == 0 || v>>ChunkBits != values[i-1]>>ChunkBits {
			if c != nil {
				b.Append(values[i-1]>>ChunkBits, c)
			}
			c = &Container{}
		}
		c.Add(uint16(v))
	}
	if c != nil {
		b.Append(values[len(values)-1]>>ChunkBits, c)
	}
	return b
}

func both(a, b []uint64) []uint64 {
	var out []uint64
	for _, v := range a {
		if _, ok := slices.BinarySearch(b, v); ok {
			out = append(out, v)
		}
	}
	return out
}

func either(a, b []uint64) []uint64 {
	out := slices.Concat(a, b)
	slices.Sort(out)
	return slices.Compact(out)
}

// checkBitmap checks that b holds exactly want, in canonical containers.
func checkBitmap(t *testing.T, b *Bitmap, want []uint64) {
	t.Helper()
	if got := slices.Collect(b.All()); !slices.Equal(got, want) {
		t.Fatalf("values: got %d values %v..., want %d", len(got), got[:min(len(got), 5)], len(want))
	}
	if b.Len() != len(want) {
		t.Fatalf("Len %d, want %d", b.Len(), len(want))
	}
	for i, c := range b.conts {
		if (c.bits != nil) != (c.n > ArrayMax) || c.n == 0 {
			t.Fatalf("chunk %d: %d values in a bitset=%v container", b.chunks[i], c.n, c.bits != nil)
		}
	}
}

// sizes are pairs of sets, by size and range of values: sparse and dense
// containers, arrays meeting bitsets, chunks on one side only.
var sizes = []struct {
	name   string
	na, nb int
	max    uint64
}{
	{"empty", 0, 100, 1 << 17},
	{"sparse arrays", 300, 500, 1 << 18},
	{"array and bitset", 200, 30000, 1 << 16},
	{"bitsets", 20000, 25000, 1 << 16},
	{"bitsets meeting below ArrayMax", 6000, 6000, 1 << 16},
	{"arrays adding up to a bitset", 3000, 3000, 1 << 16},
	{"many chunks", 50000, 4000, 1 << 22},
	{"disjoint ranges", 100, 100, 1 << 40},
}

func TestAndOr(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range sizes {
		t.Run(tc.name, func(t *testing.T) {
			a, b := set(r, tc.na, tc.max), set(r, tc.nb, tc.max)
			if tc.name == "disjoint ranges" {
				for i := range b {
					b[i] += tc.max
				}
			}
			ba, bb := build(a), build(b)
			checkBitmap(t, ba, a)
			checkBitmap(t, ba.And(bb), both(a, b))
			checkBitmap(t, bb.And(ba), both(a, b))
			checkBitmap(t, ba.Or(bb), either(a, b))
			checkBitmap(t, bb.Or(ba), either(a, b))
			checkBitmap(t, ba, a) // unchanged
		})
	}
}

func TestPage(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	values := slices.Concat(set(r, 100, 1<<16), set(r, 9000, 1<<16))
	for i := range values[100:] {
		values[100+i] += 3 << 16
	}
	b := build(values)
	for i, tc := range []struct{ skip, limit int }{
		{0, 10}, {95, 10}, {100, 10}, {105, 10}, {99, 1}, {0, 0}, {9095, 10}, {9100, 10}, {9200, 10}, {5000, 2000},
	} {
		t.Run(fmt.Sprint(i), func(t *testing.T) {
			got := b.Page(tc.skip, tc.limit)
			want := values[min(tc.skip, len(values)):min(tc.skip+tc.limit, len(values))]
			if !slices.Equal(got, want) {
				t.Errorf("Page(%d, %d) = %v, want %v", tc.skip, tc.limit, got, want)
			}
		})
	}
}

func TestAddRemove(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	c := &Container{}
	in := map[uint16]bool{}
	check := func(step string) {
		t.Helper()
		if c.Len() != len(in) || (c.bits != nil) != (len(in) > ArrayMax) {
			t.Fatalf("%s: Len %d bitset=%v, want %d", step, c.Len(), c.bits != nil, len(in))
		}
		var want []uint16
		for v := range in {
			want = append(want, v)
		}
		slices.Sort(want)
		if got := c.Values(0, 1<<16); !slices.Equal(got, want) {
			t.Fatalf("%s: %d values, want %d", step, len(got), len(want))
		}
	}
	// Grow past ArrayMax, shrink below it, and grow again: each step
	// adds or removes values, some already there or absent.
	for _, step := range []struct {
		name string
		add  bool
		n    int
	}{{"add", true, 5000}, {"remove", false, 4000}, {"add again", true, 3000}, {"remove all", false, 70000}} {
		t.Run(step.name, func(t *testing.T) {
			for range step.n {
				v := uint16(r.Uint32N(8000))
				if step.name == "remove all" {
					v = uint16(r.Uint32N(1 << 16))
				}
				var changed bool
				if step.add {
					changed = c.Add(v)
				} else {
					changed = c.Remove(v)
				}
				if changed == (in[v] == step.add) {
					t.Fatalf("%s %d: changed=%v with the value there=%v", step.name, v, changed, in[v])
				}
				if step.add {
					in[v] = true
				} else {
					delete(in, v)
				}
				if c.Contains(v) != step.add {
					t.Fatalf("%s %d: Contains=%v", step.name, v, !step.add)
				}
			}
			check(step.name)
		})
	}
}

func TestCodec(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, n := range []int{1, 2, ArrayMax, ArrayMax + 1, 30000, 1 << 16} {
		values := set(r, n, 1<<16)
		c := build(values).conts[0]
		data := c.Encode()
		if wantLen := min(2*n, BitsetSize); len(data) != wantLen {
			t.Fatalf("%d values: %d bytes, want %d", n, len(data), wantLen)
		}
		d, err := Decode(data)
		if err != nil {
			t.Fatalf("%d values: %v", n, err)
		}
		checkBitmap(t, &Bitmap{chunks: []uint64{0}, conts: []*Container{d}}, values)
	}
	few := make([]byte, BitsetSize)
	few[0] = 0xff
	for _, tc := range []struct {
		name string
		data []byte
	}{
		{"empty", nil},
		{"odd", []byte{1, 0, 2}},
		{"between", make([]byte, 2*ArrayMax+2)},
		{"too long", make([]byte, BitsetSize+2)},
		{"descending", []byte{2, 0, 1, 0}},
		{"repeated", []byte{1, 0, 1, 0}},
		{"bitset of few", few},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if _, err := Decode(tc.data); !errors.Is(err, ErrEncoding) {
				t.Errorf("%s: Decode gave %v, want ErrEncoding", tc.name, err)
			}
		})
	}
}

func TestAppendOutOfOrder(t *testing.T) {
	defer func() {
		if recover() == nil {
			t.Fatal("Append of a lower chunk did not panic")
		}
	}()
	b := build([]uint64{5 << 16})
	b.Append(4, &Container{array: []uint16{1}, n: 1})
}

func newRand() *rand.Rand { return rand.New(rand.NewPCG(9, 10)) }
