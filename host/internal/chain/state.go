package chain

import (
	"errors"
	"fmt"

	"github.com/didlight/didlight/core/did"
	"github.com/didlight/didlight/core/ela"
	"github.com/didlight/didlight/core/idop"
	"github.com/didlight/didlight/core/ledger"
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

// didRecord returns the state of the DID with key key, or nil.
func (s snapshot) didRecord(key string) (*record.DID, error) {
	v, ok := bucket(s.tx, bucketDIDs).Get([]byte(key))
	if !ok {
		return nil, nil
	}
	rec, err := record.ParseDID(v)
	if err != nil {
		return nil, fmt.Errorf("chain: DID %s: %w", key, err)
	}
	return rec, nil
}

// entry returns the history entry of the DID with key key at a height and
// position.
func (s snapshot) entry(key string, height, pos uint32) (*record.Entry, error) {
	v, ok := bucket(s.tx, bucketHistory).Get(record.HistoryKey(key, height, pos))
	if !ok {
		return nil, fmt.Errorf("chain: DID %s has no operation at %d/%d: %w", key, height, pos, store.ErrCorrupt)
	}
	e, err := record.ParseEntry(v)
	if err != nil {
		return nil, fmt.Errorf("chain: DID %s: %w", key, err)
	}
	return e, nil
}

// document returns the latest document of a DID with state rec, parsed
// once and then kept in the chain's cache.
func (s snapshot) document(key string, rec *record.DID) (*did.Document, error) {
	if doc, ok := s.c.cache.Document(rec.DocTxid); ok {
		return doc, nil
	}
	e, err := s.entry(key, rec.DocHeight, rec.DocPos)
	if err != nil {
		return nil, err
	}
	op, err := s.c.engine.DecodeOperation(e.Request)
	if err != nil || op.Document == nil {
		return nil, fmt.Errorf("chain: the document of %s in %s does not decode: %v: %w", key, e.Txid, err, store.ErrCorrupt)
	}
	s.c.cache.KeepDocument(rec.DocTxid, op.Document)
	return op.Document, nil
}

// state returns what idop.Validate needs about the DID with key key: nil
// when it does not exist.
func (s snapshot) state(key string) (*idop.State, error) {
	rec, err := s.didRecord(key)
	if err != nil || rec == nil {
		return nil, err
	}
	doc, err := s.document(key, rec)
	if err != nil {
		return nil, err
	}
	return &idop.State{Document: doc, Txid: rec.LastTxid.String(), Deactivated: rec.Deactivated}, nil
}

// Document implements did.Lookup: the latest document of d, nil when d
// does not exist or is deactivated.
func (s snapshot) Document(d did.DID) (*did.Document, error) {
	key := d.Key()
	rec, err := s.didRecord(key)
	if err != nil || rec == nil || rec.Deactivated {
		return nil, err
	}
	return s.document(key, rec)
}

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
