package kv

import (
	"bytes"
	"iter"

	"github.com/didlight/didlight/host/internal/store"
)

// Cursor walks a bucket's keys in order. Each method returns the key and
// value it lands on, or a nil key when there is none; *bbolt.Cursor has this
// shape. The slices need only stay valid until the next call.
type Cursor interface {
	First() (key, value []byte)
	Last() (key, value []byte)
	Seek(key []byte) (key2, value []byte) // the first key >= key
	Next() (key, value []byte)
	Prev() (key, value []byte)
}

// Source is a bucket as Scan sees it.
type Source interface {
	// Cursor returns a new cursor over the bucket's current contents.
	Cursor() Cursor
	// Version changes whenever the bucket's contents change, which
	// invalidates cursors made before.
	Version() uint64
}

// Scan implements store.Bucket.Scan over src: it positions a cursor at the
// start of r, yields copies while keys carry r.Prefix, and after a
// modification of the bucket resumes next to the last key yielded.
func Scan(src Source, r store.Range) iter.Seq2[[]byte, []byte] { return scan(src, r, Pair) }

// ScanShared implements store.Bucket.ScanShared over src: Scan yielding
// the cursor's own slices.
func ScanShared(src Source, r store.Range) iter.Seq2[[]byte, []byte] {
	return scan(src, r, func(k, v []byte) ([]byte, []byte) { return k, v })
}

// scan is Scan yielding what pair makes of each key and value. It steps
// its cursor to the next pair and prefetches it before it yields one, so
// that the next pair's memory is on its way while the caller handles this
// one: a full scan of a bucket of views waits on memory more than it
// computes. Moving a cursor leaves the slices it gave valid, so what
// [ScanShared] yields stays valid until the iteration moves on; after a
// write the pair read ahead is dropped.
func scan(src Source, r store.Range, pair func(k, v []byte) ([]byte, []byte)) iter.Seq2[[]byte, []byte] {
	return func(yield func(key, value []byte) bool) {
		c, version := src.Cursor(), src.Version()
		var last []byte // the last key yielded; the caller may change its copy
		for k, v := start(c, r); k != nil && bytes.HasPrefix(k, r.Prefix); {
			last = append(last[:0], k...)
			nk, nv := step(c, r.Reverse)
			prefetch(nk)
			prefetch(nv)
			if !yield(pair(k, v)) {
				return
			}
			if src.Version() != version {
				c, version = src.Cursor(), src.Version()
				k, v = resume(c, last, r.Reverse)
				continue
			}
			k, v = nk, nv
		}
	}
}

// start positions c at the first key r visits.
func start(c Cursor, r store.Range) (key, value []byte) {
	if !r.Reverse {
		from := r.Prefix
		if bytes.Compare(r.Start, from) > 0 {
			from = r.Start
		}
		if len(from) == 0 {
			return c.First()
		}
		return c.Seek(from)
	}
	end := prefixEnd(r.Prefix)
	if len(r.Start) > 0 && (end == nil || bytes.Compare(r.Start, end) < 0) {
		return atOrBefore(c, r.Start)
	}
	if end == nil {
		return c.Last()
	}
	return before(c, end)
}

// resume positions c just past last in the direction of the scan.
func resume(c Cursor, last []byte, reverse bool) (key, value []byte) {
	if reverse {
		return before(c, last)
	}
	k, v := c.Seek(last)
	if bytes.Equal(k, last) {
		return c.Next()
	}
	return k, v
}

func step(c Cursor, reverse bool) (key, value []byte) {
	if reverse {
		return c.Prev()
	}
	return c.Next()
}

// before positions c at the last key < x.
func before(c Cursor, x []byte) (key, value []byte) {
	if k, _ := c.Seek(x); k == nil {
		return c.Last()
	}
	return c.Prev()
}

// atOrBefore positions c at the last key <= x.
func atOrBefore(c Cursor, x []byte) (key, value []byte) {
	k, v := c.Seek(x)
	switch {
	case k == nil:
		return c.Last()
	case bytes.Equal(k, x):
		return k, v
	}
	return c.Prev()
}

// prefixEnd returns the least key greater than every key that starts with
// prefix, or nil when there is none (prefix empty or all 0xff).
func prefixEnd(prefix []byte) []byte {
	for i := len(prefix) - 1; i >= 0; i-- {
		if prefix[i] != 0xff {
			end := bytes.Clone(prefix[:i+1])
			end[i]++
			return end
		}
	}
	return nil
}
