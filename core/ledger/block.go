package ledger

import (
	"fmt"

	"github.com/didlight/didlight/core/ela"
)

// NewBlock returns the block after prev holding txs (its coinbase first),
// stamped time. Its AuxPow is the all-zero form of the identity chain's
// genesis, as a chain that is not merge-mined carries.
func (p *Params) NewBlock(prev *ela.Header, time uint32, txs []*ela.Tx) *ela.Block {
	return p.NewBlockOf(prev, time, txs, txids(txs))
}

// NewBlockOf is NewBlock for a producer that knows the transactions' ids
// already (txids[i] is txs[i].Hash()), so that none is encoded and hashed
// again for the Merkle root.
func (p *Params) NewBlockOf(prev *ela.Header, time uint32, txs []*ela.Tx, txids []ela.Hash) *ela.Block {
	b := p.block(time, txs, txids)
	b.Header.Previous = prev.Hash()
	b.Header.Height = prev.Height + 1
	return b
}

// Genesis returns the genesis block of a development chain stamped time:
// a coinbase paying amount to payTo, then the registration of ELA
// ([ela.ELAAsset]), in the order of the main chain's genesis (Elastos.ELA
// core/manager.go GenesisBlock).
func (p *Params) Genesis(payTo ela.ProgramHash, amount ela.Fixed64, time uint32) *ela.Block {
	txs := []*ela.Tx{p.Coinbase(0, payTo, amount), ela.ELAAsset()}
	return p.block(time, txs, txids(txs))
}

func (p *Params) block(time uint32, txs []*ela.Tx, txids []ela.Hash) *ela.Block {
	return &ela.Block{
		Header: ela.Header{
			Timestamp:  time,
			Bits:       p.Bits,
			MerkleRoot: ela.MerkleRoot(txids),
			AuxPow:     ela.GenesisBlock().Header.AuxPow,
		},
		Transactions: txs,
	}
}

// txids returns the ids of txs.
func txids(txs []*ela.Tx) []ela.Hash {
	ids := make([]ela.Hash, len(txs))
	for i, tx := range txs {
		ids[i] = tx.Hash()
	}
	return ids
}

// BlockRule names a rule of a block's structure.
type BlockRule string

// The rules CheckBlock applies.
const (
	BlockLink        BlockRule = "link"         // the height, previous hash or time does not follow the previous block
	BlockBits        BlockRule = "bits"         // the block states another target than the chain's
	BlockCoinbase    BlockRule = "coinbase"     // the first transaction is not a coinbase, or another one is
	BlockMerkle      BlockRule = "merkle-root"  // the header's Merkle root is not that of the transactions
	BlockDuplicate   BlockRule = "duplicate-tx" // a transaction appears twice
	BlockDoubleSpend BlockRule = "double-spend" // two inputs of the block spend the same output
)

// BlockError is the error of a block that breaks a rule.
type BlockError struct {
	Rule BlockRule
	Tx   int // index of the transaction at fault, or -1
	Err  error
}

func (e *BlockError) Error() string {
	if e.Tx < 0 {
		return fmt.Sprintf("ledger: block: %s: %v", e.Rule, e.Err)
	}
	return fmt.Sprintf("ledger: block: %s: transaction %d: %v", e.Rule, e.Tx, e.Err)
}

func (e *BlockError) Unwrap() error { return e.Err }

func blockErrorf(r BlockRule, tx int, format string, args ...any) *BlockError {
	return &BlockError{Rule: r, Tx: tx, Err: fmt.Errorf(format, args...)}
}

// CheckBlock checks a block's structure against the block before it: the
// next height, the previous block's hash, a later time, the chain's target,
// a coinbase first and nowhere else, the Merkle root of its transactions,
// no transaction twice and no output spent twice (Elastos.ELA.SideChain
// blockchain/validator.go). What each transaction spends, and the
// coinbase's amount, the caller checks with CheckTx, CheckSpends and
// CheckCoinbase, as only it knows the outputs spent.
func (p *Params) CheckBlock(b *ela.Block, prev *ela.Header) error {
	h := &b.Header
	switch {
	case h.Height != prev.Height+1:
		return blockErrorf(BlockLink, -1, "height %d after height %d", h.Height, prev.Height)
	case h.Previous != prev.Hash():
		return blockErrorf(BlockLink, -1, "previous block %s, the chain's is %s", h.Previous, prev.Hash())
	case h.Timestamp <= prev.Timestamp:
		return blockErrorf(BlockLink, -1, "time %d is not after the previous block's %d", h.Timestamp, prev.Timestamp)
	case h.Bits != p.Bits:
		return blockErrorf(BlockBits, -1, "bits 0x%08x, the chain's are 0x%08x", h.Bits, p.Bits)
	case len(b.Transactions) == 0 || b.Transactions[0].Type() != ela.TxCoinBase:
		return blockErrorf(BlockCoinbase, 0, "the first transaction is not a coinbase")
	}
	hashes := make([]ela.Hash, len(b.Transactions))
	txs := make(map[ela.Hash]int, len(b.Transactions))
	spent := make(map[ela.Input]int)
	for i, tx := range b.Transactions {
		if i > 0 && tx.Type() == ela.TxCoinBase {
			return blockErrorf(BlockCoinbase, i, "a second coinbase")
		}
		hashes[i] = tx.Hash()
		if j, ok := txs[hashes[i]]; ok {
			return blockErrorf(BlockDuplicate, i, "transaction %s is also transaction %d", hashes[i], j)
		}
		txs[hashes[i]] = i
		if i == 0 {
			continue
		}
		for _, in := range tx.Inputs {
			key := ela.Input{TxID: in.TxID, Index: in.Index}
			if j, ok := spent[key]; ok {
				return blockErrorf(BlockDoubleSpend, i, "output %s:%d is also spent by transaction %d", in.TxID, in.Index, j)
			}
			spent[key] = i
		}
	}
	if root := ela.MerkleRoot(hashes); root != h.MerkleRoot {
		return blockErrorf(BlockMerkle, -1, "header root %s, the transactions' is %s", h.MerkleRoot, root)
	}
	return nil
}
