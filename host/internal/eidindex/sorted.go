package eidindex

import (
	"bytes"
	"iter"
	"maps"
	"slices"

	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// finalWrites are the DID index's writes of an update's final blocks,
// until a logged block or the end of the update: one batch applies them
// all, writing each container and count it changes once, into a sortedTx.
type finalWrites struct {
	tx    *sortedTx
	batch *didindex.Batch // nil until a final block after the last flush
}

// at returns the batch that applies the operations of a final block made
// at time.
func (f *finalWrites) at(ix *didindex.Index, time uint32) *didindex.Batch {
	if f.batch == nil {
		f.batch = ix.Write(f.tx, time)
	} else {
		f.batch.At(time)
	}
	return f.batch
}

// flush writes the final blocks' writes so far.
func (f *finalWrites) flush() error {
	if f.batch != nil {
		if err := f.batch.Flush(); err != nil {
			return err
		}
		f.batch = nil
	}
	return f.tx.flush()
}

// sortedTx is a transaction whose writes to the DID index's buckets wait
// in memory until flush, which writes them in the order of their keys;
// reads through it see them. The store (bbolt) inserts each key into a
// sorted in-memory node and splits nodes only as the transaction commits,
// so that keys put in no order into a bucket cost a move of half a growing
// node each, where keys put in order mostly append. Writes to other
// buckets go through at once.
type sortedTx struct {
	store.Tx
	buckets map[string]*sortedBucket
	err     error // the first error of a flush a Scan made
}

func newSortedTx(tx store.Tx) *sortedTx {
	return &sortedTx{Tx: tx, buckets: map[string]*sortedBucket{}}
}

func (t *sortedTx) Bucket(name string) (store.Bucket, error) {
	b, err := t.Tx.Bucket(name)
	if err != nil || !slices.Contains(didindex.Buckets, name) {
		return b, err
	}
	sb, ok := t.buckets[name]
	if !ok {
		sb = &sortedBucket{Bucket: b, tx: t, pending: map[string][]byte{}}
		t.buckets[name] = sb
	}
	return sb, nil
}

// DeleteBucket drops the bucket's pending writes with it.
func (t *sortedTx) DeleteBucket(name string) error {
	if sb, ok := t.buckets[name]; ok {
		clear(sb.pending)
	}
	return t.Tx.DeleteBucket(name)
}

// flush writes the pending writes, bucket by bucket, each in the order of
// its keys.
func (t *sortedTx) flush() error {
	if t.err != nil {
		return t.err
	}
	for _, name := range slices.Sorted(maps.Keys(t.buckets)) {
		if err := t.buckets[name].flush(); err != nil {
			return err
		}
	}
	return nil
}

// sortedBucket is a bucket of a sortedTx.
type sortedBucket struct {
	store.Bucket
	tx      *sortedTx
	pending map[string][]byte // the value to write by key; nil deletes it
}

func (b *sortedBucket) Get(key []byte) ([]byte, bool) {
	v, ok := b.pending[string(key)]
	if !ok {
		return b.Bucket.Get(key)
	}
	if v == nil {
		return nil, false
	}
	return bytes.Clone(v), true
}

// Put keeps value to write at the flush, where an invalid key or value
// fails. Unlike a store's, it keeps value itself, not a copy (the store
// copies it at the flush): the caller, didindex, builds every value it
// puts afresh and never changes it, and a block's documents and history
// entries are large.
func (b *sortedBucket) Put(key, value []byte) error {
	if value == nil {
		value = []byte{} // nil marks a delete
	}
	b.pending[string(key)] = value
	return nil
}

func (b *sortedBucket) Delete(key []byte) error {
	b.pending[string(key)] = nil
	return nil
}

// Scan writes the pending writes first, then scans the bucket; so does
// ScanShared.
func (b *sortedBucket) Scan(r store.Range) iter.Seq2[[]byte, []byte] {
	b.flushForScan()
	return b.Bucket.Scan(r)
}

func (b *sortedBucket) ScanShared(r store.Range) iter.Seq2[[]byte, []byte] {
	b.flushForScan()
	return b.Bucket.ScanShared(r)
}

// flushForScan flushes the bucket, keeping the first error for the
// transaction's flush.
func (b *sortedBucket) flushForScan() {
	if err := b.flush(); err != nil && b.tx.err == nil {
		b.tx.err = err
	}
}

func (b *sortedBucket) flush() error {
	for _, k := range slices.Sorted(maps.Keys(b.pending)) {
		var err error
		if v := b.pending[k]; v == nil {
			err = b.Bucket.Delete(record.Key(k))
		} else {
			err = b.Bucket.Put(record.Key(k), v)
		}
		if err != nil {
			return err
		}
	}
	clear(b.pending)
	return nil
}
