package chain

import (
	"context"

	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/store"
)

// The hook of a fork of an EID chain (host/internal/eidfork): the DIDs a
// fork takes from its upstream when first asked are grafted into the
// chain's DID index, below every block of its own, and the chain then
// validates and mines operations on them as on any DID.

// ViewIndex runs fn in a read transaction of the chain's store, with the
// DID index as it stands.
func (c *Chain) ViewIndex(fn func(tx store.Tx, r didindex.Reader) error) error {
	return c.view(func(sn snapshot) error { return fn(sn.tx, c.index.Read(sn.tx)) })
}

// Graft runs fn in one store update with the block producer's lock held,
// so that no block is written or applied meanwhile, then forgets the
// answers reads kept, which may have said that what fn wrote did not
// exist. A follower's chain takes it too: a fixture's DIDs are grafted
// before its blocks are applied.
func (c *Chain) Graft(ctx context.Context, fn func(tx store.Tx, ix *didindex.Index) error) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mining.Lock()
	defer c.mining.Unlock()
	if c.isClosed() {
		return errClosed
	}
	defer c.cache.Forget()
	return c.update(func(tx store.Tx) error { return fn(tx, c.index) })
}
