// Package fsync makes directory entries durable.
//
// A file created or renamed into a directory survives a crash only once the
// directory itself is synced (fsync(2) on the directory); the store's file,
// its compactions and the mempool log all need it.
package fsync

import (
	"fmt"
	"os"
)

// Dir syncs the directory dir, making the entries created, renamed or
// removed in it durable.
func Dir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return fmt.Errorf("fsync: %w", err)
	}
	defer d.Close()
	if err := d.Sync(); err != nil {
		return fmt.Errorf("fsync: sync the directory %s: %w", dir, err)
	}
	return nil
}
