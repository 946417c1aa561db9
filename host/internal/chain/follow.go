package chain

import (
	"context"
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/keys"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/store"
)

// A follower's chain (Config.Follower) takes its blocks from another node
// through Apply, which checks each with the rules the chain applies to the
// blocks it makes itself, and makes none: Devnet is false, and the calls
// that make blocks or take transactions fail with ErrFollower.

// ErrFollower is returned by Mine, Control (so by package devnet's
// controls), SubmitTx and SubmitRequest on a follower's chain: its
// upstream makes its blocks.
var ErrFollower = errors.New("chain: a follower's chain makes no blocks and takes no transactions: its upstream does")

// ErrNotFollower is returned by Apply on a chain that makes its own blocks.
var ErrNotFollower = errors.New("chain: Apply needs a follower's chain (Config.Follower)")

// BlockError is the error of a block Apply refuses: which block, which of
// its transactions (Tx, or -1 for the block itself), and why: a
// *ledger.BlockError for its structure or its link to the tip (rule
// ledger.BlockLink), a *RejectError for a transaction, or a confirm that
// does not finalize it.
type BlockError struct {
	Height uint32
	Hash   ela.Hash
	Tx     int
	Err    error
}

func (e *BlockError) Error() string {
	if e.Tx < 0 {
		return fmt.Sprintf("chain: block %d (%s) refused: %v", e.Height, e.Hash, e.Err)
	}
	return fmt.Sprintf("chain: block %d (%s) refused: transaction %d: %v", e.Height, e.Hash, e.Tx, e.Err)
}

func (e *BlockError) Unwrap() error { return e.Err }

// follower is what a follower's chain knows to check confirms: every
// arbiter its dev seed can derive.
type follower struct {
	arbiters ledger.Arbiters
}

func newFollower(seed string) *follower {
	pubs := make([]keys.PublicKey, MaxArbiters)
	for i := range pubs {
		pubs[i] = ArbiterKey(seed, i).Public()
	}
	return &follower{arbiters: ledger.NewArbiters(pubs)}
}

// produces returns ErrFollower on a follower's chain.
func (c *Chain) produces() error {
	if c.follower != nil {
		return ErrFollower
	}
	return nil
}

// Apply appends a block made by another node of the same chain, with its
// DPoS confirm, after checking it as the chain checks its own: its link to
// the tip and its structure (ledger.CheckBlock), each transaction with the
// mempool's checks against the state the block's earlier transactions
// leave (signatures, spends, fees, identity operations at the block's
// time), the coinbase against the fees, and the confirm (the chain's first
// arbiter sponsors it, every vote accepts and comes from a distinct
// arbiter of the chain's seed, and every signature verifies). The block
// and every index it changes are committed in one store transaction. A
// block that breaks a rule gets a *BlockError and changes nothing.
func (c *Chain) Apply(ctx context.Context, b *ela.Block, cf *ela.Confirm) error {
	if c.follower == nil {
		return ErrNotFollower
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mining.Lock()
	defer c.mining.Unlock()
	if c.isClosed() {
		return errClosed
	}
	c.mu.RLock()
	prev := c.tipHeader
	c.mu.RUnlock()
	h := b.Hash()
	refuse := func(tx int, err error) error { return &BlockError{Height: b.Header.Height, Hash: h, Tx: tx, Err: err} }
	if err := c.params.CheckBlock(b, &prev); err != nil {
		tx := -1
		if be, ok := errors.AsType[*ledger.BlockError](err); ok {
			tx = be.Tx
		}
		return refuse(tx, err)
	}
	if err := c.follower.arbiters.CheckConfirm(cf, h, c.verifier); err != nil {
		return refuse(-1, err)
	}
	prepared, err := c.prepareAll(ctx, rawTxs(b.Transactions[1:]))
	if err != nil {
		return err
	}
	entries, pos, err := entriesOf(prepared)
	if err != nil {
		return refuse(pos, err)
	}
	err = c.update(func(tx store.Tx) error { return c.applyBlock(ctx, tx, b, entries, cf, refuse) })
	if err != nil {
		if _, ok := errors.AsType[*BlockError](err); ok || ctx.Err() != nil {
			return err
		}
		return fmt.Errorf("chain: applying block %d: %w", b.Header.Height, err)
	}
	c.advance(&newTip{block: b})
	return nil
}

// rawTxs returns the encodings of txs.
func rawTxs(txs []*ela.Tx) [][]byte {
	out := make([][]byte, len(txs))
	for i, t := range txs {
		out[i] = t.Bytes()
	}
	return out
}

// applyBlock writes b and its confirm cf inside the store transaction tx,
// checking each of its transactions but the coinbase (entries, prepared by
// prepareAll) against the state the earlier ones leave. The coinbase comes
// last, as when the chain makes a block, so that no transaction spends it.
func (c *Chain) applyBlock(ctx context.Context, tx store.Tx, b *ela.Block, entries []*entry, cf *ela.Confirm, refuse func(int, error) error) error {
	height := b.Header.Height
	w := newBatch(c, tx, b.Header.Timestamp)
	txids, fees, err := c.applyAll(ctx, w, entries, height, refuse)
	if err != nil {
		return err
	}
	cb := b.Transactions[0]
	if err := c.params.CheckCoinbase(cb, height, fees); err != nil {
		return refuse(0, asReject(err))
	}
	txids[0] = cb.Hash()
	if err := w.applyTx(cb, txids[0], cb.Bytes(), height, 0, nil); err != nil {
		return err
	}
	return w.putBlock(b, txids, cf)
}
