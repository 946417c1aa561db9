package bolt

import (
	"bytes"

	"go.etcd.io/bbolt"
)

// cursor is a bbolt cursor that skips the empty pages a transaction's
// deletes leave in a bucket until its commit rebalances them, in both
// directions: bbolt's own Next, First and Seek skip them, but its Last
// never returns on a bucket whose pages are all empty, and its Prev,
// landing on one, returns no key as if the bucket began there.
type cursor struct {
	b   *bbolt.Bucket
	c   *bbolt.Cursor
	key []byte // where c is, as the last move returned it
}

func newCursor(b *bbolt.Bucket) *cursor { return &cursor{b: b, c: b.Cursor()} }

func (c *cursor) First() ([]byte, []byte)        { return c.at(c.c.First()) }
func (c *cursor) Next() ([]byte, []byte)         { return c.at(c.c.Next()) }
func (c *cursor) Seek(k []byte) ([]byte, []byte) { return c.at(c.c.Seek(k)) }

func (c *cursor) Last() ([]byte, []byte) {
	if !c.before(nil) {
		return c.at(nil, nil)
	}
	return c.at(c.c.Last())
}

func (c *cursor) Prev() ([]byte, []byte) {
	from := c.key
	k, v := c.c.Prev()
	for k == nil && from != nil && c.before(from) {
		k, v = c.c.Prev() // off an empty page, onto the one before
	}
	return c.at(k, v)
}

// before reports whether the bucket has a key before k (any key, for nil),
// looking with a cursor of its own.
func (c *cursor) before(k []byte) bool {
	first, _ := c.b.Cursor().First()
	return first != nil && (k == nil || bytes.Compare(first, k) < 0)
}

// at records k as where the cursor is, and returns k and v.
func (c *cursor) at(k, v []byte) ([]byte, []byte) {
	c.key = k
	return k, v
}
