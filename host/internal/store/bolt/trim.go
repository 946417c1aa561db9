package bolt

import (
	"errors"
	"fmt"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/didlight/didlight/host/internal/store"
)

// BigScan is how many bytes of keys and values one transaction's scans
// read before Scanned tells of it: a scan of a large bucket (a query
// matching every view) maps its pages faster than a periodic check sees.
const BigScan = 16 << 20

// Trim drops the store's file from the process's address space: the pages
// every read mapped, which count in the process's resident memory (RssFile)
// until the kernel needs them. The kernel keeps them in its page cache, and a
// later read maps each again with a minor fault; nothing is lost, as the
// mapping is read-only and every write goes to the file. Readers and the
// writer may run meanwhile. Trim does nothing but on Linux.
func (db *DB) Trim() error {
	err := db.db.View(func(tx *bbolt.Tx) error {
		// A read transaction holds bbolt's mmap lock for reading, and bbolt
		// remaps (munmap, mmap) only holding it for writing: until View
		// returns, Info().Data is the start of the mapping, which covers at
		// least tx.Size() bytes: a writer that allocates past the mapping
		// remaps before it commits the meta page that says the file grew
		// (bbolt v1.5.0, db.go beginTx, mmap and allocate).
		if err := dropMapped(tx.DB().Info().Data, tx.Size()); err != nil {
			return fmt.Errorf("store: trim %s: %w", db.path, err)
		}
		return nil
	})
	if errors.Is(err, berrors.ErrDatabaseNotOpen) {
		return store.ErrClosed
	}
	return err
}

// Scanned receives each time a transaction's scans have read another
// [BigScan] bytes, while they go on, for the owner of Trim to trim the pages
// a long scan maps as it maps them. It holds one signal: those sent while
// one waits are merged into it.
func (db *DB) Scanned() <-chan struct{} { return db.scanned }
