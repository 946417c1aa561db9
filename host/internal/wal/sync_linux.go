package wal

import (
	"os"
	"syscall"
)

// syncData makes what was written over f's blocks durable: fdatasync,
// which leaves out the file's times (and commits its length only when it
// changed), as bbolt syncs its file on Linux.
func syncData(f *os.File) error { return syscall.Fdatasync(int(f.Fd())) }
