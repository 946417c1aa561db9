package wal

import (
	"bytes"
	"testing"
)

// FuzzDecode decodes arbitrary bytes as a log: the records it keeps must
// frame exactly the bytes before end, at the offsets it gives, and appending
// a record after end must replay as one more.
func FuzzDecode(f *testing.F) {
	f.Add(appendRecord(appendRecord(nil, []byte("one")), nil))
	f.Add(appendRecord(nil, []byte("torn"))[:9])
	f.Add([]byte{0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0})
	f.Fuzz(func(t *testing.T, data []byte) {
		bodies, offsets, end := Decode(data)
		if end < 0 || end > len(data) || len(offsets) != len(bodies) {
			t.Fatalf("end %d of %d bytes, %d offsets for %d bodies", end, len(data), len(offsets), len(bodies))
		}
		var framed []byte
		for i, b := range bodies {
			if offsets[i] != int64(len(framed)) {
				t.Fatalf("record %d at %d, want %d", i, offsets[i], len(framed))
			}
			framed = appendRecord(framed, b)
		}
		if !bytes.Equal(framed, data[:end]) {
			t.Fatalf("the records decoded frame %x, not the %x before end", framed, data[:end])
		}
		more, _, end2 := Decode(appendRecord(bytes.Clone(data[:end]), []byte("next")))
		if len(more) != len(bodies)+1 || string(more[len(bodies)]) != "next" || end2 != end+headerSize+4 {
			t.Fatalf("a record appended after end replays as %d records to %d", len(more), end2)
		}
	})
}
