package bolt

import (
	"fmt"
	"syscall"
)

// dropMapped advises the kernel that the n mapped bytes at addr are not
// needed (madvise(2) MADV_DONTNEED): for a shared file mapping, their page
// table entries go and the next access maps the file's page again.
func dropMapped(addr uintptr, n int64) error {
	if n <= 0 {
		return nil
	}
	if _, _, errno := syscall.Syscall(syscall.SYS_MADVISE, addr, uintptr(n), syscall.MADV_DONTNEED); errno != 0 {
		return fmt.Errorf("madvise %d bytes at %#x: %w", n, addr, errno)
	}
	return nil
}
