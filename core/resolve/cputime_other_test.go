//go:build !linux

package resolve

import "time"

var start = time.Now()

// cpuTime falls back to wall-clock time where the process CPU clock is not
// at hand.
func cpuTime() time.Duration { return time.Since(start) }
