package answers

import (
	"slices"
	"sync"
	"sync/atomic"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/w3c"
)

// Cache keeps what reads built from the store: parsed documents, resolve
// answers, query pages and W3C answers. Its zero value is empty and ready.
// It is safe for concurrent use.
//
// Lock order: mu is a leaf, held around the maps only; a caller may hold
// any lock of its own while calling a Cache method.
type Cache struct {
	mu      sync.Mutex
	docs    docCache
	resolve kept[ResolveKey, []byte]
	pages   kept[PageKey, []byte]
	w3c     kept[W3CKey, w3c.Response]

	found, missed atomic.Uint64 // answers asked for and found kept, or not: Counts
}

// Counts are how many answers (resolve answers, query pages, W3C answers)
// reads asked a Cache for: Kept were found kept for the tip, Built were
// not, and were built.
type Counts struct {
	Kept, Built uint64
}

// Counts returns how many answers were found kept and how many not, since
// the Cache was made: for a node's metrics.
func (c *Cache) Counts() Counts { return Counts{Kept: c.found.Load(), Built: c.missed.Load()} }

// Document returns the document published by transaction txid, if kept.
func (c *Cache) Document(txid ela.Hash) (*did.Document, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	doc, ok := c.docs.m[txid]
	return doc, ok
}

// KeepDocument keeps doc, published by transaction txid.
func (c *Cache) KeepDocument(txid ela.Hash, doc *did.Document) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.docs.put(txid, doc)
}

// DropDocuments empties the documents kept, after a reset or revert.
func (c *Cache) DropDocuments() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.docs.m = nil
}

// Forget drops every answer kept, of every kind, so that the next read
// builds its answer anew; the documents stay.
func (c *Cache) Forget() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.resolve, c.pages, c.w3c = kept[ResolveKey, []byte]{}, kept[PageKey, []byte]{}, kept[W3CKey, w3c.Response]{}
}

// Resolved returns the resolve answer to k kept for tip.
func (c *Cache) Resolved(tip ela.Hash, k ResolveKey) ([]byte, bool) {
	return get(c, &c.resolve, tip, k)
}

// KeepResolved keeps out, the resolve answer to k built at tip. The caller
// must not change out afterwards: it is handed to every reader of k.
func (c *Cache) KeepResolved(tip ela.Hash, k ResolveKey, out []byte) {
	put(c, &c.resolve, tip, k, slices.Clip(out), len(out))
}

// Page returns the query page answering k kept for tip.
func (c *Cache) Page(tip ela.Hash, k PageKey) ([]byte, bool) {
	return get(c, &c.pages, tip, k)
}

// KeepPage keeps out, the query page answering k built at tip, as
// KeepResolved keeps a resolve answer.
func (c *Cache) KeepPage(tip ela.Hash, k PageKey, out []byte) {
	put(c, &c.pages, tip, k, slices.Clip(out), len(out))
}

// W3C returns the W3C answer to k kept for tip.
func (c *Cache) W3C(tip ela.Hash, k W3CKey) (w3c.Response, bool) {
	return get(c, &c.w3c, tip, k)
}

// KeepW3C keeps resp, the W3C answer to k built at tip, whose Body the
// caller has clipped (slices.Clip) and does not change afterwards.
func (c *Cache) KeepW3C(tip ela.Hash, k W3CKey, resp w3c.Response) {
	put(c, &c.w3c, tip, k, resp, len(resp.Body)+len(resp.ContentType)+len(resp.Location))
}

// get returns the answer to k that a, one of c's kinds of answers, keeps
// for tip.
func get[K keyer, V any](c *Cache, a *kept[K, V], tip ela.Hash, k K) (V, bool) {
	c.mu.Lock()
	v, ok := a.get(tip, k)
	c.mu.Unlock()
	if ok {
		c.found.Add(1)
	} else {
		c.missed.Add(1)
	}
	return v, ok
}

// put keeps v, the answer to k built at tip, n bytes long, in a, one of
// c's kinds of answers (see kept.put).
func put[K keyer, V any](c *Cache, a *kept[K, V], tip ela.Hash, k K, v V, n int) {
	c.mu.Lock()
	defer c.mu.Unlock()
	a.put(tip, k, v, n)
}
