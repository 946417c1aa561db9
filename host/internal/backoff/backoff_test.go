package backoff

import (
	"testing"
	"time"
)

func TestDelay(t *testing.T) {
	poll, max := 100*time.Millisecond, 3*time.Second
	for failures, d := range []time.Duration{100, 200, 400, 800, 1600, 3000, 3000, 3000} {
		d *= time.Millisecond
		if failures >= 5 {
			d = max
		}
		seen := map[time.Duration]bool{}
		for range 200 {
			got := Delay(poll, max, failures)
			if got < d/2 || got > d {
				t.Fatalf("Delay after %d failures: %v, want within [%v, %v]", failures, got, d/2, d)
			}
			seen[got] = true
		}
		if len(seen) < 10 {
			t.Errorf("Delay after %d failures took %d values in 200 draws: no jitter", failures, len(seen))
		}
	}
	if got := Delay(poll, max, 1000); got > max {
		t.Errorf("Delay after 1000 failures: %v, over the cap %v", got, max)
	}
}
