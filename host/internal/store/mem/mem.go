// Package mem implements the store in memory.
//
// It is the in-memory store backend, for `didlight node --mem` and tests. It
// keeps each bucket in a copy-on-write B-tree: a View holds the root
// pointers that were current when it began and reads them without locks
// while an Update builds new versions of the nodes it changes; a commit
// publishes the new roots of every bucket at once. Nothing survives Close.
package mem

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/internal/kv"
)

// DB is an in-memory [store.DB].
type DB struct {
	writer   sync.Mutex   // held by the running Update
	life     sync.RWMutex // shared by transactions, taken by Close
	closed   bool         // guarded by life
	gen      uint64       // the last Update's generation; guarded by writer
	snapshot atomic.Pointer[snapshot]
}

// snapshot is the committed state: every non-empty bucket by name. Neither
// the map nor the trees in it change once published.
type snapshot map[string]*tree

var _ store.DB = (*DB)(nil)

// New returns an empty in-memory store.
func New() *DB {
	db := &DB{}
	db.snapshot.Store(&snapshot{})
	return db
}

// View runs fn over the state committed when it begins.
func (db *DB) View(fn func(store.Tx) error) error {
	db.life.RLock()
	defer db.life.RUnlock()
	if db.closed {
		return store.ErrClosed
	}
	t := &tx{base: *db.snapshot.Load()}
	defer t.End()
	return fn(t)
}

// Update runs fn as the only writer and publishes its changes if fn
// returns nil.
func (db *DB) Update(fn func(store.Tx) error) error {
	db.writer.Lock()
	defer db.writer.Unlock()
	db.life.RLock()
	defer db.life.RUnlock()
	if db.closed {
		return store.ErrClosed
	}
	db.gen++
	t := &tx{TxState: kv.TxState{Writable: true}, gen: db.gen, base: *db.snapshot.Load()}
	defer t.End()
	if err := fn(t); err != nil {
		return err
	}
	next := t.commit()
	db.snapshot.Store(&next)
	return nil
}

// Durable implements [store.DB]: the contents go with the process.
func (db *DB) Durable() bool { return false }

// Close waits for running transactions and drops the contents.
func (db *DB) Close() error {
	db.life.Lock()
	defer db.life.Unlock()
	db.closed = true
	db.snapshot.Store(&snapshot{})
	return nil
}

type tx struct {
	kv.TxState
	gen     uint64 // the Update's generation; 0 in a View
	base    snapshot
	buckets map[string]*bucket
}

func (t *tx) Bucket(name string) (store.Bucket, error) {
	t.CheckRead()
	if err := kv.CheckBucketName(name); err != nil {
		return nil, err
	}
	return t.bucket(name), nil
}

func (t *tx) DeleteBucket(name string) error {
	if err := t.CheckWrite(); err != nil {
		return err
	}
	if err := kv.CheckBucketName(name); err != nil {
		return err
	}
	b := t.bucket(name)
	b.tree = tree{}
	b.touch()
	return nil
}

// bucket returns the transaction's handle for name, made on first use.
func (t *tx) bucket(name string) *bucket {
	if b, ok := t.buckets[name]; ok {
		return b
	}
	b := &bucket{tx: t}
	if tr, ok := t.base[name]; ok {
		b.tree = *tr
	}
	if t.buckets == nil {
		t.buckets = make(map[string]*bucket)
	}
	t.buckets[name] = b
	return b
}

// commit returns the snapshot that results from the transaction.
func (t *tx) commit() snapshot {
	next := maps.Clone(t.base)
	for name, b := range t.buckets {
		switch {
		case !b.dirty:
		case b.tree == (tree{}):
			delete(next, name)
		default:
			tr := b.tree
			next[name] = &tr
		}
	}
	return next
}
