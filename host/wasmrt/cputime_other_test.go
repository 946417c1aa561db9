//go:build !linux

package wasmrt_test

import "time"

var start = time.Now()

// cpuTime falls back to wall time where the process CPU clock is not read.
func cpuTime() time.Duration { return time.Since(start) }
