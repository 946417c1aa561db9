package ledgerstore

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/ledger"
	"github.com/didlight/didlight/host/internal/record"
	"github.com/didlight/didlight/host/internal/store"
)

// ErrNotFound is returned for an unknown block, transaction, confirm or
// asset.
var ErrNotFound = errors.New("chain: not found")

// utxo returns the unspent output an input names, or the rule its absence
// breaks: a spent output (DoubleSpend) or one the chain never made
// (UnknownReferredTx).
func (s Reader) utxo(in ela.Input) (*record.UTXO, error) {
	if u, ok, err := s.unspent(in.TxID, in.Index); ok || err != nil {
		return u, err
	}
	t, _, err := s.Transaction(in.TxID)
	switch {
	case errors.Is(err, ErrNotFound):
		return nil, ledger.Errorf(ledger.UnknownReferredTx, "transaction %s is not in the chain", in.TxID)
	case err != nil:
		return nil, err
	case int(in.Index) >= len(t.Outputs):
		return nil, ledger.Errorf(ledger.UnknownReferredTx, "transaction %s has %d outputs, no output %d", in.TxID, len(t.Outputs), in.Index)
	}
	return nil, ledger.Errorf(ledger.DoubleSpend, "output %s:%d is already spent", in.TxID, in.Index)
}

// unspent returns the output index of transaction txid if it is unspent;
// ok is false if it is not (spent, or never made).
func (s Reader) unspent(txid ela.Hash, index uint16) (u *record.UTXO, ok bool, err error) {
	v, ok := bucket(s.tx, BucketUTXOs).Get(record.OutpointKey(txid, index))
	if !ok {
		return nil, false, nil
	}
	if u, err = record.ParseUTXO(v); err != nil {
		return nil, false, fmt.Errorf("chain: output %s:%d: %w", txid, index, err)
	}
	return u, true, nil
}

// Spends returns the outputs tx's inputs spend, or a *ledger.RuleError
// naming the rule an input breaks (see utxo).
func (s Reader) Spends(tx *ela.Tx) ([]ledger.Spent, error) {
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

// Transaction returns a transaction in the chain and where it is, or ErrNotFound.
func (s Reader) Transaction(h ela.Hash) (*ela.Tx, *record.Tx, error) {
	v, ok := bucket(s.tx, BucketTxs).Get(h[:])
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

// HasTx reports whether the chain holds the transaction h.
func (s Reader) HasTx(h ela.Hash) bool {
	_, ok := bucket(s.tx, BucketTxs).Get(h[:])
	return ok
}

// ReadBlock returns the stored record of the block at height, or
// ErrNotFound.
func ReadBlock(tx store.Tx, height uint32) (*record.Block, error) {
	v, ok := bucket(tx, BucketBlocks).Get(record.HeightKey(height))
	if !ok {
		return nil, ErrNotFound
	}
	b, err := record.ParseBlock(v)
	if err != nil {
		return nil, fmt.Errorf("chain: block %d: %w", height, err)
	}
	return b, nil
}

// Height returns the height of the block with hash h, or ErrNotFound.
func (s Reader) Height(h ela.Hash) (uint32, error) {
	v, ok := bucket(s.tx, BucketHashes).Get(h[:])
	if !ok {
		return 0, ErrNotFound
	}
	return record.ParseHeightKey(v)
}

// UTXOs appends the unspent outputs of addr in chain order to out, their
// confirmations counted up to the tip at height tip.
func (s Reader) UTXOs(out []UTXO, addr ela.ProgramHash, tip uint32) ([]UTXO, error) {
	for k, v := range bucket(s.tx, BucketAddresses).Scan(store.Range{Prefix: record.AddressPrefix(addr)}) {
		index, err := record.ParseAddressKey(k)
		if err != nil {
			return nil, err
		}
		a, err := record.ParseAddressUTXO(v)
		if err != nil {
			return nil, err
		}
		u, ok, err := s.unspent(a.TxID, index)
		switch {
		case err != nil:
			return nil, err
		case !ok:
			return nil, fmt.Errorf("chain: address %s lists output %s:%d, which is not unspent: %w", addr, a.TxID, index, store.ErrCorrupt)
		}
		typ, err := s.txType(a.TxID)
		if err != nil {
			return nil, err
		}
		out = append(out, UTXO{Address: addr, Txid: a.TxID, Index: index, Asset: a.Asset, Value: a.Value, OutputLock: u.Output.OutputLock,
			TxType: typ, Height: u.Height, Confirmations: tip - u.Height + 1})
	}
	return out, nil
}

// txType returns the type of the chain's transaction h.
func (s Reader) txType(h ela.Hash) (ela.TxType, error) {
	v, ok := bucket(s.tx, BucketTxs).Get(h[:])
	if !ok {
		return 0, fmt.Errorf("chain: transaction %s of an unspent output: %w", h, store.ErrCorrupt)
	}
	rec, err := record.ParseTx(v)
	if err != nil {
		return 0, fmt.Errorf("chain: transaction %s: %w", h, err)
	}
	typ, err := ela.TypeOf(rec.Raw)
	if err != nil {
		return 0, fmt.Errorf("chain: transaction %s: %w: %w", h, store.ErrCorrupt, err)
	}
	return typ, nil
}
