package ledger

import (
	"fmt"

	"github.com/didlight/didlight/core/ela"
)

// BlockReserve is the room a block a node makes keeps under
// [ela.MaxBlockSize] for its header and coinbase.
const BlockReserve = 64 << 10

// Room is how much a block may take in: transactions (the coinbase
// included) and bytes of transactions.
type Room struct{ Txs, Bytes int }

// MaxRoom is the room of a block a node makes: ela's limits, less
// [BlockReserve], so that no node reading the block (a follower) must refuse
// it as too large.
func MaxRoom() Room { return Room{Txs: ela.MaxTxPerBlock, Bytes: ela.MaxBlockSize - BlockReserve} }

// Takes reports whether a block holding txs transactions (the coinbase
// counted) of size bytes has room for one more of n bytes.
func (r Room) Takes(txs, size, n int) bool { return txs < r.Txs && size+n <= r.Bytes }

// CheckNext refuses to make a block after prev when prev carries
// [MaxBlockTime], the last time a block can: block times strictly increase.
func CheckNext(prev *ela.Header) error {
	if prev.Timestamp == MaxBlockTime {
		return fmt.Errorf("block %d is stamped %d, the last time a block can carry", prev.Height, prev.Timestamp)
	}
	return nil
}
