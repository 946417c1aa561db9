package bolt

import (
	"bytes"
	"errors"
	"fmt"
	"iter"

	"go.etcd.io/bbolt"
	berrors "go.etcd.io/bbolt/errors"

	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/internal/kv"
)

type tx struct {
	kv.TxState
	btx          *bbolt.Tx
	buckets      map[string]*bucket
	scannedBytes int             // keys and values the scans yielded
	scanned      chan<- struct{} // DB.Scanned's
}

func (t *tx) Bucket(name string) (store.Bucket, error) {
	t.CheckRead()
	if err := kv.CheckBucketName(name); err != nil {
		return nil, err
	}
	if b, ok := t.buckets[name]; ok {
		return b, nil
	}
	b := &bucket{tx: t, name: []byte(name), b: t.btx.Bucket([]byte(name))}
	if t.buckets == nil {
		t.buckets = make(map[string]*bucket)
	}
	t.buckets[name] = b
	return b, nil
}

func (t *tx) DeleteBucket(name string) error {
	if err := t.CheckWrite(); err != nil {
		return err
	}
	if err := kv.CheckBucketName(name); err != nil {
		return err
	}
	err := t.btx.DeleteBucket([]byte(name))
	if err != nil && !errors.Is(err, berrors.ErrBucketNotFound) {
		return fmt.Errorf("store: delete bucket %q: %w", name, err)
	}
	if b, ok := t.buckets[name]; ok {
		b.b, b.tail, b.mixed = nil, nil, false
		b.version++
	}
	return nil
}

// bucket is a transaction's handle on one bucket. The bbolt bucket is made
// on the first write, so reads never create empty buckets.
type bucket struct {
	tx      *tx
	name    []byte
	b       *bbolt.Bucket // nil while the bucket does not exist
	version uint64        // counts changes, for kv.Scan
	tail    []byte        // the last key this transaction appended, while it has only appended (fill)
	mixed   bool          // this transaction put a key that was not an append
}

func (b *bucket) Get(key []byte) ([]byte, bool) {
	b.tx.CheckRead()
	if b.b == nil {
		return nil, false
	}
	v := b.b.Get(key)
	if v == nil {
		return nil, false
	}
	return bytes.Clone(v), true // bbolt's slice dies with the transaction
}

func (b *bucket) Put(key, value []byte) error {
	if err := b.checkWrite(key); err != nil {
		return err
	}
	if err := kv.CheckValue(value); err != nil {
		return err
	}
	if err := b.create(); err != nil {
		return err
	}
	// bbolt keeps the slices until commit; give it copies the caller cannot
	// change. The value copy is non-nil, so bbolt stores an empty value.
	k, v := kv.Pair(key, value)
	b.fill(k)
	b.version++
	if err := b.b.Put(k, v); err != nil {
		return fmt.Errorf("store: put in bucket %q: %w", b.name, err)
	}
	return nil
}

// appendFill is the share of a page bbolt fills before it splits a node of
// a bucket the transaction only appends to. Such a bucket (keyed by a
// sequence: blocks, views, documents) never writes a node again once
// appends have moved past it, so bbolt's default, half a page, would leave
// half of each page empty for good and write twice the pages per commit.
const appendFill = 1.0

// fill sets bbolt's fill for key k, about to be put: appendFill while
// every key this transaction put in the bucket came after all the keys
// before it, bbolt's default once one did not (a node split then may take
// more keys in the middle).
func (b *bucket) fill(k []byte) {
	if b.mixed {
		return
	}
	after := b.tail
	if after == nil {
		after, _ = newCursor(b.b).Last()
	}
	if after != nil && bytes.Compare(k, after) <= 0 {
		b.mixed = true
		b.b.FillPercent = bbolt.DefaultFillPercent
		return
	}
	b.tail = k
	b.b.FillPercent = appendFill
}

func (b *bucket) Delete(key []byte) error {
	if err := b.checkWrite(key); err != nil {
		return err
	}
	if b.b == nil {
		return nil
	}
	b.version++
	if err := b.b.Delete(key); err != nil {
		return fmt.Errorf("store: delete from bucket %q: %w", b.name, err)
	}
	return nil
}

func (b *bucket) Scan(r store.Range) iter.Seq2[[]byte, []byte] {
	return b.tx.counted(kv.Scan(b, r))
}

func (b *bucket) ScanShared(r store.Range) iter.Seq2[[]byte, []byte] {
	return b.tx.counted(kv.ScanShared(b, r))
}

// counted adds the bytes scan yields to the transaction's scannedBytes,
// and signals DB.Scanned each time they pass another [BigScan].
func (t *tx) counted(scan iter.Seq2[[]byte, []byte]) iter.Seq2[[]byte, []byte] {
	return func(yield func(k, v []byte) bool) {
		for k, v := range scan {
			before := t.scannedBytes
			t.scannedBytes += len(k) + len(v)
			if t.scannedBytes/BigScan != before/BigScan {
				select {
				case t.scanned <- struct{}{}:
				default:
				}
			}
			if !yield(k, v) {
				return
			}
		}
	}
}

func (b *bucket) Sequence() uint64 {
	b.tx.CheckRead()
	if b.b == nil {
		return 0
	}
	return b.b.Sequence()
}

func (b *bucket) NextSequence() (uint64, error) {
	if err := b.tx.CheckWrite(); err != nil {
		return 0, err
	}
	if err := b.create(); err != nil {
		return 0, err
	}
	n, err := b.b.NextSequence()
	if err != nil {
		return 0, fmt.Errorf("store: sequence of bucket %q: %w", b.name, err)
	}
	return n, nil
}

func (b *bucket) SetSequence(n uint64) error {
	if err := b.tx.CheckWrite(); err != nil {
		return err
	}
	if err := b.create(); err != nil {
		return err
	}
	if err := b.b.SetSequence(n); err != nil {
		return fmt.Errorf("store: sequence of bucket %q: %w", b.name, err)
	}
	return nil
}

// Cursor and Version make bucket a [kv.Source].
func (b *bucket) Cursor() kv.Cursor {
	b.tx.CheckRead()
	if b.b == nil {
		return emptyCursor{}
	}
	return newCursor(b.b)
}

func (b *bucket) Version() uint64 { return b.version }

func (b *bucket) checkWrite(key []byte) error {
	if err := b.tx.CheckWrite(); err != nil {
		return err
	}
	return kv.CheckKey(key)
}

// create makes the bbolt bucket if it does not exist yet.
func (b *bucket) create() error {
	if b.b != nil {
		return nil
	}
	bb, err := b.tx.btx.CreateBucketIfNotExists(b.name)
	if err != nil {
		return fmt.Errorf("store: create bucket %q: %w", b.name, err)
	}
	b.b = bb
	b.version++
	return nil
}

// emptyCursor is the cursor of a bucket that does not exist.
type emptyCursor struct{}

func (emptyCursor) First() (key, value []byte)      { return nil, nil }
func (emptyCursor) Last() (key, value []byte)       { return nil, nil }
func (emptyCursor) Seek([]byte) (key, value []byte) { return nil, nil }
func (emptyCursor) Next() (key, value []byte)       { return nil, nil }
func (emptyCursor) Prev() (key, value []byte)       { return nil, nil }
