//go:build !unix

package find

import "time"

var start = time.Now()

// cpuTime falls back to wall-clock time where there is no getrusage.
func cpuTime() time.Duration { return time.Since(start) }
