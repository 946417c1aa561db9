package mem

import (
	"bytes"
	"iter"

	"github.com/didlight/didlight/host/internal/store"
	"github.com/didlight/didlight/host/internal/store/internal/kv"
)

// bucket is a transaction's handle on one bucket: its working copy of the
// tree, which only an Update changes.
type bucket struct {
	tx      *tx
	tree    tree
	version uint64 // counts changes, for kv.Scan
	dirty   bool   // changed in this transaction
}

func (b *bucket) Get(key []byte) ([]byte, bool) {
	b.tx.CheckRead()
	v, ok := b.tree.get(key)
	if !ok {
		return nil, false
	}
	return bytes.Clone(v), true // stored values are never nil
}

func (b *bucket) Put(key, value []byte) error {
	if err := b.checkWrite(key); err != nil {
		return err
	}
	if err := kv.CheckValue(value); err != nil {
		return err
	}
	b.tree.put(b.tx.gen, kv.Joined(key, value))
	b.touch()
	return nil
}

func (b *bucket) Delete(key []byte) error {
	if err := b.checkWrite(key); err != nil {
		return err
	}
	b.tree.delete(b.tx.gen, key)
	b.touch()
	return nil
}

func (b *bucket) Scan(r store.Range) iter.Seq2[[]byte, []byte] {
	return kv.Scan(b, r)
}

func (b *bucket) ScanShared(r store.Range) iter.Seq2[[]byte, []byte] {
	return kv.ScanShared(b, r)
}

func (b *bucket) Sequence() uint64 {
	b.tx.CheckRead()
	return b.tree.seq
}

func (b *bucket) NextSequence() (uint64, error) {
	if err := b.tx.CheckWrite(); err != nil {
		return 0, err
	}
	b.tree.seq++
	b.touch()
	return b.tree.seq, nil
}

func (b *bucket) SetSequence(n uint64) error {
	if err := b.tx.CheckWrite(); err != nil {
		return err
	}
	b.tree.seq = n
	b.touch()
	return nil
}

// Cursor and Version make bucket a [kv.Source].
func (b *bucket) Cursor() kv.Cursor {
	b.tx.CheckRead()
	return &cursor{root: b.tree.root}
}

func (b *bucket) Version() uint64 { return b.version }

func (b *bucket) checkWrite(key []byte) error {
	if err := b.tx.CheckWrite(); err != nil {
		return err
	}
	return kv.CheckKey(key)
}

// touch records a change to the working tree.
func (b *bucket) touch() {
	b.version++
	b.dirty = true
}
