package bitmap

import "math/bits"

// and returns the values in both a and b: for two arrays a merge, for an
// array and a bitset a probe of each array value, for two bitsets a word
// by word AND (Chambi et al., section 4).
func and(a, b *Container) *Container {
	switch {
	case a.bits == nil && b.bits == nil:
		return andArrays(a.array, b.array)
	case a.bits == nil:
		return andArrayBitset(a.array, b.bits)
	case b.bits == nil:
		return andArrayBitset(b.array, a.bits)
	}
	out := &Container{bits: make([]uint64, bitsetWords)}
	for i, w := range a.bits {
		w &= b.bits[i]
		out.bits[i] = w
		out.n += bits.OnesCount64(w)
	}
	if out.n <= ArrayMax {
		out.toArray()
	}
	return out
}

func andArrays(a, b []uint16) *Container {
	out := make([]uint16, 0, min(len(a), len(b)))
	for i, j := 0, 0; i < len(a) && j < len(b); {
		switch {
		case a[i] < b[j]:
			i++
		case a[i] > b[j]:
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	return &Container{array: out, n: len(out)}
}

func andArrayBitset(a []uint16, words []uint64) *Container {
	out := make([]uint16, 0, len(a))
	for _, v := range a {
		if words[v/64]&(1<<(v%64)) != 0 {
			out = append(out, v)
		}
	}
	return &Container{array: out, n: len(out)}
}

// or returns the values in a or b: a merge of two arrays whose sizes add
// up to at most ArrayMax, else a bitset made of the one or two bitsets
// and the values of the arrays.
func or(a, b *Container) *Container {
	if a.bits == nil && b.bits == nil && a.n+b.n <= ArrayMax {
		return orArrays(a.array, b.array)
	}
	out := &Container{bits: make([]uint64, bitsetWords)}
	for _, c := range []*Container{a, b} {
		if c.bits != nil {
			for i, w := range c.bits {
				out.bits[i] |= w
			}
			continue
		}
		for _, v := range c.array {
			out.bits[v/64] |= 1 << (v % 64)
		}
	}
	for _, w := range out.bits {
		out.n += bits.OnesCount64(w)
	}
	if out.n <= ArrayMax {
		out.toArray()
	}
	return out
}

func orArrays(a, b []uint16) *Container {
	out := make([]uint16, 0, len(a)+len(b))
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		switch {
		case a[i] < b[j]:
			out = append(out, a[i])
			i++
		case a[i] > b[j]:
			out = append(out, b[j])
			j++
		default:
			out = append(out, a[i])
			i, j = i+1, j+1
		}
	}
	out = append(append(out, a[i:]...), b[j:]...)
	return &Container{array: out, n: len(out)}
}
