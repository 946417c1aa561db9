package chain

import (
	"sync"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
)

// docCacheSize bounds the parsed documents the chain keeps.
const docCacheSize = 1 << 14

// readCache owns what reads keep of what they built from the store:
// parsed documents, resolve answers and query pages. mu guards them; it is
// a leaf, held around the maps only.
type readCache struct {
	mu      sync.Mutex
	docs    docCache
	answers answers[answerKey]
	pages   answers[queryKey]
}

// document returns the document published by transaction txid, if kept.
func (r *readCache) document(txid ela.Hash) (*did.Document, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	doc, ok := r.docs.m[txid]
	return doc, ok
}

// keepDocument keeps doc, published by transaction txid.
func (r *readCache) keepDocument(txid ela.Hash, doc *did.Document) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.docs.put(txid, doc)
}

// keptAnswer returns the answer to k that a, r's resolve answers or query
// pages, keeps for tip.
func keptAnswer[K answerKeyer](r *readCache, a *answers[K], tip ela.Hash, k K) ([]byte, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return a.get(tip, k)
}

// keepAnswer keeps b, the answer to k built at tip, in a, r's resolve
// answers or query pages (see answers.put).
func keepAnswer[K answerKeyer](r *readCache, a *answers[K], tip ela.Hash, k K, b []byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a.put(tip, k, b)
}

// dropDocuments empties the documents kept, after a reset or revert.
func (r *readCache) dropDocuments() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.docs.m = nil
}

// docCache keeps parsed documents by the transaction that published them:
// a document in a block never changes, so an entry is never stale. When it
// is full, an arbitrary half is dropped.
type docCache struct {
	m map[ela.Hash]*did.Document
}

func (c *docCache) put(txid ela.Hash, doc *did.Document) {
	if c.m == nil {
		c.m = make(map[ela.Hash]*did.Document)
	}
	if len(c.m) >= docCacheSize {
		n := 0
		for k := range c.m {
			if n++; n > docCacheSize/2 {
				break
			}
			delete(c.m, k)
		}
	}
	c.m[txid] = doc
}
