package did

import (
	"fmt"
	"testing"
)

// TestSeen adds ids up to and past the size a seen scans in place, each
// twice, and checks that only the second time reports a duplicate.
func TestSeen(t *testing.T) {
	for _, tc := range []struct {
		name      string
		hint, ids int
	}{
		{"empty", 0, 0},
		{"few", 0, seenScanMax},
		{"past the array", 0, 3*seenScanMax + 1},
		{"map from the start", 4 * seenScanMax, 4 * seenScanMax},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := seenFor[string](tc.hint)
			for round, want := range []bool{false, true} {
				for i := range tc.ids {
					if got := s.add(fmt.Sprint("id", i)); got != want {
						t.Fatalf("round %d: add(id%d) = %v, want %v", round, i, got, want)
					}
				}
			}
		})
	}
}
