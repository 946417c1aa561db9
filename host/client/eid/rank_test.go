package eid

import (
	"math"
	"slices"
	"testing"
	"time"
)

func TestRank(t *testing.T) {
	ms := time.Millisecond
	ok := func(block uint64, latency time.Duration) probe {
		return probe{answered: true, block: block, latency: latency}
	}
	for _, tc := range []struct {
		name   string
		probes []probe
		want   []int
	}{
		{"fastest", []probe{ok(100, 30*ms), ok(100, 10*ms), ok(100, 20*ms)}, []int{1, 2, 0}},
		{"fastest within 10 blocks of the best", []probe{ok(100, 30*ms), ok(91, 10*ms), ok(95, 20*ms)}, []int{1, 2, 0}},
		{"11 blocks behind is behind", []probe{ok(100, 30*ms), ok(89, 10*ms)}, []int{0, 1}},
		{"exactly 10 behind is within", []probe{ok(100, 30*ms), ok(90, 10*ms)}, []int{1, 0}},
		{"behind: by block, then latency", []probe{ok(200, 50*ms), ok(150, 10*ms), ok(160, 40*ms), ok(160, 20*ms)}, []int{0, 3, 2, 1}},
		{"same latency: the higher block", []probe{ok(95, 10*ms), ok(100, 10*ms)}, []int{1, 0}},
		{"ties keep their order", []probe{ok(100, 10*ms), ok(100, 10*ms)}, []int{0, 1}},
		{"no answer last", []probe{{}, ok(5, time.Second), {}}, []int{1, 0, 2}},
		{"none answered", []probe{{}, {}}, []int{0, 1}},
		{"a block near the top of uint64", []probe{ok(math.MaxUint64, 30*ms), ok(math.MaxUint64-10, 10*ms), ok(3, ms)}, []int{1, 0, 2}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := rank(tc.probes); !slices.Equal(got, tc.want) {
				t.Errorf("rank = %v, want %v", got, tc.want)
			}
		})
	}
}
