//go:build linux

package main

import (
	"fmt"
	"io"
	"os"
	"syscall"
	"time"
	"unsafe"
)

// The constants of timerfd_create(2) on Linux.
const (
	clockMonotonic = 1
	tfdNonblock    = syscall.O_NONBLOCK
	tfdCloexec     = syscall.O_CLOEXEC
)

// ticker wakes the generator's dispatcher every interval, precisely: it
// reads a periodic timerfd, which the kernel's high-resolution timers
// fire, through Go's network poller. A Go timer (time.Sleep) wakes a
// process that has nothing else to do at 1 ms granularity (netpoll's
// epoll_wait timeout is in milliseconds, runtime/netpoll_epoll.go), so a
// sleep shorter than that lasts about a millisecond: a lag in every
// latency counted from a due time.
type ticker struct{ f *os.File }

// newTicker starts a ticker of period interval.
func newTicker(interval time.Duration) (*ticker, error) {
	fd, _, errno := syscall.Syscall(syscall.SYS_TIMERFD_CREATE, clockMonotonic, tfdNonblock|tfdCloexec, 0)
	if errno != 0 {
		return nil, fmt.Errorf("timerfd_create: %v", errno)
	}
	period := syscall.NsecToTimespec(max(interval, time.Microsecond).Nanoseconds())
	spec := struct{ interval, value syscall.Timespec }{period, period}
	if _, _, errno := syscall.Syscall6(syscall.SYS_TIMERFD_SETTIME, fd, 0, uintptr(unsafe.Pointer(&spec)), 0, 0, 0); errno != 0 {
		syscall.Close(int(fd))
		return nil, fmt.Errorf("timerfd_settime: %v", errno)
	}
	// A non-blocking descriptor: os.NewFile has the poller wait for it.
	return &ticker{os.NewFile(fd, "timerfd")}, nil
}

// wait blocks until the ticker has fired since the last wait.
func (t *ticker) wait() error {
	var n [8]byte // how many times it fired: the dispatcher reads the clock instead
	_, err := io.ReadFull(t.f, n[:])
	return err
}

// stop stops the ticker.
func (t *ticker) stop() { t.f.Close() }
