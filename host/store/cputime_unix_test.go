//go:build unix

package store_test

import (
	"syscall"
	"time"
)

// processCPU returns the CPU time (user and system) this process has used.
// Benchmarks report it besides wall time: on a machine that other work
// loads, it is the steadier measure of what an operation costs.
func processCPU() (time.Duration, bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
