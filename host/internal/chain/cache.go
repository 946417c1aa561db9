package chain

import (
	"sync"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/w3c"
)

// docCacheSize bounds the parsed documents the chain keeps.
const docCacheSize = 1 << 14

// readCache owns what reads keep of what they built from the store:
// parsed documents, resolve answers, query pages and W3C answers. mu
// guards them; it is a leaf, held around the maps only.
type readCache struct {
	mu      sync.Mutex
	docs    docCache
	answers answers[answerKey, []byte]
	pages   answers[queryKey, []byte]
	w3c     answers[w3cKey, w3c.Response]
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

// keptAnswer returns the answer to k that a, one of r's kinds of answers,
// keeps for tip.
func keptAnswer[K answerKeyer, V any](r *readCache, a *answers[K, V], tip ela.Hash, k K) (V, bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return a.get(tip, k)
}

// keepAnswer keeps v, the answer to k built at tip, n bytes long, in a,
// one of r's kinds of answers (see answers.put).
func keepAnswer[K answerKeyer, V any](r *readCache, a *answers[K, V], tip ela.Hash, k K, v V, n int) {
	r.mu.Lock()
	defer r.mu.Unlock()
	a.put(tip, k, v, n)
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
