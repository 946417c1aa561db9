//go:build linux

package wasmrt_test

import (
	"syscall"
	"time"
	"unsafe"
)

// cpuTime returns the CPU time this process has used (all its threads, the
// garbage collector's included), so that benchmarks can compare their
// parts on a machine other processes are loading.
func cpuTime() time.Duration {
	const clockProcessCPUTime = 2 // CLOCK_PROCESS_CPUTIME_ID
	var ts syscall.Timespec
	if _, _, errno := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockProcessCPUTime, uintptr(unsafe.Pointer(&ts)), 0); errno != 0 {
		panic(errno)
	}
	return time.Duration(ts.Nano())
}
