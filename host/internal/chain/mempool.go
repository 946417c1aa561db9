package chain

import (
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/mempool"
)

// The mempool's limits when Config leaves them 0: how many transactions it
// holds, and how many bytes they may take together.
const (
	DefaultMempoolSize  = 100_000
	DefaultMempoolBytes = 256 << 20
)

// entry is a transaction the chain has accepted into its mempool, with
// what admission learned about it so that making its block redoes nothing
// costly.
type entry struct {
	tx   *ela.Tx
	raw  []byte
	txid ela.Hash
	fee  ela.Fixed64
	sigs *keys.Remembering // the signatures that verified, to check the operation again for free

	id *didindex.Operation // the identity operation it carries, or nil

	mempool.Slot // what the pool keeps with it
}

// PoolTx is e as the pool's rules see it.
func (e *entry) PoolTx() ledger.PoolTx {
	t := ledger.PoolTx{Tx: e.tx, Txid: e.txid, Size: len(e.raw)}
	if e.id != nil {
		t.Op = e.id.Op
	}
	return t
}
