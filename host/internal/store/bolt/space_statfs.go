//go:build linux || darwin

package bolt

import "syscall"

// freeSpace returns the bytes an unprivileged process may still write in
// the file system holding dir; ok is false when that is not known.
func freeSpace(dir string) (free int64, ok bool) {
	var st syscall.Statfs_t
	if err := syscall.Statfs(dir, &st); err != nil {
		return 0, false
	}
	return int64(uint64(st.Bavail) * uint64(st.Bsize)), true
}
