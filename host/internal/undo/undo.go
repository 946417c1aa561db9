// Package undo keeps an undo log in a store: for the writes a transaction
// makes to the buckets a Log covers, what each key held before (a value,
// or nothing) and each bucket's sequence, so that everything written since
// a mark can be undone, newest first, at the cost of what was written.
//
// A Log's entries live in a bucket of the same store and are written in
// the transaction whose writes they undo, so that the two are committed
// together or not at all.
package undo

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"fmt"
	"maps"
	"slices"
	"strings"

	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Log is an undo log: the bucket its entries are kept in (Name, keyed by
// a sequence number, big-endian) and the buckets whose writes it logs.
type Log struct {
	Name    string                   // the bucket of entries; not covered itself
	Covered func(bucket string) bool // whether writes to bucket are logged
}

// Tx returns tx with the writes to the covered buckets logged: before a
// transaction first changes a key (or a sequence), the value it had goes
// into the log. Reads and the other buckets are tx's own. Within one
// transaction every call with the same name returns the same Bucket, as
// store.Tx promises.
func (l Log) Tx(tx store.Tx) store.Tx {
	if t, ok := tx.(*loggedTx); ok {
		return t
	}
	return &loggedTx{Tx: tx, log: l}
}

// Mark returns the log's position in tx: the entries written from now on
// come after it.
func (l Log) Mark(tx store.Tx) (uint64, error) {
	b, err := raw(tx).Bucket(l.Name)
	if err != nil {
		return 0, err
	}
	return b.Sequence(), nil
}

// Undo undoes, within tx, every write logged after mark, newest first,
// and drops those entries. It returns how many it undid. The log's
// sequence keeps counting from where it was, so that a mark is never
// given twice. Writes to tx after Undo are logged again as changes of
// what Undo left (if tx came from Tx).
func (l Log) Undo(tx store.Tx, mark uint64) (int, error) {
	entries, err := raw(tx).Bucket(l.Name)
	if err != nil {
		return 0, err
	}
	// Read them all first, then apply and delete them: a scan resumed
	// after each delete costs more than the delete.
	var keys [][]byte
	var undos []*record.Undo
	for k, v := range entries.Scan(store.Range{Reverse: true}) { // copies: the entries outlive the scan
		if len(k) != 8 {
			return 0, fmt.Errorf("undo: entry key %x: %w", k, store.ErrCorrupt)
		}
		if binary.BigEndian.Uint64(k) <= mark {
			break
		}
		u, err := record.ParseUndo(v)
		if err != nil {
			return 0, err
		}
		keys, undos = append(keys, k), append(undos, u)
	}
	for _, u := range oldestFirst(undos) {
		if err := apply(raw(tx), u); err != nil {
			return 0, fmt.Errorf("undo: %s: %w", u, err)
		}
	}
	for _, k := range slices.Backward(keys) { // oldest first: each delete at the end of what is left
		if err := entries.Delete(k); err != nil {
			return len(undos), err
		}
	}
	if t, ok := tx.(*loggedTx); ok {
		t.seen = nil
	}
	return len(undos), nil
}

// oldestFirst returns, of undos (newest first), the oldest entry of each
// key and of each sequence, which is what the key or the sequence held at
// the mark, sorted by bucket and key: applying only those gives back the
// same, and in key order each write lands next to the last.
func oldestFirst(undos []*record.Undo) []*record.Undo {
	oldest := make(map[string]*record.Undo, len(undos))
	for _, u := range undos {
		oldest[seenKey(u.Bucket, u.Key)] = u // u.Key is nil for a sequence
	}
	out := slices.Collect(maps.Values(oldest))
	slices.SortFunc(out, func(a, b *record.Undo) int {
		return cmp.Or(strings.Compare(a.Bucket, b.Bucket), bytes.Compare(a.Key, b.Key)) // a sequence's nil key first
	})
	return out
}

// Append writes u as the log's next entry, within tx: for building a log
// from something else than writes (such as the difference of two copies
// of the buckets).
func (l Log) Append(tx store.Tx, u *record.Undo) error {
	entries, err := raw(tx).Bucket(l.Name)
	if err != nil {
		return err
	}
	seq, err := entries.NextSequence()
	if err != nil {
		return err
	}
	return entries.Put(binary.BigEndian.AppendUint64(nil, seq), u.Bytes())
}

// Size returns the entries after mark and their bytes (keys and values).
func (l Log) Size(tx store.Tx, mark uint64) (entries, bytes int, err error) {
	b, err := raw(tx).Bucket(l.Name)
	if err != nil {
		return 0, 0, err
	}
	for k, v := range b.ScanShared(store.Range{Start: binary.BigEndian.AppendUint64(nil, mark+1)}) {
		entries++
		bytes += len(k) + len(v)
	}
	return entries, bytes, nil
}

// apply gives back, within tx, what u says a bucket held.
func apply(tx store.Tx, u *record.Undo) error {
	b, err := tx.Bucket(u.Bucket)
	if err != nil {
		return err
	}
	switch u.Kind {
	case record.UndoSequence:
		return b.SetSequence(u.Seq)
	case record.UndoValue:
		return b.Put(u.Key, u.Value)
	}
	return b.Delete(u.Key)
}

// raw returns the transaction under tx, if Tx made it.
func raw(tx store.Tx) store.Tx {
	if t, ok := tx.(*loggedTx); ok {
		return t.Tx
	}
	return tx
}

// Drop deletes, within tx, the entries up to and including mark: the
// writes before it can no longer be undone, and a mark at or before it
// must not be given to Undo again. It returns how many it dropped.
func (l Log) Drop(tx store.Tx, mark uint64) (int, error) {
	entries, err := raw(tx).Bucket(l.Name)
	if err != nil {
		return 0, err
	}
	var keys [][]byte
	for k := range entries.Scan(store.Range{}) { // copies: deleted after the scan
		if len(k) != 8 {
			return 0, fmt.Errorf("undo: entry key %x: %w", k, store.ErrCorrupt)
		}
		if binary.BigEndian.Uint64(k) > mark {
			break
		}
		keys = append(keys, k)
	}
	for _, k := range keys {
		if err := entries.Delete(k); err != nil {
			return 0, err
		}
	}
	return len(keys), nil
}
