// Package bolt implements the store on one bbolt file.
//
// It is the file-backed store backend: one bbolt file in a data directory.
// bbolt is a copy-on-write B+tree that writes a commit's pages, syncs them,
// then writes and syncs the meta page that points at them, so a process
// killed at any instant leaves the file at its last commit.
package bolt

import (
	"cmp"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/didlight/didlight/host/internal/fsync"
	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/internal/kv"
)

// FileName is the name of the store's file inside its data directory.
const FileName = "didlight.db"

// DefaultLockTimeout is how long Open waits, unless told otherwise, for
// another process to release the data directory.
const DefaultLockTimeout = time.Second

// initialMmapSize is the address space mapped at open (not disk space). A
// file that outgrows the map must be remapped, which waits for every running
// View, so the map starts large enough for a sizeable chain.
const initialMmapSize = 1 << 30

// ErrInUse means another process (or another DB in this process) has the
// data directory open.
var ErrInUse = errors.New("store: data directory is in use")

// Options tune Open. The zero value is ready to use.
type Options struct {
	// LockTimeout bounds the wait for another process to release the data
	// directory; zero means [DefaultLockTimeout]. Open never waits forever.
	LockTimeout time.Duration
	// NoSync leaves each commit, and each growth of the file, unsynced
	// until Close, which syncs the file once: for a store written in bulk
	// where a crash midway does not matter (a generator writing into a
	// directory that becomes a data directory only once complete). A
	// process killed before Close may leave the file unreadable.
	NoSync bool
	// mapSize is the address space mapped at open; 0 means initialMmapSize.
	// Tests make it small, for a file that outgrows it and is remapped.
	mapSize int
}

// DB is a [store.DB] kept in one file.
type DB struct {
	db      *bbolt.DB
	path    string
	noSync  bool          // Options.NoSync: Close syncs
	scanned chan struct{} // Scanned; holds one signal
}

var _ store.DB = (*DB)(nil)

// Open opens the store in directory dir, creating the directory and an empty
// store if needed. It fails with [ErrInUse] if another process holds the store
// and [store.ErrCorrupt] if the file is not a readable store; both name the path.
func Open(dir string, opts Options) (*DB, error) {
	if err := os.MkdirAll(dir, 0o700); err != nil {
		return nil, fmt.Errorf("store: data directory: %w", err)
	}
	path := filepath.Join(dir, FileName)
	timeout := cmp.Or(opts.LockTimeout, DefaultLockTimeout)
	info, err := os.Stat(path)
	created := errors.Is(err, fs.ErrNotExist)
	switch {
	case created:
	case err != nil:
		return nil, fmt.Errorf("store: %w", err)
	case !info.Mode().IsRegular():
		return nil, fmt.Errorf("store: %s is not a regular file", path)
	case info.Size() > 0:
		if err := checkLength(dir, path, timeout); err != nil {
			return nil, err
		}
	}
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{
		Timeout:         timeout,
		FreelistType:    bbolt.FreelistMapType,
		InitialMmapSize: cmp.Or(opts.mapSize, initialMmapSize),
		NoSync:          opts.NoSync,
		NoGrowSync:      opts.NoSync,
	})
	if err != nil {
		return nil, openError(dir, path, timeout, err)
	}
	if !created && replaced(path, info) {
		// A compaction renamed its copy over the file while this waited
		// for the old one's lock: what it holds now is an unlinked file.
		bdb.Close()
		return Open(dir, opts)
	}
	if created {
		if err := fsync.Dir(dir); err != nil {
			bdb.Close()
			return nil, err
		}
	}
	return &DB{db: bdb, path: path, noSync: opts.NoSync, scanned: make(chan struct{}, 1)}, nil
}

// checkLength fails if the file is shorter than its last commit says it is.
// bbolt maps the file and would crash the process reading the missing pages
// (a writable open reads the freelist at once), so this opens it read-only
// first, which reads nothing but the meta pages.
func checkLength(dir, path string, timeout time.Duration) error {
	bdb, err := bbolt.Open(path, 0o600, &bbolt.Options{ReadOnly: true, Timeout: timeout})
	if err != nil {
		return openError(dir, path, timeout, err)
	}
	defer bdb.Close()
	info, err := os.Stat(path)
	if err != nil {
		return fmt.Errorf("store: %w", err)
	}
	return bdb.View(func(tx *bbolt.Tx) error {
		if need := tx.Size(); info.Size() < need {
			return fmt.Errorf("%w: data file %s is truncated: %d bytes, its last commit needs %d", store.ErrCorrupt, path, info.Size(), need)
		}
		return nil
	})
}

// replaced reports whether path no longer names the file info describes.
func replaced(path string, info fs.FileInfo) bool {
	now, err := os.Stat(path)
	return err != nil || !os.SameFile(now, info)
}

// openError turns an error of bbolt.Open into one of ours.
func openError(dir, path string, timeout time.Duration, err error) error {
	switch {
	case errors.Is(err, berrors.ErrTimeout):
		return fmt.Errorf("%w: %s (another process holds %s; waited %v)", ErrInUse, dir, path, timeout)
	case errors.Is(err, berrors.ErrInvalid), errors.Is(err, berrors.ErrVersionMismatch), errors.Is(err, berrors.ErrChecksum),
		// bbolt has no error value for a file shorter than its two meta pages.
		strings.Contains(err.Error(), "file size too small"):
		return fmt.Errorf("%w: data file %s: %v", store.ErrCorrupt, path, err)
	}
	return fmt.Errorf("store: open %s: %w", path, err)
}

// Path returns the store's file.
func (db *DB) Path() string { return db.path }

// View runs fn in a read-only bbolt transaction.
func (db *DB) View(fn func(store.Tx) error) error {
	return db.run(false, fn)
}

// Update runs fn in bbolt's read-write transaction; a nil result commits,
// and Update returns once the commit is synced to disk.
func (db *DB) Update(fn func(store.Tx) error) error {
	return db.run(true, fn)
}

// Durable implements [store.DB]: a commit is on disk when Update returns.
func (db *DB) Durable() bool { return true }

// run runs fn in a transaction and tells fn's own error apart from bbolt's.
func (db *DB) run(writable bool, fn func(store.Tx) error) error {
	var (
		ran   bool
		fnErr error
	)
	body := func(btx *bbolt.Tx) error {
		t := &tx{TxState: kv.TxState{Writable: writable}, btx: btx, scanned: db.scanned}
		defer t.End()
		ran = true
		fnErr = fn(t)
		return fnErr
	}
	var err error
	if writable {
		err = db.db.Update(body)
	} else {
		err = db.db.View(body)
	}
	switch {
	case !ran && errors.Is(err, berrors.ErrDatabaseNotOpen):
		return store.ErrClosed
	case err == nil, ran && err == fnErr:
		return err
	}
	return fmt.Errorf("store: %s: %w", db.path, err)
}

// Close waits for running transactions and closes the file, which it
// syncs first if it was opened with NoSync.
func (db *DB) Close() error {
	if db.noSync {
		db.noSync = false
		if err := db.db.Sync(); err != nil {
			db.db.Close()
			return fmt.Errorf("store: sync %s: %w", db.path, err)
		}
	}
	if err := db.db.Close(); err != nil {
		return fmt.Errorf("store: close %s: %w", db.path, err)
	}
	return nil
}

// CloseUnsynced closes the store without the sync Close does for a store
// opened with NoSync: for a store whose file is removed next, whose pages
// need never reach the disk.
func (db *DB) CloseUnsynced() error {
	db.noSync = false
	return db.Close()
}
