//go:build !unix

package store_test

import "time"

// processCPU is not available without getrusage; benchmarks then report
// wall time only.
func processCPU() (time.Duration, bool) { return 0, false }
