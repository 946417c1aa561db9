package chain

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/didindex"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// snapshot reads the chain's state inside one store transaction: a View
// for readers and admission, or the Update that makes a block, which then
// sees the block's earlier transactions.
type snapshot struct {
	c  *Chain
	tx store.Tx
}

// dids returns a reader of the DID index in the snapshot's transaction.
func (s snapshot) dids() didindex.Reader { return s.c.index.Read(s.tx) }

// utxo returns the unspent output an input names, or the rule its absence
// breaks: a spent output (DoubleSpend) or one the chain never made
// (UnknownReferredTx).
func (s snapshot) utxo(in ela.Input) (*record.UTXO, error) {
	if u, ok, err := s.unspent(in.TxID, in.Index); ok || err != nil {
		return u, err
	}
	t, _, err := s.transaction(in.TxID)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, rejectf(ledger.UnknownReferredTx, "transaction %s is not in the chain", in.TxID)
	case err != nil:
		return nil, err
	case int(in.Index) >= len(t.Outputs):
		return nil, rejectf(ledger.UnknownReferredTx, "transaction %s has %d outputs, no output %d", in.TxID, len(t.Outputs), in.Index)
	}
	return nil, rejectf(ledger.DoubleSpend, "output %s:%d is already spent", in.TxID, in.Index)
}

// unspent returns the output index of transaction txid if it is unspent;
// ok is false if it is not (spent, or never made).
func (s snapshot) unspent(txid ela.Hash, index uint16) (u *record.UTXO, ok bool, err error) {
	v, ok := bucket(s.tx, bucketUTXOs).Get(record.OutpointKey(txid, index))
	if !ok {
		return nil, false, nil
	}
	if u, err = record.ParseUTXO(v); err != nil {
		return nil, false, fmt.Errorf("chain: output %s:%d: %w", txid, index, err)
	}
	return u, true, nil
}

// spends returns the outputs tx's inputs spend.
func (s snapshot) spends(tx *ela.Tx) ([]ledger.Spent, error) {
	out := make([]ledger.Spent, len(tx.Inputs))
	for i, in := range tx.Inputs {
		u, err := s.utxo(in)
		if err != nil {
			return nil, err
		}
		out[i] = ledger.Spent{Output: u.Output, Height: u.Height, Coinbase: u.Coinbase}
	}
	return out, nil
}

// tx returns a transaction in the chain and where it is, or ErrNotFound.
func (s snapshot) transaction(h ela.Hash) (*ela.Tx, *record.Tx, error) {
	v, ok := bucket(s.tx, bucketTxs).Get(h[:])
	if !ok {
		return nil, nil, ErrNotFound
	}
	rec, err := record.ParseTx(v)
	if err != nil {
		return nil, nil, fmt.Errorf("chain: transaction %s: %w", h, err)
	}
	t, err := ela.ParseTx(rec.Raw)
	if err != nil {
		return nil, nil, fmt.Errorf("chain: transaction %s: %w: %w", h, store.ErrCorrupt, err)
	}
	return t, rec, nil
}

// hasTx reports whether the chain holds the transaction h.
func (s snapshot) hasTx(h ela.Hash) bool {
	_, ok := bucket(s.tx, bucketTxs).Get(h[:])
	return ok
}

// readBlock returns the stored record of the block at height, or
// ErrNotFound.
func readBlock(tx store.Tx, height uint32) (*record.Block, error) {
	v, ok := bucket(tx, bucketBlocks).Get(record.HeightKey(height))
	if !ok {
		return nil, ErrNotFound
	}
	b, err := record.ParseBlock(v)
	if err != nil {
		return nil, fmt.Errorf("chain: block %d: %w", height, err)
	}
	return b, nil
}
