package chain

import (
	"errors"
	"sync/atomic"

	"github.com/didlight/didlight/core/ela"
)

// Counts are what a chain has done since it was opened, for a node's
// metrics: kept in memory only, they start at zero with the process.
type Counts struct {
	Blocks     uint64 // blocks made (Run, Mine, MineTxs, the devnet controls) or applied (Apply)
	Operations uint64 // DID and credential operations those blocks carry
	// Refused counts the submissions of an identity operation the chain
	// answered with a *RejectError: SubmitTx of a transaction whose type
	// is ela.TxDIDOperation, whether it decodes or not, and SubmitRequest,
	// whose answer comes once a block holds the request, so that one its
	// block found no longer valid counts too. A submission that failed
	// otherwise (the store, a reset, a closed chain, the caller's context)
	// is not a refusal.
	Refused uint64
}

// counters are a chain's Counts, each an atomic of its own, so that
// counting takes no lock.
type counters struct {
	blocks, operations, refused atomic.Uint64
}

// Counts returns what the chain has done since it was opened.
func (c *Chain) Counts() Counts {
	return Counts{Blocks: c.counts.blocks.Load(), Operations: c.counts.operations.Load(), Refused: c.counts.refused.Load()}
}

// block counts b, stored.
func (k *counters) block(b *ela.Block) {
	ops := 0
	for _, t := range b.Transactions {
		if t.Type() == ela.TxDIDOperation {
			ops++
		}
	}
	k.blocks.Add(1)
	k.operations.Add(uint64(ops))
}

// answered counts err, the answer to the submission of an identity
// operation, if it is a refusal.
func (k *counters) answered(err error) {
	if _, ok := errors.AsType[*RejectError](err); ok {
		k.refused.Add(1)
	}
}
