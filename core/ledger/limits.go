package ledger

import (
	"fmt"

	"github.com/didlight/didlight/core/ela"
)

// BlockReserve is the room a block a node makes keeps under
// [ela.MaxBlockSize] for its header and coinbase.
const BlockReserve = 64 << 10

// BlockLimits are the most a block may hold: transactions (the coinbase
// included) and bytes of transactions.
type BlockLimits struct{ Txs, Bytes int }

// MaxBlockLimits are the limits of a block a node makes: ela's, less
// [BlockReserve], so that no node reading the block (a follower) must refuse
// it as too large.
func MaxBlockLimits() BlockLimits {
	return BlockLimits{Txs: ela.MaxTxPerBlock, Bytes: ela.MaxBlockSize - BlockReserve}
}

// Fits reports whether one more transaction of n bytes fits in a block
// that holds txs transactions (the coinbase counted) of size bytes.
func (l BlockLimits) Fits(txs, size, n int) bool { return txs < l.Txs && size+n <= l.Bytes }

// CheckNext refuses to make a block after prev when prev carries
// [MaxBlockTime], the last time a block can: block times strictly increase.
func CheckNext(prev *ela.Header) error {
	if prev.Timestamp == MaxBlockTime {
		return fmt.Errorf("block %d is stamped %d, the last time a block can carry", prev.Height, prev.Timestamp)
	}
	return nil
}
