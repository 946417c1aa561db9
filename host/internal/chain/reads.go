package chain

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/host/internal/ledgerstore"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// Tip returns the height, hash and time (Unix seconds) of the last block.
func (c *Chain) Tip() (height uint32, hash ela.Hash, blockTime int64) {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return c.tip.Height, c.tip.Hash, int64(c.tip.Time)
}

// view runs fn on a snapshot of the chain.
func (c *Chain) view(fn func(s snapshot) error) error {
	if c.isClosed() {
		return errClosed
	}
	return c.db.View(func(tx store.Tx) error { return fn(snapshot{c: c, tx: tx}) })
}

// BlockHash returns the hash of the block at height, or ErrNotFound.
func (c *Chain) BlockHash(height uint32) (ela.Hash, error) {
	var h ela.Hash
	err := c.view(func(s snapshot) error {
		b, err := ledgerstore.ReadBlock(s.tx, height)
		if err == nil {
			h = b.Hash
		}
		return err
	})
	return h, err
}

// BlockByHeight returns the block at height with what the chain knows of
// it, or ErrNotFound.
func (c *Chain) BlockByHeight(height uint32) (*ela.Block, ela.BlockContext, error) {
	var b *ela.Block
	var ctx ela.BlockContext
	err := c.view(func(s snapshot) error {
		var err error
		b, ctx, err = s.block(height)
		return err
	})
	return b, ctx, err
}

// BlockByHash returns the block with hash h with what the chain knows of
// it, or ErrNotFound.
func (c *Chain) BlockByHash(h ela.Hash) (*ela.Block, ela.BlockContext, error) {
	var b *ela.Block
	var ctx ela.BlockContext
	err := c.view(func(s snapshot) error {
		height, err := s.ledger().Height(h)
		if err != nil {
			return err
		}
		b, ctx, err = s.block(height)
		return err
	})
	return b, ctx, err
}

// Confirm returns the DPoS confirm of the block with hash h, or
// ErrNotFound.
func (c *Chain) Confirm(h ela.Hash) (*ela.Confirm, error) {
	var cf *ela.Confirm
	err := c.view(func(s snapshot) error {
		height, err := s.ledger().Height(h)
		if err != nil {
			return err
		}
		v, ok := bucket(s.tx, ledgerstore.BucketConfirms).Get(record.HeightKey(height))
		if !ok {
			return fmt.Errorf("chain: block %d has no confirm: %w", height, store.ErrCorrupt)
		}
		if cf, err = ela.ParseConfirm(v); err != nil {
			return fmt.Errorf("chain: confirm of block %d: %w: %w", height, store.ErrCorrupt, err)
		}
		return nil
	})
	return cf, err
}

// Tx returns a transaction of the chain or of the mempool, with what the
// chain knows of it (the zero context for a pooled one), or ErrNotFound.
func (c *Chain) Tx(h ela.Hash) (*ela.Tx, ela.TxContext, error) {
	// The mempool first: a transaction leaves it only once the block that
	// holds it is stored, so a store read begun after a miss sees that
	// block. Read the other way round, a block stored between the two
	// reads hid a transaction from both.
	if pooled, ok := c.pool.Get(h); ok {
		return pooled.tx, ela.TxContext{}, nil
	}
	var t *ela.Tx
	var ctx ela.TxContext
	err := c.view(func(s snapshot) error {
		var rec *record.Tx
		var err error
		if t, rec, err = s.ledger().Transaction(h); err != nil {
			return err
		}
		b, err := ledgerstore.ReadBlock(s.tx, rec.Height)
		if err != nil {
			return err
		}
		tip, err := readTip(s.tx)
		if err != nil {
			return err
		}
		ctx = ela.TxContext{BlockHash: b.Hash, Confirmations: tip.Height - rec.Height + 1, BlockTime: b.Header.Timestamp}
		return nil
	})
	return t, ctx, err
}

// Mempool returns the pooled transactions in arrival order.
func (c *Chain) Mempool() []*ela.Tx {
	entries := c.pool.Entries()
	txs := make([]*ela.Tx, len(entries))
	for i, e := range entries {
		txs[i] = e.tx
	}
	return txs
}

