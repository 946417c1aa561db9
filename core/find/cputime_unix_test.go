//go:build unix

package find

import (
	"syscall"
	"time"
)

// cpuTime returns the CPU time this process has used, so that benchmarks
// report per-core throughput on a machine other processes are loading.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		panic(err)
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
