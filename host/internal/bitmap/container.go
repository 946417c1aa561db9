package bitmap

import (
	"math/bits"
	"slices"
)

// ArrayMax is the most values a Container holds as a sorted array; with
// more it is a bitset. An array of ArrayMax+1 values would take the 8 KiB
// a bitset takes (Chambi et al., section 3), so the two never overlap.
const ArrayMax = 4095

// bitsetWords is the number of 64-bit words in a bitset container.
const bitsetWords = 1 << 16 / 64

// Container is a set of 16-bit values, the low bits of one chunk of a
// Bitmap. The zero value is an empty set.
type Container struct {
	array []uint16 // the values, ascending, when bits is nil
	bits  []uint64 // when not nil: value v is bit v%64 of word v/64, bitsetWords words
	n     int      // how many values
}

// Len returns the number of values in c.
func (c *Container) Len() int { return c.n }

// Contains reports whether v is in c.
func (c *Container) Contains(v uint16) bool {
	if c.bits != nil {
		return c.bits[v/64]&(1<<(v%64)) != 0
	}
	_, ok := slices.BinarySearch(c.array, v)
	return ok
}

// Add adds v to c and reports whether it was not there.
func (c *Container) Add(v uint16) bool {
	if c.bits == nil {
		i, ok := slices.BinarySearch(c.array, v)
		if ok {
			return false
		}
		if c.n < ArrayMax {
			c.array = slices.Insert(c.array, i, v)
			c.n++
			return true
		}
		c.toBitset()
	}
	w, m := &c.bits[v/64], uint64(1)<<(v%64)
	if *w&m != 0 {
		return false
	}
	*w |= m
	c.n++
	return true
}

// Remove removes v from c and reports whether it was there.
func (c *Container) Remove(v uint16) bool {
	if c.bits == nil {
		i, ok := slices.BinarySearch(c.array, v)
		if ok {
			c.array = slices.Delete(c.array, i, i+1)
			c.n--
		}
		return ok
	}
	w, m := &c.bits[v/64], uint64(1)<<(v%64)
	if *w&m == 0 {
		return false
	}
	*w &^= m
	if c.n--; c.n == ArrayMax {
		c.toArray()
	}
	return true
}

// toBitset turns an array container into a bitset.
func (c *Container) toBitset() {
	c.bits = make([]uint64, bitsetWords)
	for _, v := range c.array {
		c.bits[v/64] |= 1 << (v % 64)
	}
	c.array = nil
}

// toArray turns a bitset container into an array.
func (c *Container) toArray() {
	c.array = appendBits(make([]uint16, 0, c.n), c.bits, 0, c.n)
	c.bits = nil
}

// appendBits appends to dst, ascending, at most max of the values set in
// words, the words of a bitset from word number first on.
func appendBits(dst []uint16, words []uint64, first, max int) []uint16 {
	end := len(dst) + max
	for i, w := range words {
		for ; w != 0 && len(dst) < end; w &= w - 1 {
			dst = append(dst, uint16((first+i)*64+bits.TrailingZeros64(w)))
		}
	}
	return dst
}

// Values returns at most n values of c, ascending, from the one of rank
// from (the first is of rank 0).
func (c *Container) Values(from, n int) []uint16 {
	if from >= c.n || n <= 0 {
		return nil
	}
	if c.bits == nil {
		return slices.Clone(c.array[from:min(from+n, c.n)])
	}
	i := 0
	for ; ; i++ {
		k := bits.OnesCount64(c.bits[i])
		if from < k {
			break
		}
		from -= k
	}
	w := c.bits[i]
	for ; from > 0; from-- {
		w &= w - 1
	}
	out := appendBits(make([]uint16, 0, min(n, c.n-from)), []uint64{w}, i, n)
	return appendBits(out, c.bits[i+1:], i+1, n-len(out))
}
