package api

import (
	"sync"

	"didlight/core/ela"
)

// resultCache keeps the resolve results of the chain's current tip. A
// result is a function of the chain's state, which changes only with a new
// block (a new tip hash; a devnet clock change mines one too) or a reset
// (which clears the cache), so a DID resolved again and again is built once
// per block. Looking the tip up before the chain is read keeps every answer
// at least as new as the block the caller last saw: the chain moves its tip
// only after the block is stored, so an entry is never filed under a tip
// newer than its state.
type resultCache struct {
	mu      sync.RWMutex
	tip     ela.Hash
	results map[resultKey][]byte
}

// resultKey names a result: the DID as asked (the result echoes it), all,
// and the SDKs' dialect or the interface's.
type resultKey struct {
	did string
	all bool
	sdk bool
}

// Bounds of the cache: results of at most maxCachedResults DIDs, each at
// most maxCachedResult bytes (a long history with all is built every time).
const (
	maxCachedResults = 4096
	maxCachedResult  = 64 << 10
)

// get returns the result cached for k at tip.
func (c *resultCache) get(tip ela.Hash, k resultKey) ([]byte, bool) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	if c.tip != tip {
		return nil, false
	}
	b, ok := c.results[k]
	return b, ok
}

// put caches result for k at tip, dropping the results of another tip, or
// all of them when the cache is full.
func (c *resultCache) put(tip ela.Hash, k resultKey, result []byte) {
	if len(result) > maxCachedResult {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.tip != tip || len(c.results) >= maxCachedResults {
		c.tip, c.results = tip, make(map[resultKey][]byte)
	}
	c.results[k] = result
}

// clear drops every result: the chain was reset to a tip it had before.
func (c *resultCache) clear() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.tip, c.results = ela.Hash{}, nil
}
