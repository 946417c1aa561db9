//go:build !linux

package bolt

// dropMapped does nothing: Trim relies on Linux's MADV_DONTNEED, which
// drops a shared file mapping's pages without touching the file.
func dropMapped(uintptr, int64) error { return nil }
