package undo

import (
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// loggedTx is a transaction whose writes to the covered buckets are
// logged (Log.Tx).
type loggedTx struct {
	store.Tx
	log     Log
	buckets map[string]*loggedBucket
	seen    map[string]bool // seenKey of each key and sequence logged in this transaction
}

func (t *loggedTx) Bucket(name string) (store.Bucket, error) {
	b, err := t.Tx.Bucket(name)
	if err != nil || !t.log.Covered(name) {
		return b, err
	}
	if lb, ok := t.buckets[name]; ok {
		return lb, nil
	}
	if t.buckets == nil {
		t.buckets = make(map[string]*loggedBucket)
	}
	lb := &loggedBucket{Bucket: b, tx: t, name: name}
	t.buckets[name] = lb
	return lb, nil
}

// DeleteBucket logs every key of a covered bucket, and its sequence,
// before it deletes it.
func (t *loggedTx) DeleteBucket(name string) error {
	if !t.log.Covered(name) {
		return t.Tx.DeleteBucket(name)
	}
	b, err := t.Bucket(name)
	if err != nil {
		return err
	}
	lb := b.(*loggedBucket)
	for k, v := range lb.Bucket.Scan(store.Range{}) {
		if err := lb.note(k, v, true); err != nil {
			return err
		}
	}
	if err := lb.noteSequence(); err != nil {
		return err
	}
	return t.Tx.DeleteBucket(name)
}

// seenKey names a key of a bucket, or (key nil) its sequence, in seen.
func seenKey(bucket string, key []byte) string {
	if key == nil {
		return "s" + bucket
	}
	return "k" + string([]byte{byte(len(bucket))}) + bucket + string(key)
}

// loggedBucket is a covered bucket of a loggedTx: each write logs what it
// replaces, once a transaction.
type loggedBucket struct {
	store.Bucket
	tx   *loggedTx
	name string
}

func (b *loggedBucket) Put(key, value []byte) error {
	if err := b.noteKey(key); err != nil {
		return err
	}
	return b.Bucket.Put(key, value)
}

// Delete logs nothing for a key that is absent: deleting it changes
// nothing.
func (b *loggedBucket) Delete(key []byte) error {
	if !b.tx.seen[seenKey(b.name, key)] {
		if v, ok := b.Bucket.Get(key); ok {
			if err := b.note(key, v, true); err != nil {
				return err
			}
		}
	}
	return b.Bucket.Delete(key)
}

func (b *loggedBucket) NextSequence() (uint64, error) {
	if err := b.noteSequence(); err != nil {
		return 0, err
	}
	return b.Bucket.NextSequence()
}

func (b *loggedBucket) SetSequence(n uint64) error {
	if err := b.noteSequence(); err != nil {
		return err
	}
	return b.Bucket.SetSequence(n)
}

// noteKey logs what key holds, unless this transaction logged it already.
func (b *loggedBucket) noteKey(key []byte) error {
	if b.tx.seen[seenKey(b.name, key)] {
		return nil
	}
	v, ok := b.Bucket.Get(key)
	return b.note(key, v, ok)
}

// note logs that key held v (ok) or nothing, unless this transaction
// logged it already.
func (b *loggedBucket) note(key, v []byte, ok bool) error {
	k := seenKey(b.name, key)
	if b.tx.seen[k] {
		return nil
	}
	u := &record.Undo{Kind: record.UndoAbsent, Bucket: b.name, Key: key}
	if ok {
		u.Kind, u.Value = record.UndoValue, v
	}
	return b.tx.remember(k, u)
}

// noteSequence logs the bucket's sequence, unless this transaction logged
// it already.
func (b *loggedBucket) noteSequence() error {
	k := seenKey(b.name, nil)
	if b.tx.seen[k] {
		return nil
	}
	return b.tx.remember(k, &record.Undo{Kind: record.UndoSequence, Bucket: b.name, Seq: b.Bucket.Sequence()})
}

// remember appends u to the log, and notes k as logged.
func (t *loggedTx) remember(k string, u *record.Undo) error {
	if err := t.log.Append(t.Tx, u); err != nil {
		return err
	}
	if t.seen == nil {
		t.seen = make(map[string]bool)
	}
	t.seen[k] = true
	return nil
}
