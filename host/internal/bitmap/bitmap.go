package bitmap

import "iter"

// ChunkBits is the number of low bits of a value a Container holds: a
// Bitmap keeps value v in the container of chunk v>>ChunkBits.
const ChunkBits = 16

// Bitmap is a set of uint64 values: a Container per chunk that holds any,
// in ascending order of chunk. The zero value is an empty set. A Bitmap
// shares the containers it is given and returns; none is modified.
type Bitmap struct {
	chunks []uint64
	conts  []*Container
}

// Append adds container c as the one of chunk, which must be above every
// chunk b holds (else Append panics): a Bitmap is built in order, as a
// store reads its containers. An empty c is left out.
func (b *Bitmap) Append(chunk uint64, c *Container) {
	if n := len(b.chunks); n > 0 && chunk <= b.chunks[n-1] {
		panic("bitmap: Append of a chunk out of order")
	}
	if c.n > 0 {
		b.chunks = append(b.chunks, chunk)
		b.conts = append(b.conts, c)
	}
}

// Chunks returns the chunks b holds values in, ascending.
func (b *Bitmap) Chunks() []uint64 { return b.chunks }

// Len returns the number of values in b: the sum of its containers'.
func (b *Bitmap) Len() int {
	n := 0
	for _, c := range b.conts {
		n += c.n
	}
	return n
}

// And returns the values in both b and o, container by container.
func (b *Bitmap) And(o *Bitmap) *Bitmap {
	out := &Bitmap{}
	for i, j := 0, 0; i < len(b.chunks) && j < len(o.chunks); {
		switch {
		case b.chunks[i] < o.chunks[j]:
			i++
		case b.chunks[i] > o.chunks[j]:
			j++
		default:
			out.Append(b.chunks[i], and(b.conts[i], o.conts[j]))
			i, j = i+1, j+1
		}
	}
	return out
}

// Or returns the values in b or o, container by container.
func (b *Bitmap) Or(o *Bitmap) *Bitmap {
	out := &Bitmap{}
	i, j := 0, 0
	for i < len(b.chunks) || j < len(o.chunks) {
		switch {
		case j == len(o.chunks) || i < len(b.chunks) && b.chunks[i] < o.chunks[j]:
			out.Append(b.chunks[i], b.conts[i])
			i++
		case i == len(b.chunks) || b.chunks[i] > o.chunks[j]:
			out.Append(o.chunks[j], o.conts[j])
			j++
		default:
			out.Append(b.chunks[i], or(b.conts[i], o.conts[j]))
			i, j = i+1, j+1
		}
	}
	return out
}

// Page returns at most limit values of b, ascending, from the one of rank
// skip (the first is of rank 0): whole containers are skipped by their
// counts, and only the values returned are read.
func (b *Bitmap) Page(skip, limit int) []uint64 {
	var out []uint64
	for i, c := range b.conts {
		if len(out) == limit {
			break
		}
		if skip >= c.n {
			skip -= c.n
			continue
		}
		for _, v := range c.Values(skip, limit-len(out)) {
			out = append(out, b.chunks[i]<<ChunkBits|uint64(v))
		}
		skip = 0
	}
	return out
}

// All yields the values of b, ascending.
func (b *Bitmap) All() iter.Seq[uint64] {
	return func(yield func(uint64) bool) {
		for i, c := range b.conts {
			for _, v := range c.Values(0, c.n) {
				if !yield(b.chunks[i]<<ChunkBits | uint64(v)) {
					return
				}
			}
		}
	}
}
