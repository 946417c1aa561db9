package chain

import (
	"sync"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
)

// docCacheSize bounds the parsed documents the chain keeps.
const docCacheSize = 1 << 14

// docCache keeps parsed documents by the transaction that published them:
// a document in a block never changes, so an entry is never stale. When it
// is full, an arbitrary half is dropped.
type docCache struct {
	mu sync.Mutex
	m  map[ela.Hash]*did.Document
}

func (c *docCache) get(txid ela.Hash) (*did.Document, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	doc, ok := c.m[txid]
	return doc, ok
}

func (c *docCache) put(txid ela.Hash, doc *did.Document) {
	c.mu.Lock()
	defer c.mu.Unlock()
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

func (c *docCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.m = nil
}
