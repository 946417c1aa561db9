package bolt

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"time"

	"go.etcd.io/bbolt"

	"github.com/didlight/didlight/host/internal/fsync"
	"github.com/didlight/didlight/host/internal/store"
)

// CompactPath is the file a compaction of the store in dir writes (its
// size tells how far the copy got); it replaces the store only once
// complete and synced.
func CompactPath(dir string) string { return filepath.Join(dir, FileName+".compact") }

// compactTxMaxSize bounds the keys and values copied per transaction of a
// compaction: bbolt.Compact (go.etcd.io/bbolt compact.go) commits when a
// transaction would exceed it, so that memory stays bounded (the dirty
// pages of a transaction are held until its commit) while commits, unsynced,
// stay few. 64 MiB copied the 100k chain's 2.3 GB in 12 s.
const compactTxMaxSize = 64 << 20

// ErrNoStore means a data directory holds no store to work on.
var ErrNoStore = errors.New("store: no store")

// ErrNoSpace means the disk has too little room for a compaction's copy.
var ErrNoSpace = errors.New("store: not enough free disk space")

// diskFree is freeSpace; tests replace it to play a full disk.
var diskFree = freeSpace

// Compacted says what a compaction did.
type Compacted struct {
	Before, After int64         // the store's file size, in bytes
	Took          time.Duration // from opening the store to replacing it
}

// CompactOptions tune Compact. The zero value is ready to use.
type CompactOptions struct {
	// LockTimeout is as Options.LockTimeout.
	LockTimeout time.Duration
	// Check, if not nil, may refuse the store before anything is written:
	// a store of a format the caller does not know.
	Check func(store.Tx) error
}

// Compact rewrites the store in dir so that each bucket lies in one run of
// pages, as bbolt.Compact copies it bucket by bucket into a new file. A
// chain written block by block has its buckets' pages interleaved, so a
// scan of one bucket touches pages over the whole file.
//
// It is offline and atomic: it holds the store's lock throughout (a running
// node makes it fail with ErrInUse), writes dir/didlight.db.compact unsynced,
// syncs and closes it, renames it over the store and syncs dir. A process
// killed midway leaves the store as it was; the next Compact removes the
// stale file. On an error (a full disk) the new file is removed. No other
// file in dir is touched.
func Compact(dir string, opts CompactOptions) (Compacted, error) {
	start := time.Now()
	path := filepath.Join(dir, FileName)
	before, err := storeSize(path)
	if err != nil {
		return Compacted{}, err
	}
	src, err := Open(dir, Options{LockTimeout: opts.LockTimeout})
	if err != nil {
		return Compacted{}, err
	}
	defer src.Close()
	if opts.Check != nil {
		if err := src.View(opts.Check); err != nil {
			return Compacted{}, fmt.Errorf("store: %s: %w", path, err)
		}
	}
	tmp := CompactPath(dir)
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return Compacted{}, fmt.Errorf("store: removing a stale %s: %w", tmp, err)
	}
	if err := checkSpace(dir, path, inUse(src.db)); err != nil {
		return Compacted{}, err
	}
	if err := copyStore(src.db, tmp); err != nil {
		os.Remove(tmp)
		return Compacted{}, fmt.Errorf("store: compacting %s into %s: %w", path, tmp, err)
	}
	// Renamed while the lock is held: a node that waits for it then finds
	// the file replaced and opens the new one (see Open).
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return Compacted{}, fmt.Errorf("store: %w", err)
	}
	if err := fsync.Dir(dir); err != nil {
		return Compacted{}, err
	}
	after, err := storeSize(path)
	if err != nil {
		return Compacted{}, err
	}
	return Compacted{Before: before, After: after, Took: time.Since(start)}, nil
}

// storeSize returns the size of the store's file, failing with ErrNoStore
// when there is none (Open would create one).
func storeSize(path string) (int64, error) {
	info, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return 0, fmt.Errorf("%w: %s does not exist", ErrNoStore, path)
	case err != nil:
		return 0, fmt.Errorf("store: %w", err)
	case !info.Mode().IsRegular():
		return 0, fmt.Errorf("store: %s is not a regular file", path)
	}
	return info.Size(), nil
}

// copyStore copies src into a new file at tmp, synced and closed, with the
// freelist Open uses, written unsynced and synced once at the end.
func copyStore(src *bbolt.DB, tmp string) error {
	dst, err := bbolt.Open(tmp, 0o600, &bbolt.Options{
		FreelistType: bbolt.FreelistMapType,
		NoSync:       true,
		NoGrowSync:   true,
	})
	if err != nil {
		return err
	}
	err = bbolt.Compact(dst, src, compactTxMaxSize)
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

// checkSpace fails with ErrNoSpace if dir's disk, as far as it is known,
// has less than need bytes free for a copy of the store at path.
func checkSpace(dir, path string, need int64) error {
	if free, ok := diskFree(dir); ok && free < need {
		return fmt.Errorf("%w in %s: %d bytes free, the copy of %s may need %d", ErrNoSpace, dir, free, path, need)
	}
	return nil
}

// inUse returns the bytes of src's pages that are not free: at most what a
// copy of it needs, as the copy fills its pages fuller.
func inUse(src *bbolt.DB) int64 {
	var size int64
	src.View(func(tx *bbolt.Tx) error {
		size = tx.Size()
		return nil
	})
	st := src.Stats()
	return size - int64(st.FreePageN+st.PendingPageN)*int64(src.Info().PageSize)
}
