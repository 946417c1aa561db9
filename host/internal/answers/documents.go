package answers

import (
	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
)

// docCacheSize bounds the parsed documents a Cache keeps.
const docCacheSize = 1 << 14

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
