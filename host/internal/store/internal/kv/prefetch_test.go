package kv

import (
	"bytes"
	"testing"
)

// TestPrefetch: prefetch reads nothing it may not and writes nothing, at
// any length and alignment, past the bound included.
func TestPrefetch(t *testing.T) {
	buf := make([]byte, 3*prefetchBytes)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	want := bytes.Clone(buf)
	for _, start := range []int{0, 1, 63, 64, 65} {
		for _, n := range []int{0, 1, 63, 64, 65, 200, prefetchBytes - 1, prefetchBytes, prefetchBytes + 1, 2 * prefetchBytes} {
			prefetch(buf[start : start+n])
		}
	}
	prefetch(nil)
	if !bytes.Equal(buf, want) {
		t.Fatal("prefetch changed the bytes")
	}
}
