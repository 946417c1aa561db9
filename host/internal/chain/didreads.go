package chain

import (
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/didreads"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// The chain answers the DID reads (ResolveDID, ResolveDIDSDK,
// ResolveCredential, ListCredentials, ResolveW3C, Query, Explain) through
// the didreads.Reads it embeds, over its store's DID index and tip.

// ErrQuery is wrapped by the error of a Query whose parameters are not
// valid.
var ErrQuery = didindex.ErrQuery

// Query asks for the latest documents of DIDs (see didindex.Query).
type Query = didindex.Query

// readSource is the chain as a didreads.Source.
type readSource struct{ c *Chain }

func (s readSource) Tip() (uint32, ela.Hash, int64) { return s.c.Tip() }

func (s readSource) View(fn func(store.Tx) error) error {
	return s.c.view(func(sn snapshot) error { return fn(sn.tx) })
}

func (readSource) ReadTip(tx store.Tx) (record.Tip, error) { return readTip(tx) }

// newReads returns the DID reads of c.
func newReads(c *Chain) *didreads.Reads { return didreads.New(readSource{c}, c.index, &c.cache) }
