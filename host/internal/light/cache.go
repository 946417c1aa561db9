package light

import (
	"container/list"
	"sync"
)

// entryOverhead is what an entry costs beyond the bytes it holds: the
// map's and list's nodes, the key, and the verified result's own fields.
const entryOverhead = 512

// cache keeps verified answers, each for the head it was verified at, the
// least recently used dropped first once their sizes pass max.
type cache struct {
	mu   sync.Mutex
	max  int64
	size int64
	lru  list.List // of *entry, the most recently used at the front
	m    map[key]*list.Element
}

// entry is one answer kept; it does not change once kept (a newer one
// replaces it).
type entry struct {
	key  key
	head uint64 // the head's number it was verified at
	raw  []byte // the upstream's answer, to tell it unchanged at a later head
	val  any    // *DIDAnswer, *CredentialAnswer or *ListAnswer
	size int64
}

func newCache(max int64) *cache {
	return &cache{max: max, m: map[key]*list.Element{}}
}

// get returns the entry kept for k, and whether it was verified at head
// (else it is of an earlier head: its answer may be reused if the upstream
// answers the same bytes again).
func (c *cache) get(k key, head uint64) (*entry, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	el, ok := c.m[k]
	if !ok {
		return nil, false
	}
	c.lru.MoveToFront(el)
	e := el.Value.(*entry)
	return e, e.head == head
}

// put keeps e in place of what was kept for its key, and drops the least
// recently used entries beyond the bound. An entry larger than the whole
// bound is not kept.
func (c *cache) put(e *entry) {
	e.size += entryOverhead
	c.mu.Lock()
	defer c.mu.Unlock()
	if el, ok := c.m[e.key]; ok {
		c.size -= el.Value.(*entry).size
		c.lru.Remove(el)
		delete(c.m, e.key)
	}
	if e.size > c.max {
		return
	}
	c.m[e.key] = c.lru.PushFront(e)
	c.size += e.size
	for c.size > c.max {
		last := c.lru.Back()
		old := last.Value.(*entry)
		c.lru.Remove(last)
		delete(c.m, old.key)
		c.size -= old.size
	}
}

// stats returns the number of entries kept, their size and the bound.
func (c *cache) stats() (n int, size, max int64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return len(c.m), c.size, c.max
}