// Balance returns what addr holds of an asset in the chain's unspent
// outputs (pooled transactions do not count).
func (c *Chain) Balance(addr ela.ProgramHash, asset ela.Hash) (ela.Fixed64, error) {
	var bal ela.Fixed64
	err := c.view(func(s snapshot) error {
		var err error
		bal, err = s.ledger().Balance(addr, asset)
		return err
	})
	return bal, err
}

// UTXO is an unspent output of an address (see ledgerstore.UTXO).
type UTXO = ledgerstore.UTXO

// UTXOs returns the unspent outputs of the addresses, each address's in
// chain order, read in one snapshot of the chain (pooled transactions do
// not count).
func (c *Chain) UTXOs(addrs ...ela.ProgramHash) ([]UTXO, error) {
	var out []UTXO
	err := c.view(func(s snapshot) error {
		tip, err := readTip(s.tx)
		if err != nil {
			return err
		}
		for _, addr := range addrs {
			if out, err = s.ledger().UTXOs(out, addr, tip.Height); err != nil {
				return err
			}
		}
		return nil
	})
	return out, err
}

// Spendable reports whether u may be spent as the ELA main chain's wallet
// calls judge it (listunspent's spendable, getutxosbyamount): a coinbase
// output only once CoinbaseMaturity blocks have followed its own, to the
// tip (Elastos.ELA servers/interfaces.go leaves out those with
// bestHeight - height < CoinbaseMaturity; a devnet's maturity is 0).
func (c *Chain) Spendable(u UTXO) bool {
	return u.TxType != ela.TxCoinBase || u.Confirmations-1 >= c.params.CoinbaseMaturity
}

// PoolSpends reports whether a pooled transaction spends output index of
// transaction txid.
func (c *Chain) PoolSpends(txid ela.Hash, index uint16) bool {
	return c.pool.Spent(ela.Input{TxID: txid, Index: index})
}

// Asset returns the asset whose id is h: the transaction that registered
// it. The chain registers one, ELA, in its genesis block.
func (c *Chain) Asset(h ela.Hash) (*ela.Asset, error) {
	var a *ela.Asset
	err := c.view(func(s snapshot) error {
		t, _, err := s.ledger().Transaction(h)
		if err != nil {
			return err
		}
		reg, ok := t.Payload.(*ela.RegisterAsset)
		if !ok {
			return ErrNotFound
		}
		a = &reg.Asset
		return nil
	})
	return a, err
}

// Stats are counters of the node.
type Stats struct {
	TxnCnt   uint64 // transactions in blocks, coinbases included
	RxTxnCnt uint64 // transactions received by SubmitTx
	NodeID   uint64 // a random id given to the store when it was made
	Mempool  int    // transactions in the mempool
}

// Stats returns the node's counters.
func (c *Chain) Stats() Stats {
	c.mu.RLock()
	defer c.mu.RUnlock()
	return Stats{TxnCnt: c.txnCount, RxTxnCnt: c.received.Load(), NodeID: c.nodeID, Mempool: c.pool.Len()}
}

// block returns the block at height and its context.
func (s snapshot) block(height uint32) (*ela.Block, ela.BlockContext, error) {
	rec, err := ledgerstore.ReadBlock(s.tx, height)
	if err != nil {
		return nil, ela.BlockContext{}, err
	}
	b := &ela.Block{Header: rec.Header, Transactions: make([]*ela.Tx, len(rec.TxIDs))}
	for i, id := range rec.TxIDs {
		if b.Transactions[i], _, err = s.ledger().Transaction(id); err != nil {
			if errors.Is(err, ErrNotFound) {
				err = store.ErrCorrupt
			}
			return nil, ela.BlockContext{}, fmt.Errorf("chain: transaction %d of block %d: %w", i, height, err)
		}
	}
	tip, err := readTip(s.tx)
	if err != nil {
		return nil, ela.BlockContext{}, err
	}
	var next ela.Hash
	if height < tip.Height {
		n, err := ledgerstore.ReadBlock(s.tx, height+1)
		if err != nil {
			return nil, ela.BlockContext{}, err
		}
		next = n.Hash
	}
	return b, s.c.params.Context(&b.Header, tip.Height, next), nil
}
