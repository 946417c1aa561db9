package didindex

import (
	"fmt"
	"maps"
	"slices"

	"github.com/didlight/didlight/core/find"
	"github.com/didlight/didlight/host/internal/bitmap"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// viewIndex is the index kept over the query views of the DIDs that are
// not deactivated (BucketFields): the paths clients filter on, and every
// member of a credential subject by name.
var viewIndex = &find.Index{
	Paths:   []string{"id", "controller", "service.type", "credential.type", "credential.issuer"},
	Members: []string{"credential.subject"},
}

// Postings returns the postings the index keeps of a query view
// (resolve.View) in JSON text: the paths clients filter on, and every
// member of a credential subject by name.
func Postings(view []byte) []find.Posting { return viewIndex.Postings(view) }

// postFields adds (add) or deletes postings, those of the query view of
// the DID with creation number seq (viewIndex.Postings), and counts them.
// The containers it changes, and their counts, stay in the batch until
// flushFields, so that a block writes each container it touches once.
func (w *Batch) postFields(postings []find.Posting, seq uint64, add bool) error {
	for _, p := range postings {
		prefix, ok := record.AppendFieldPrefix(w.key[:0], p.Path, p.Value)
		if !ok {
			return fmt.Errorf("chain: posting %s = %v (%T) has no key", p.Path, p.Value, p.Value)
		}
		w.key = record.AppendFieldKey(prefix, seq>>bitmap.ChunkBits)
		f, err := w.container(w.key)
		if err != nil {
			return err
		}
		switch {
		case add && !f.Add(uint16(seq)):
			return fmt.Errorf("chain: DID number %d is already posted under %s = %v: %w", seq, p.Path, p.Value, store.ErrCorrupt)
		case !add && !f.Remove(uint16(seq)):
			return fmt.Errorf("chain: DID number %d is not posted under %s = %v: %w", seq, p.Path, p.Value, store.ErrCorrupt)
		}
		if add {
			f.added++
		} else {
			f.added--
		}
	}
	return nil
}

// fieldChange is a container of postings of the fields as a batch changes
// it, and how many postings the batch added to it (negative: deleted).
type fieldChange struct {
	*bitmap.Container
	added int64
}

// container returns the container of postings of the fields under key as
// the batch changes it, read from the store at its first use. key may be
// changed once it returns.
func (w *Batch) container(key []byte) (*fieldChange, error) {
	if f, ok := w.fields[string(key)]; ok {
		return f, nil
	}
	c, err := readContainer(bucket(w.tx, BucketFields), key)
	if err != nil {
		return nil, err
	}
	f := &fieldChange{Container: c}
	w.fields[string(key)] = f
	return f, nil
}

// readContainer reads the container of postings under key, empty when
// absent.
func readContainer(fields store.Bucket, key []byte) (*bitmap.Container, error) {
	v, ok := fields.Get(key)
	if !ok {
		return &bitmap.Container{}, nil
	}
	return decodeContainer(key, v)
}

func decodeContainer(key, v []byte) (*bitmap.Container, error) {
	c, err := bitmap.Decode(v)
	if err != nil {
		return nil, fmt.Errorf("chain: the postings %x: %v: %w", key, err, store.ErrCorrupt)
	}
	return c, nil
}

// flushFields writes the containers the batch changed, in the order of
// their keys as flushCounts does (an empty one is deleted), and counts
// their changes under their prefixes.
func (w *Batch) flushFields() error {
	fields := bucket(w.tx, BucketFields)
	for _, key := range slices.Sorted(maps.Keys(w.fields)) {
		c := w.fields[key]
		w.counts[string(record.CountKey(BucketFields, postingPrefixOf(record.Key(key))))] += c.added
		var err error
		if c.Len() == 0 {
			err = fields.Delete(record.Key(key))
		} else {
			err = fields.Put(record.Key(key), c.Encode())
		}
		if err != nil {
			return err
		}
	}
	clear(w.fields)
	return nil
}

// Flush writes the batch's changes to the postings of the fields and to
// the counts.
func (w *Batch) Flush() error {
	if err := w.flushFields(); err != nil {
		return err
	}
	return w.flushCounts()
}

// count adds one to (add) or takes one from the number of postings under
// prefix in bucket name. The change is kept in the batch until
// flushCounts, so that a block touching a count many times writes it once.
func (w *Batch) count(name string, prefix []byte, add bool) {
	d := int64(-1)
	if add {
		d = 1
	}
	w.counts[string(record.CountKey(name, prefix))] += d
}

// flushCounts writes the batch's changes to the counts, in the order of
// their keys: the store (bbolt) splits its nodes only as a transaction
// commits, so that keys put in no order into a large bucket in one
// transaction (an upgrade's) cost a move of half a growing node each.
func (w *Batch) flushCounts() error {
	counts := bucket(w.tx, BucketCounts)
	for _, key := range slices.Sorted(maps.Keys(w.counts)) {
		d := w.counts[key]
		if d == 0 {
			continue
		}
		n, err := readCount(counts, record.Key(key))
		if err != nil {
			return err
		}
		if int64(n)+d < 0 {
			return fmt.Errorf("chain: the count %x would be %d: %w", key, int64(n)+d, store.ErrCorrupt)
		}
		n = uint64(int64(n) + d)
		if n == 0 {
			err = counts.Delete(record.Key(key))
		} else {
			err = counts.Put(record.Key(key), record.U64(n))
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
func (s Reader) postingCount(name string, prefix []byte) (int, error) {
	n, err := readCount(bucket(s.tx, BucketCounts), record.CountKey(name, prefix))
	return int(n), err
}
