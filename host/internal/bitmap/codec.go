package bitmap

import (
	"encoding/binary"
	"errors"
	"fmt"
	"math/bits"
)

// BitsetSize is the length of an encoded bitset container: 2^16 bits.
const BitsetSize = bitsetWords * 8

// ErrEncoding is wrapped by the errors of Decode.
var ErrEncoding = errors.New("bitmap: not a container encoding")

// Encode returns the bytes of a non-empty container, as Roaring's portable
// format lays out its containers' data (github.com/RoaringBitmap/RoaringFormatSpec):
// an array as its values, ascending, 2 bytes each little-endian; a bitset
// as its 1024 words, 8 bytes each little-endian. The length tells which:
// an array of at most ArrayMax values is shorter than BitsetSize.
func (c *Container) Encode() []byte {
	if c.bits == nil {
		out := make([]byte, 0, 2*len(c.array))
		for _, v := range c.array {
			out = binary.LittleEndian.AppendUint16(out, v)
		}
		return out
	}
	out := make([]byte, 0, BitsetSize)
	for _, w := range c.bits {
		out = binary.LittleEndian.AppendUint64(out, w)
	}
	return out
}

// Decode reads a container Encode wrote. Anything else is refused with an
// error wrapping ErrEncoding: an empty or odd length, one between an
// array's and a bitset's, an array not strictly ascending, a bitset of at
// most ArrayMax values.
func Decode(data []byte) (*Container, error) {
	switch n := len(data); {
	case n == BitsetSize:
		return decodeBitset(data)
	case n == 0 || n%2 != 0 || n > 2*ArrayMax:
		return nil, fmt.Errorf("%w: %d bytes", ErrEncoding, n)
	}
	c := &Container{array: make([]uint16, len(data)/2)}
	for i := range c.array {
		v := binary.LittleEndian.Uint16(data[2*i:])
		if i > 0 && v <= c.array[i-1] {
			return nil, fmt.Errorf("%w: array value %d after %d", ErrEncoding, v, c.array[i-1])
		}
		c.array[i] = v
	}
	c.n = len(c.array)
	return c, nil
}

func decodeBitset(data []byte) (*Container, error) {
	c := &Container{bits: make([]uint64, bitsetWords)}
	for i := range c.bits {
		w := binary.LittleEndian.Uint64(data[8*i:])
		c.bits[i] = w
		c.n += bits.OnesCount64(w)
	}
	if c.n <= ArrayMax {
		return nil, fmt.Errorf("%w: a bitset of %d values, which an array holds", ErrEncoding, c.n)
	}
	return c, nil
}
