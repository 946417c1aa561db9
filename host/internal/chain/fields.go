package chain

import (
	"encoding/binary"
	"fmt"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/chain/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// viewIndex is the index kept over the query views of the DIDs that are
// not deactivated (bucketFields): the paths clients filter on, and every
// member of a credential subject by name.
var viewIndex = &find.Index{
	Paths:   []string{"id", "controller", "service.type", "credential.type", "credential.issuer"},
	Members: []string{"credential.subject"},
}

// postFields adds (add) or deletes the postings of the query view of the
// DID with creation number seq, and counts them.
func (w *batch) postFields(view []byte, seq uint64, add bool) error {
	b := bucket(w.tx, bucketFields)
	for _, p := range viewIndex.Postings(view) {
		prefix, ok := record.FieldPrefix(p.Path, p.Value)
		if !ok {
			return fmt.Errorf("chain: posting %s = %v (%T) has no key", p.Path, p.Value, p.Value)
		}
		k := binary.BigEndian.AppendUint64(prefix, seq)
		var err error
		if add {
			err = b.Put(k, nil)
		} else {
			err = b.Delete(k)
		}
		if err != nil {
			return err
		}
		w.count(bucketFields, prefix, add)
	}
	return nil
}

// count adds one to (add) or takes one from the number of postings under
// prefix in bucket name. The change is kept in the batch until
// flushCounts, so that a block touching a count many times writes it once.
func (w *batch) count(name string, prefix []byte, add bool) {
	d := int64(-1)
	if add {
		d = 1
	}
	w.counts[string(record.CountKey(name, prefix))] += d
}

// flushCounts writes the batch's changes to the counts.
func (w *batch) flushCounts() error {
	counts := bucket(w.tx, bucketCounts)
	for key, d := range w.counts {
		if d == 0 {
			continue
		}
		n, err := readCount(counts, []byte(key))
		if err != nil {
			return err
		}
		if int64(n)+d < 0 {
			return fmt.Errorf("chain: the count %x would be %d: %w", key, int64(n)+d, store.ErrCorrupt)
		}
		n = uint64(int64(n) + d)
		if n == 0 {
			err = counts.Delete([]byte(key))
		} else {
			err = counts.Put([]byte(key), record.U64(n))
		}
		if err != nil {
			return err
		}
	}
	clear(w.counts)
	return nil
}

// readCount reads a count of postings, 0 when absent.
func readCount(counts store.Bucket, key []byte) (uint64, error) {
	v, ok := counts.Get(key)
	if !ok {
		return 0, nil
	}
	n, err := record.ParseU64(v)
	if err != nil {
		return 0, fmt.Errorf("chain: count %x: %w", key, err)
	}
	return n, nil
}

// postingCount returns the number of postings under prefix in bucket
// name.
func (s snapshot) postingCount(name string, prefix []byte) (int, error) {
	n, err := readCount(bucket(s.tx, bucketCounts), record.CountKey(name, prefix))
	return int(n), err
}
