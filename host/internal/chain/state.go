package chain

import (
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/ledgerstore"
	"github.com/didlight/didlight/host/internal/store"
)

// snapshot reads the chain's state inside one store transaction: a View
// for readers and admission, or the Update that makes a block, which then
// sees the block's earlier transactions.
type snapshot struct {
	c  *Chain
	tx store.Tx
}

// ledger returns a reader of the ledger in the snapshot's transaction.
func (s snapshot) ledger() ledgerstore.Reader { return ledgerstore.Read(s.tx) }

// dids returns a reader of the DID index in the snapshot's transaction.
func (s snapshot) dids() didindex.Reader { return s.c.index.Read(s.tx) }
