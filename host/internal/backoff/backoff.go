// Package backoff computes how long to wait before trying again after failures.
//
// The wait doubles from a first wait up to a cap, with jitter.
package backoff

import (
	"math/rand/v2"
	"time"
)

// Delay returns a random wait in [d/2, d], d being first doubled once per
// earlier failure, at most max. The jitter spreads the retries of many
// clients that failed together.
func Delay(first, max time.Duration, failures int) time.Duration {
	d := first
	for range failures {
		if d >= max/2 {
			d = max
			break
		}
		d *= 2
	}
	d = min(d, max)
	return d/2 + rand.N(d/2+1)
}
