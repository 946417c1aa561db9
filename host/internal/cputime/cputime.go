// Package cputime reads the CPU time this process has used.
//
// Benchmarks on a shared machine report it besides wall time: when other
// work loads the cores, CPU time still says what an operation costs, where
// wall time also counts the waiting for a core.
package cputime

import "time"

// Process returns the CPU time, user and system, that this process has used
// so far; only differences between two calls mean anything. Where the system
// cannot tell, it returns the wall time since the package was loaded and ok
// false, so that a caller may still compute a ratio or say what it reports.
func Process() (d time.Duration, ok bool) { return process() }

var loaded = time.Now()

// Now is Process without ok, for callers that only compare two readings.
func Now() time.Duration {
	d, _ := Process()
	return d
}
