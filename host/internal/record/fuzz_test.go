package record

import (
	"testing"

	"github.com/google/go-cmp/cmp"
	"github.com/google/go-cmp/cmp/cmpopts"
)

// FuzzParse feeds every parser arbitrary bytes: none may panic, and a value
// that parses encodes to bytes that parse back to it.
func FuzzParse(f *testing.F) {
	for i, s := range samples {
		f.Add(uint8(i), encode(s.value))
	}
	f.Fuzz(func(t *testing.T, which uint8, b []byte) {
		s := samples[int(which)%len(samples)]
		v, err := s.parse(b)
		if err != nil {
			return
		}
		again, err := s.parse(encode(v))
		if err != nil {
			t.Fatalf("%s: %v", s.name, err)
		}
		if d := cmp.Diff(v, again, cmpopts.EquateEmpty()); d != "" {
			t.Fatalf("%s: (-first +again)\n%s", s.name, d)
		}
	})
}
