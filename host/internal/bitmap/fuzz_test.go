package bitmap

import (
	"bytes"
	"testing"
)

// FuzzDecode checks that Decode never panics, and that what it accepts is
// a canonical container that encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	f.Add([]byte{1, 0, 9, 0})
	f.Add(make([]byte, BitsetSize))
	f.Add(build(set(newRand(), 5000, 1<<16)).conts[0].Encode())
	f.Fuzz(func(t *testing.T, data []byte) {
		c, err := Decode(data)
		if err != nil {
			return
		}
		if (c.bits != nil) != (c.n > ArrayMax) || c.n == 0 {
			t.Fatalf("decoded %d values into bitset=%v", c.n, c.bits != nil)
		}
		if got := c.Encode(); !bytes.Equal(got, data) {
			t.Fatalf("encodes back to %d bytes, not the %d decoded", len(got), len(data))
		}
		if got := len(c.Values(0, 1<<16)); got != c.Len() {
			t.Fatalf("Values gives %d, Len %d", got, c.Len())
		}
	})
}
