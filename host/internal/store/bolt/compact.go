package bolt

import (
	"context"
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
// compaction, so that memory stays bounded (the dirty pages of a
// transaction are held until its commit) while commits, unsynced, stay
// few.
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
// pages, as CompactInto copies it. A chain written block by block has its
// buckets' pages interleaved, so a scan of one bucket touches pages over
// the whole file.
//
// It is offline and atomic: it holds the store's lock throughout (a running
// node makes it fail with [ErrInUse]) and replaces the store only once its
// copy is complete and synced (see CompactInto). A process killed midway
// leaves the store as it was; the next Compact removes the stale file. No
// other file in dir is touched.
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
	// Renamed while the lock is held: a node that waits for it then finds
	// the file replaced and opens the new one (see Open).
	if err := src.CompactInto(context.Background(), dir); err != nil {
		return Compacted{}, err
	}
	after, err := storeSize(path)
	if err != nil {
		return Compacted{}, err
	}
	return Compacted{Before: before, After: after, Took: time.Since(start)}, nil
}

// CompactInto writes a copy of db, each bucket in one run of full pages,
// as the store of data directory dir (db's own, or another), replacing
// any store there. It writes dir/didlight.db.compact unsynced, syncs it
// once, renames it into place and syncs dir, so that dir holds either its
// old store or the whole copy. On an error (a full disk, ctx done) the
// copy is removed and dir is as it was. db itself is not changed.
func (db *DB) CompactInto(ctx context.Context, dir string) error {
	tmp := CompactPath(dir)
	if err := os.Remove(tmp); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("store: removing a stale %s: %w", tmp, err)
	}
	size := inUse(db.db)
	if err := checkSpace(dir, db.path, size); err != nil {
		return err
	}
	if err := copyStore(ctx, db.db, tmp, size); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("store: compacting %s into %s: %w", db.path, tmp, err)
	}
	if err := os.Rename(tmp, filepath.Join(dir, FileName)); err != nil {
		os.Remove(tmp)
		return fmt.Errorf("store: %w", err)
	}
	return fsync.Dir(dir)
}

// InstallInto makes db the store of data directory dir, compacted as
// CompactInto copies it; or, when the disk has no room for that copy
// ([ErrNoSpace]), db's own file as written: synced, renamed into dir (on the
// same file system) and dir synced, so that the work that wrote db is not
// lost for want of room to copy it (a scan of it then costs more, until
// Compact lays it out). It reports which it did. db stays open either way,
// on its moved file in the second.
func (db *DB) InstallInto(ctx context.Context, dir string) (compacted bool, err error) {
	err = db.CompactInto(ctx, dir)
	if !errors.Is(err, ErrNoSpace) {
		return err == nil, err
	}
	if err := db.db.Sync(); err != nil {
		return false, fmt.Errorf("store: sync %s: %w", db.path, err)
	}
	to := filepath.Join(dir, FileName)
	if err := os.Rename(db.path, to); err != nil {
		return false, fmt.Errorf("store: %w", err)
	}
	db.path = to
	return false, fsync.Dir(dir)
}

// storeSize returns the size of the store's file, failing with [ErrNoStore]
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

// copyStore copies src, of size bytes in use, into a new file at tmp,
// synced and closed, with the freelist Open uses, written unsynced and
// synced once at the end. The copy is mapped at its final size from the
// start: each remap of a growing file would copy every key and value of
// the running transaction out of the map (bbolt's node.dereference).
func copyStore(ctx context.Context, src *bbolt.DB, tmp string, size int64) error {
	dst, err := bbolt.Open(tmp, 0o600, &bbolt.Options{
		FreelistType:    bbolt.FreelistMapType,
		NoSync:          true,
		NoGrowSync:      true,
		InitialMmapSize: int(size),
	})
	if err != nil {
		return err
	}
	f, err := os.Open(src.Path()) // for the prefetcher's reads
	if err == nil {
		err = src.View(func(stx *bbolt.Tx) error {
			return stx.ForEach(func(name []byte, b *bbolt.Bucket) error {
				ahead := startPrefetch(f, src.Info().PageSize, uint64(b.Root()), segmentLeaves)
				defer ahead.close()
				return copyBucket(ctx, dst, name, b, ahead)
			})
		})
		f.Close()
	}
	if err == nil {
		err = dst.Sync()
	}
	if cerr := dst.Close(); err == nil {
		err = cerr
	}
	return err
}

// copyBucket copies bucket src, named name, into a new bucket of dst, in
// transactions of at most compactTxMaxSize bytes of keys and values. The
// keys come in order, so each Put appends to the last leaf; FillPercent 1
// has a full leaf split where it ends rather than halfway (as
// bbolt.Compact, go.etcd.io/bbolt compact.go, fills its pages). The values
// are src's mapped bytes, valid while src's transaction runs. It tells
// ahead which of its segments it copies.
func copyBucket(ctx context.Context, dst *bbolt.DB, name []byte, src *bbolt.Bucket, ahead *prefetcher) error {
	c := src.Cursor()
	k, v := c.First()
	seg := 0
	for first := true; first || k != nil; first = false {
		if err := ctx.Err(); err != nil {
			return err
		}
		err := dst.Update(func(tx *bbolt.Tx) error {
			b, err := tx.CreateBucketIfNotExists(name)
			if err != nil {
				return err
			}
			if err := b.SetSequence(src.Sequence()); err != nil {
				return err
			}
			b.FillPercent = 1
			for size := 0; k != nil && size < compactTxMaxSize; k, v = c.Next() {
				if s := ahead.segmentAt(seg, k); s != seg {
					seg = s
					ahead.advance(s)
				}
				if v == nil {
					return fmt.Errorf("bucket %q holds a bucket %q: the store makes none", name, k)
				}
				if err := b.Put(k, v); err != nil {
					return err
				}
				size += len(k) + len(v)
			}
			return nil
		})
		if err != nil {
			return err
		}
	}
	return nil
}

// checkSpace fails with [ErrNoSpace] if dir's disk, as far as it is known,
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
